<?php
// SabreDAV (Debian's php-sabre-dav) as a CalDAV peer with HTTP Digest authentication, the
// default of SabreDAV and Baikal: run by servers.py as `php -S 127.0.0.1:PORT sabredav_server.php`
// with SABRE_DB (an SQLite file, created with one user and one calendar when missing),
// SABRE_USER and SABRE_PASSWORD in the environment.
error_reporting(E_ALL & ~E_DEPRECATED & ~E_NOTICE & ~E_WARNING);
date_default_timezone_set('UTC');
require_once 'Sabre/autoload.php';

$path = getenv('SABRE_DB');
$user = getenv('SABRE_USER');
$fresh = !file_exists($path);
$pdo = new PDO('sqlite:' . $path);
$pdo->setAttribute(PDO::ATTR_ERRMODE, PDO::ERRMODE_EXCEPTION);
if ($fresh) {
    // The schema of Sabre's examples/sql/sqlite.*.sql (docs may be left out of an install).
    $pdo->exec('CREATE TABLE users (id integer primary key asc, username TEXT, digesta1 TEXT, UNIQUE(username))');
    $pdo->exec('CREATE TABLE principals (id INTEGER PRIMARY KEY ASC, uri TEXT, email TEXT, displayname TEXT, vcardurl TEXT, UNIQUE(uri))');
    $pdo->exec('CREATE TABLE groupmembers (id INTEGER PRIMARY KEY ASC, principal_id INTEGER, member_id INTEGER, UNIQUE(principal_id, member_id))');
    $pdo->exec('CREATE TABLE calendarobjects (id integer primary key asc, calendardata blob, uri text, calendarid integer, lastmodified integer, '
        . 'etag text, size integer, componenttype text, firstoccurence integer, lastoccurence integer)');
    $pdo->exec('CREATE TABLE calendars (id integer primary key asc, principaluri text, displayname text, uri text, ctag integer, description text, '
        . 'calendarorder integer, calendarcolor text, timezone text, components text, transparent bool)');
    $pdo->prepare('INSERT INTO users (username, digesta1) VALUES (?, ?)')
        ->execute([$user, md5($user . ':SabreDAV:' . getenv('SABRE_PASSWORD'))]);
    foreach (['', '/calendar-proxy-read', '/calendar-proxy-write'] as $suffix) {
        $pdo->prepare('INSERT INTO principals (uri, email, displayname) VALUES (?, ?, ?)')
            ->execute(['principals/' . $user . $suffix, $suffix === '' ? $user : null, $suffix === '' ? $user : null]);
    }
    $pdo->prepare('INSERT INTO calendars (principaluri, displayname, uri, ctag, components, calendarcolor) VALUES (?, ?, ?, 1, ?, ?)')
        ->execute(['principals/' . $user, 'Work', 'work', 'VEVENT,VTODO', '#3366CCFF']);
}

$principals = new \Sabre\DAVACL\PrincipalBackend\PDO($pdo);
$calendars = new \Sabre\CalDAV\Backend\PDO($pdo);
$server = new \Sabre\DAV\Server([
    new \Sabre\CalDAV\Principal\Collection($principals),
    new \Sabre\CalDAV\CalendarRootNode($principals, $calendars),
]);
$server->setBaseUri('/');
$server->addPlugin(new \Sabre\DAV\Auth\Plugin(new \Sabre\DAV\Auth\Backend\PDO($pdo), 'SabreDAV'));
$server->addPlugin(new \Sabre\DAVACL\Plugin());
$server->addPlugin(new \Sabre\CalDAV\Plugin());
$server->exec();
