#!/usr/bin/env python3
"""Start a throwaway CalDAV server on loopback: Jadwal, Radicale or Xandikos.

Each server gets a free port on 127.0.0.1, a fresh temporary data directory and one user;
`start_server` returns a `Server` with the bare base URL, the user name and the password, and
`Server.stop()` (or leaving its `with` block) ends the process group and removes the data.
Processes run in their own session so that nothing is left behind, even when the caller fails:
an atexit hook and SIGTERM/SIGINT/SIGHUP handlers stop every server this module started.

  Jadwal    `jadwal user create` + `jadwal app-password create`, then `jadwal serve --workers 0`;
            HTTP Basic with the email and the app password (bcrypt, as in production).
  Radicale  htpasswd auth (bcrypt by default, `--radicale-auth plain` for plain text) with
            Radicale's login cache, owner_only rights, multifilesystem storage.
  SabreDAV  Debian's php-sabre-dav (1.8) under `php -S`, scripts/caldav/sabredav_server.php:
            HTTP Digest (MD5, qop=auth) as SabreDAV and Baikal default to, PDO SQLite storage,
            one calendar "work"; getctag but no sync-collection (1.8 predates it).
  Xandikos  `xandikos serve --defaults`: single-user, no authentication (Xandikos only does
            Basic auth over its self-signed HTTPS, `--htpasswd` requires `--autocert`); the client
            still sends the credentials, Xandikos ignores them.

As a command line tool:

  servers.py start radicale              start, print URL/user/password as JSON, wait for Ctrl-C
  servers.py start jadwal --jadwal-binary .build/debug/jadwal
  servers.py check xandikos              start, PROPFIND the bare URL, print RSS, stop
"""

from __future__ import annotations

import argparse
import atexit
import base64
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

KINDS = ("jadwal", "radicale", "xandikos", "sabredav")
DEFAULT_USER = "alice@example.com"
# The other accounts a multi-account check uses (Jadwal only), in this order.
EXTRA_USERS = ("bob@example.com", "carol@example.com")
VENV_BIN = Path(sys.executable).parent

_running: list["Server"] = []


class ServerError(RuntimeError):
    """A server could not be started or did not answer; the message says why."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tool(name: str) -> str:
    """A console script from this Python's venv, else from PATH."""
    candidate = VENV_BIN / name
    if candidate.exists():
        return str(candidate)
    found = shutil.which(name)
    if not found:
        raise ServerError(f"{name} is not installed (pip install -r scripts/requirements-test.txt)")
    return found


@dataclass
class Server:
    kind: str
    base_url: str  # bare server URL, ending in "/"
    username: str
    password: str
    process: subprocess.Popen
    data_dir: Path
    log_path: Path
    keep_data: bool = False
    notes: list[str] = field(default_factory=list)
    # More accounts on the same server, (username, password): the scheduling checks invite
    # between accounts. Only Jadwal has them; Radicale and Xandikos run single-user here.
    extra_users: list[tuple[str, str]] = field(default_factory=list)

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def port(self) -> int:
        return urllib.parse.urlsplit(self.base_url).port or 80

    def auth_header(self) -> str:
        token = base64.b64encode(f"{self.username}:{self.password}".encode()).decode()
        return "Basic " + token

    def rss_kib(self) -> int:
        """Resident memory of the server process and its children (KiB, VmRSS)."""
        total = 0
        for pid in [self.pid] + _children(self.pid):
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
            except (FileNotFoundError, ProcessLookupError):
                pass
        return total

    def log_tail(self, lines: int = 30) -> str:
        try:
            text = self.log_path.read_text(errors="replace").splitlines()
        except FileNotFoundError:
            return ""
        return "\n".join(text[-lines:])

    def describe(self) -> dict:
        return {"kind": self.kind, "url": self.base_url, "username": self.username,
                "password": self.password, "pid": self.pid, "data_dir": str(self.data_dir),
                "log": str(self.log_path), "notes": self.notes}

    def stop(self) -> None:
        _stop_process(self.process)
        if self in _running:
            _running.remove(self)
        if not self.keep_data:
            shutil.rmtree(self.data_dir, ignore_errors=True)

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def _children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except (FileNotFoundError, ProcessLookupError):
        return out
    for kid in kids:
        out.append(int(kid))
        out.extend(_children(int(kid)))
    return out


def _stop_process(process: subprocess.Popen, grace: float = 10.0) -> None:
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(timeout=5)
    # Anything else still in the group (a server's own helpers) goes too.
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def stop_all() -> None:
    for server in list(_running):
        try:
            server.stop()
        except Exception as error:  # keep stopping the others
            print(f"servers.py: stopping {server.kind} failed: {error}", file=sys.stderr)


def _on_signal(signum, _frame):
    stop_all()
    raise SystemExit(128 + signum)


atexit.register(stop_all)
# A parent may start us with signals blocked (Foundation's Process in Swift tests does):
# unblock them, so SIGTERM stops us and the servers we start inherit a clean mask.
signal.pthread_sigmask(signal.SIG_SETMASK, set())
for _sig in (signal.SIGTERM, signal.SIGHUP):
    signal.signal(_sig, _on_signal)


def _run(cmd: list[str], what: str, env: dict | None = None) -> str:
    try:
        result = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    except OSError as error:  # e.g. "Text file busy" while the binary is being linked
        raise ServerError(f"{what}: cannot run {cmd[0]}: {error}") from None
    except subprocess.TimeoutExpired:
        raise ServerError(f"{what} did not finish within 120 s: {' '.join(cmd)}") from None
    if result.returncode != 0:
        raise ServerError(f"{what} failed (exit {result.returncode}): {' '.join(cmd)}\n"
                          f"{result.stdout}{result.stderr}".rstrip())
    return result.stdout


def _wait_ready(server: Server, path: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    last = "no answer"
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise ServerError(f"{server.kind} exited with {server.process.returncode} while starting; "
                              f"log {server.log_path}:\n{server.log_tail()}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=2)
            conn.request("GET", path)
            response = conn.getresponse()
            response.read()
            conn.close()
            if response.status < 500 and (path != "/healthz" or response.status == 200):
                return
            last = f"HTTP {response.status}"
        except OSError as error:
            last = str(error)
        time.sleep(0.1)
    raise ServerError(f"{server.kind} did not answer GET {path} within {timeout:.0f} s ({last}); "
                      f"log {server.log_path}:\n{server.log_tail()}")


def _spawn(cmd: list[str], data_dir: Path, log_path: Path, env: dict | None = None) -> subprocess.Popen:
    log = open(log_path, "ab")
    try:
        return subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                cwd=data_dir, env=env, start_new_session=True)
    except OSError as error:
        raise ServerError(f"cannot run {cmd[0]}: {error}") from None
    finally:
        log.close()


def start_server(kind: str, *, jadwal_binary: str | None = None, username: str = DEFAULT_USER,
                 radicale_auth: str = "bcrypt", keep_data: bool = False, quiet_logs: bool = True,
                 timeout: float = 60.0, extra_users: int = 0, jadwal_workers: int = 0) -> Server:
    """Start `kind` on a free loopback port with a fresh data dir and one user (Jadwal: plus
    `extra_users` more, EXTRA_USERS in order, for checks between accounts; with
    `jadwal_workers` job workers, none by default so that only CalDAV is compared)."""
    if kind not in KINDS:
        raise ServerError(f"unknown server kind {kind!r}; one of {', '.join(KINDS)}")
    data_dir = Path(tempfile.mkdtemp(prefix=f"caldav-{kind}-"))
    log_path = data_dir / "server.log"
    try:
        for attempt in range(3):
            port = free_port()
            server = _start(kind, port, data_dir, log_path, jadwal_binary, username, radicale_auth,
                            quiet_logs, keep_data, extra_users, jadwal_workers)
            _running.append(server)
            try:
                _wait_ready(server, "/healthz" if kind == "jadwal" else "/", timeout)
                return server
            except ServerError:
                _stop_process(server.process)
                _running.remove(server)
                log = log_path.read_text(errors="replace") if log_path.exists() else ""
                if attempt < 2 and ("in use" in log.lower() or "address already" in log.lower()):
                    continue  # lost the race for the port; try another
                raise
        raise ServerError(f"{kind}: no free port after 3 attempts")
    except BaseException:
        if not keep_data:
            shutil.rmtree(data_dir, ignore_errors=True)
        raise


def _jadwal_account(binary: str, db: Path, username: str, env: dict) -> str:
    """Creates the account (unless it exists) and an app password for it; returns the password."""
    try:
        _run([binary, "user", "create", username, "--data-dir", str(db), "--time-zone", "Asia/Riyadh"], "jadwal user create", env)
    except ServerError as error:
        if "already" not in str(error).lower():
            raise
    out = _run([binary, "app-password", "create", username, "--name", "caldav-scripts", "--data-dir", str(db)],
               "jadwal app-password create", env)
    for line in out.splitlines():
        if line.lower().startswith("password:"):
            return line.split(":", 1)[1].strip()
    raise ServerError(f"could not read the app password from `jadwal app-password create`:\n{out}")


def _start(kind, port, data_dir, log_path, jadwal_binary, username, radicale_auth, quiet_logs, keep_data, extra_users=0,
           jadwal_workers=0):
    base_url = f"http://127.0.0.1:{port}/"
    if kind == "jadwal":
        if not jadwal_binary:
            raise ServerError("--jadwal-binary PATH is required for the jadwal server")
        binary = str(Path(jadwal_binary).resolve())
        if not os.access(binary, os.X_OK):
            raise ServerError(f"jadwal binary {binary} does not exist or is not executable")
        db = data_dir / "data"
        env = {k: v for k, v in os.environ.items() if not k.startswith("JADWAL_")}
        db.mkdir(exist_ok=True)
        password = _jadwal_account(binary, db, username, env)
        extras = [(name, _jadwal_account(binary, db, name, env)) for name in EXTRA_USERS[:extra_users]]
        cmd = [binary, "serve", "--hostname", "127.0.0.1", "--port", str(port), "--data-dir", str(db),
               "--workers", str(jadwal_workers)]
        if quiet_logs:
            cmd += ["--log-level", "warning"]
        process = _spawn(cmd, data_dir, log_path, env)
        return Server(kind, base_url, username, password, process, data_dir, log_path, keep_data, extra_users=extras)

    if kind == "radicale":
        password = "radicale-secret-" + base64.b32encode(os.urandom(5)).decode().lower()
        if radicale_auth == "bcrypt":
            import bcrypt  # pinned in requirements-test.txt; Radicale needs it for bcrypt too
            hashed = bcrypt.hashpw(password.encode(), bcrypt.gensalt(rounds=10)).decode()
        elif radicale_auth == "plain":
            hashed = password
        else:
            raise ServerError("--radicale-auth must be bcrypt or plain")
        (data_dir / "users").write_text(f"{username}:{hashed}\n")
        (data_dir / "collections").mkdir()
        config = f"""[server]
hosts = 127.0.0.1:{port}
max_connections = 16

[auth]
type = htpasswd
htpasswd_filename = {data_dir / 'users'}
htpasswd_encryption = {radicale_auth}
htpasswd_cache = True
cache_logins = True
cache_successful_logins_expiry = 3600
delay = 0

[rights]
type = owner_only

[storage]
filesystem_folder = {data_dir / 'collections'}

[web]
type = none

[logging]
level = {'warning' if quiet_logs else 'info'}
mask_passwords = True
"""
        (data_dir / "radicale.conf").write_text(config)
        cmd = [_tool("radicale"), "--config", str(data_dir / "radicale.conf")]
        process = _spawn(cmd, data_dir, log_path)
        server = Server(kind, base_url, username, password, process, data_dir, log_path, keep_data)
        server.notes.append(f"htpasswd {radicale_auth}, login cache on")
        return server

    if kind == "sabredav":
        php = shutil.which("php")
        if not php:
            raise ServerError("php is not installed (apt-get install php-cli php-sqlite3 php-sabre-dav)")
        password = "sabre-secret-" + base64.b32encode(os.urandom(5)).decode().lower()
        env = dict(os.environ, SABRE_DB=str(data_dir / "sabre.sqlite"), SABRE_USER=username, SABRE_PASSWORD=password)
        script = Path(__file__).resolve().parent / "sabredav_server.php"
        process = _spawn([php, "-S", f"127.0.0.1:{port}", str(script)], data_dir, log_path, env)
        server = Server(kind, base_url, username, password, process, data_dir, log_path, keep_data)
        server.notes.append("HTTP Digest (MD5, qop=auth), getctag without sync-collection")
        return server

    # xandikos
    root = data_dir / "dav"
    cmd = [_tool("xandikos"), "serve", "-d", str(root), "--defaults", "-l", "127.0.0.1", "-p", str(port),
           "--current-user-principal", "/user/", "--state-dir", str(data_dir / "state"),
           "--no-detect-systemd"]
    process = _spawn(cmd, data_dir, log_path)
    server = Server(kind, base_url, username, "unused", process, data_dir, log_path, keep_data)
    server.notes.append("single user, no authentication (Xandikos has Basic auth only over HTTPS)")
    return server


def _probe(server: Server) -> str:
    body = ('<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop>'
            '<d:current-user-principal/></d:prop></d:propfind>')
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("PROPFIND", "/", body=body, headers={
        "Depth": "0", "Content-Type": "application/xml; charset=utf-8", "Authorization": server.auth_header()})
    response = conn.getresponse()
    text = response.read().decode(errors="replace")
    conn.close()
    return f"PROPFIND / -> {response.status}\n{text[:600]}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=("start", "check"))
    parser.add_argument("kind", choices=KINDS)
    parser.add_argument("--jadwal-binary", help="path to the jadwal binary (kind jadwal)")
    parser.add_argument("--radicale-auth", choices=("bcrypt", "plain"), default="bcrypt")
    parser.add_argument("--user", default=DEFAULT_USER)
    parser.add_argument("--keep-data", action="store_true", help="do not delete the data dir at the end")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGINT, _on_signal)
    try:
        server = start_server(args.kind, jadwal_binary=args.jadwal_binary, username=args.user,
                              radicale_auth=args.radicale_auth, keep_data=args.keep_data)
    except ServerError as error:
        print(f"servers.py: {error}", file=sys.stderr)
        return 1
    with server:
        print(json.dumps(server.describe(), indent=2), flush=True)
        if args.action == "check":
            print(_probe(server))
            print(f"RSS: {server.rss_kib()} KiB")
            return 0
        print("running; Ctrl-C to stop", file=sys.stderr, flush=True)
        try:
            while server.process.poll() is None:
                time.sleep(0.5)
            print(f"{args.kind} exited with {server.process.returncode}:\n{server.log_tail()}", file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            return 0


if __name__ == "__main__":
    sys.exit(main())
