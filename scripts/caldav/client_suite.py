#!/usr/bin/env python3
"""Real CalDAV clients against a CalDAV server: the python `caldav` library and `vdirsyncer`.

  client_suite.py --server jadwal --jadwal-binary .build/debug/jadwal
  client_suite.py --server radicale
  client_suite.py --server xandikos
  client_suite.py --url http://127.0.0.1:8080/ --username me@example.com --password APP-PASSWORD

The server is started on loopback with a fresh data directory (servers.py) unless --url is given.
Sections:

  discovery   bare server URL -> current-user-principal -> calendar-home-set -> calendars;
              /.well-known/caldav redirects (RFC 6764); Jadwal's default calendars
  crud        MKCALENDAR (VEVENT and VTODO lists), create/update/delete events and tasks
  search      time-range calendar-query over a weekly RRULE event (Asia/Riyadh) with an EXDATE
              and an override moved to another week: which objects match (server-side, no
              client-side filtering), and exactly which instances, expanded by the server
              (<C:expand>) and by the client
  sync        sync-collection (RFC 6578): objects changed and deleted since a token; an empty
              delta from the newest token; an invalid token is refused
  vdirsyncer  two-way sync of 500 events between the server calendar and local folders, both
              ways, edits/deletes/adds on both sides, then a sync that must have nothing to do

A check that a peer (Radicale, Xandikos) is known not to pass is reported as that peer's
limitation (KNOWN_PEER_LIMITS below) instead of failing; on Jadwal every check is strict.
The last line is "client-suite: N passed, M failed"; the exit status is 1 on any failure.
"""

from __future__ import annotations

import argparse
import configparser
import datetime as dt
import hashlib
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.parse
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import servers  # noqa: E402

try:
    import caldav
    import requests
    from caldav.lib import error as caldav_error
except ImportError as exc:  # pragma: no cover
    sys.exit(f"client_suite.py: {exc}; install scripts/requirements-test.txt into this Python")

UTC = dt.timezone.utc

# (server kind, check name) -> why the peer does not pass it. Only peers may appear here.
KNOWN_PEER_LIMITS: dict[tuple[str, str], str] = {
    ("xandikos", "discovery.auth-wrong-password-401"):
        "started without authentication (Xandikos has Basic auth only over its self-signed HTTPS)",
    ("radicale", "search.server-expand.week-of-moved-away-instance"):
        "<C:expand> returns an override whose RECURRENCE-ID is in the range though the moved instance is not "
        "(RFC 4791 9.6.5: only instances overlapping the range)",
    ("xandikos", "search.server-expand.all-eight-weeks.rfc4791-form"):
        "expanded instances keep TZID local times instead of UTC (RFC 4791 9.6.5)",
    ("xandikos", "search.server-expand.week-with-override.rfc4791-form"):
        "expanded instances keep TZID local times instead of UTC (RFC 4791 9.6.5)",
    ("xandikos", "search.server-expand.week-of-exdate"):
        "with <C:expand> it returns the unexpanded series for a range holding no instance",
    ("xandikos", "search.server-expand.week-of-exdate.rfc4791-form"):
        "with <C:expand> it returns the unexpanded series (RRULE, local times) for a range holding no instance",
    ("xandikos", "search.server-expand.week-of-moved-away-instance"):
        "with <C:expand> it returns the unexpanded series for a range holding no instance",
    ("xandikos", "search.server-expand.week-of-moved-away-instance.rfc4791-form"):
        "with <C:expand> it returns the unexpanded series (RRULE, local times) for a range holding no instance",
}


class SuiteFailure(Exception):
    pass


class Suite:
    def __init__(self, kind: str):
        self.kind = kind
        self.passed: list[str] = []
        self.failed: list[tuple[str, str]] = []
        self.limits: list[tuple[str, str, str]] = []
        self.unexpected_pass: list[str] = []

    def check(self, name: str, ok: bool, detail: str = "") -> bool:
        known = KNOWN_PEER_LIMITS.get((self.kind, name)) if self.kind != "jadwal" else None
        if ok:
            self.passed.append(name)
            print(f"  ok    {name}" + (f"  ({detail})" if detail and len(detail) < 120 else ""), flush=True)
            if known:
                self.unexpected_pass.append(name)
        elif known:
            self.limits.append((name, known, detail))
            print(f"  peer  {name}: {self.kind} limitation: {known} [{detail}]", flush=True)
        else:
            self.failed.append((name, detail))
            print(f"  FAIL  {name}: {detail}", flush=True)
        return ok

    def require(self, name: str, ok: bool, detail: str = "") -> None:
        """A check the rest of the section depends on."""
        if not self.check(name, ok, detail):
            raise SuiteFailure(f"{name}: {detail}")

    def section(self, title: str, func, *args):
        print(f"\n== {title}", flush=True)
        try:
            return func(*args)
        except SuiteFailure as failure:
            print(f"  (section {title} stopped: {failure})", flush=True)
        except Exception as error:  # a client library error is a failure of the server under test
            message = f"{type(error).__name__}: {' '.join(str(error).split())[:600]}"
            if self.passed:
                message += f" (after check {self.passed[-1]})"
            self.failed.append((f"{title}: unexpected error", message))
            print(f"  FAIL  {title}: unexpected error: {message}", flush=True)
            if os.environ.get("CLIENT_SUITE_TRACEBACK"):
                traceback.print_exc()
        return None


# ---------------------------------------------------------------------------------------------
# iCalendar text

RIYADH_VTIMEZONE = """BEGIN:VTIMEZONE
TZID:Asia/Riyadh
BEGIN:STANDARD
TZOFFSETFROM:+0300
TZOFFSETTO:+0300
TZNAME:+03
DTSTART:19700101T000000
END:STANDARD
END:VTIMEZONE"""


def vcalendar(*components: str, timezone: bool = False) -> str:
    parts = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal//client-suite//EN"]
    if timezone:
        parts.append(RIYADH_VTIMEZONE)
    parts.extend(components)
    parts.append("END:VCALENDAR")
    return "\r\n".join("\r\n".join(p.splitlines()) for p in parts) + "\r\n"


def vevent(uid: str, start: str, end: str, summary: str, extra: str = "", tz: bool = False) -> str:
    prop = ";TZID=Asia/Riyadh" if tz else ""
    lines = ["BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20260101T000000Z", f"DTSTART{prop}:{start}",
             f"DTEND{prop}:{end}", f"SUMMARY:{summary}"]
    if extra:
        lines.extend(extra.strip().splitlines())
    lines.append("END:VEVENT")
    return "\n".join(lines)


def vtodo(uid: str, due: str, summary: str) -> str:
    return "\n".join(["BEGIN:VTODO", f"UID:{uid}", "DTSTAMP:20260101T000000Z", f"DTSTART:{due[:8]}T080000Z",
                      f"DUE:{due}", f"SUMMARY:{summary}", "STATUS:NEEDS-ACTION", "END:VTODO"])


def utc(y, m, d, h=0, mi=0) -> dt.datetime:
    return dt.datetime(y, m, d, h, mi, tzinfo=UTC)


def component_time(comp, name: str) -> dt.datetime | None:
    if name not in comp:
        return None
    value = comp[name].dt
    if isinstance(value, dt.datetime):
        return value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)
    return dt.datetime(value.year, value.month, value.day, tzinfo=UTC)


def fmt(t: dt.datetime | None) -> str:
    return t.strftime("%Y%m%dT%H%M%SZ") if t else "-"


# ---------------------------------------------------------------------------------------------
# sections

class Context:
    def __init__(self, url: str, username: str, password: str, kind: str, workdir: Path):
        self.url, self.username, self.password, self.kind, self.workdir = url, username, password, kind, workdir
        self.client: caldav.DAVClient | None = None
        self.principal = None
        self.home_url: str | None = None
        self.calendar = None
        self.tasks = None
        self.http = requests.Session()
        self.http.auth = (username, password)
        self.run_id = uuid.uuid4().hex[:8]


def discovery(s: Suite, c: Context) -> None:
    c.client = caldav.DAVClient(url=c.url, username=c.username, password=c.password, timeout=60)
    try:
        c.principal = c.client.principal()
    except Exception as error:
        raise SuiteFailure(f"no principal from the bare server URL {c.url}: {type(error).__name__}: "
                           f"{str(error)[:400]}") from None
    principal_url = str(c.principal.url)
    s.require("discovery.current-user-principal", bool(principal_url) and principal_url != c.url.rstrip("/") + "/",
              principal_url)
    try:
        home = c.principal.calendar_home_set
    except Exception as error:
        raise SuiteFailure(f"no calendar-home-set on {principal_url}: {error}") from None
    c.home_url = str(home.url)
    s.require("discovery.calendar-home-set", bool(c.home_url), c.home_url)
    calendars = c.principal.calendars()
    names = {}
    for cal in calendars:
        try:
            names[cal.get_display_name()] = cal
        except Exception:
            names[str(cal.url)] = cal
    s.check("discovery.list-calendars", isinstance(calendars, list), f"{len(calendars)}: {sorted(names)}")
    if c.kind == "jadwal":
        expected = {"Personal": {"VEVENT"}, "WhatsApp Events": {"VEVENT"}, "Tasks": {"VTODO"}}
        for name, comps in expected.items():
            cal = names.get(name)
            ok = cal is not None
            got = set()
            if ok:
                try:
                    got = set(cal.get_supported_components())
                except Exception as error:
                    got = {f"error: {error}"}
            s.check(f"discovery.default-calendar[{name}]", ok and comps <= got and (name != "Tasks" or "VEVENT" not in got),
                    f"supported components {sorted(got)}" if ok else "missing")
    # HTTP Basic: a wrong password is 401 with a Basic challenge; Jadwal also takes the user name
    # URL-encoded, as iOS 18.4+ sends it ("alice%40example.com").
    propfind_body = ('<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop>'
                     '<d:current-user-principal/></d:prop></d:propfind>')
    headers = {"Depth": "0", "Content-Type": "application/xml; charset=utf-8"}
    wrong = requests.request("PROPFIND", principal_url, data=propfind_body, headers=headers, timeout=30,
                             auth=(c.username, c.password + "-wrong"))
    s.check("discovery.auth-wrong-password-401", wrong.status_code == 401
            and "basic" in wrong.headers.get("WWW-Authenticate", "").lower(),
            f"{wrong.status_code} WWW-Authenticate={wrong.headers.get('WWW-Authenticate', '-')}")
    if c.kind == "jadwal" and "@" in c.username:
        encoded = requests.request("PROPFIND", principal_url, data=propfind_body, headers=headers, timeout=30,
                                   auth=(urllib.parse.quote(c.username, safe=""), c.password))
        s.check("discovery.auth-url-encoded-username", encoded.status_code == 207, f"{encoded.status_code}")
    # RFC 6764: /.well-known/caldav redirects to the DAV context; following it gets a principal.
    parts = urllib.parse.urlsplit(c.url)
    root = f"{parts.scheme}://{parts.netloc}"
    response = c.http.request("PROPFIND", root + "/.well-known/caldav", allow_redirects=False,
                              headers={"Depth": "0"}, timeout=30)
    location = response.headers.get("Location", "")
    s.check("discovery.well-known-redirect", response.status_code in (301, 302, 303, 307, 308) and bool(location),
            f"{response.status_code} Location={location or '-'}")
    if location:
        target = urllib.parse.urljoin(root + "/.well-known/caldav", location)
        body = ('<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop>'
                '<d:current-user-principal/></d:prop></d:propfind>')
        answer = c.http.request("PROPFIND", target, data=body, timeout=30,
                                headers={"Depth": "0", "Content-Type": "application/xml; charset=utf-8"})
        found = urllib.parse.urlsplit(principal_url).path in answer.text or \
            urllib.parse.unquote(urllib.parse.urlsplit(principal_url).path) in urllib.parse.unquote(answer.text)
        s.check("discovery.well-known-target-has-principal", answer.status_code == 207 and found,
                f"PROPFIND {target} -> {answer.status_code}")


def crud(s: Suite, c: Context) -> None:
    cal_id = f"suite-{c.run_id}"
    c.calendar = c.principal.make_calendar(name=f"Client Suite {c.run_id}", cal_id=cal_id,
                                           supported_calendar_component_set=["VEVENT"])
    s.require("crud.mkcalendar-events", c.calendar is not None and cal_id in str(c.calendar.url), str(c.calendar.url))
    c.tasks = c.principal.make_calendar(name=f"Suite Tasks {c.run_id}", cal_id=f"suite-tasks-{c.run_id}",
                                        supported_calendar_component_set=["VTODO"])
    s.require("crud.mkcalendar-tasks", c.tasks is not None, str(c.tasks.url))
    norm = lambda u: urllib.parse.unquote(urllib.parse.urlsplit(str(u)).path).rstrip("/")
    listed = {norm(cal.url) for cal in c.principal.calendars()}
    s.check("crud.new-calendars-listed", norm(c.calendar.url) in listed and norm(c.tasks.url) in listed,
            f"{sorted(listed)}")
    s.check("crud.displayname", c.calendar.get_display_name() == f"Client Suite {c.run_id}",
            repr(c.calendar.get_display_name()))
    components = set(c.tasks.get_supported_components())
    s.check("crud.tasks-component-set", components == {"VTODO"}, str(sorted(components)))

    # events
    uid = f"crud-{c.run_id}@jadwal.test"
    event = c.calendar.add_event(vcalendar(vevent(uid, "20260310T090000", "20260310T100000", "Dentist", tz=True),
                                           timezone=True))
    s.require("crud.event-create", event is not None and event.url is not None, str(event.url))
    fetched = c.calendar.event_by_uid(uid)
    s.check("crud.event-read", str(fetched.icalendar_component["SUMMARY"]) == "Dentist"
            and component_time(fetched.icalendar_component, "DTSTART") == utc(2026, 3, 10, 6))
    etag1 = etag_of(c, str(fetched.url))
    s.check("crud.event-etag-quoted", bool(etag1) and etag1.startswith('"') and etag1.endswith('"'), etag1 or "none")
    fetched.icalendar_component["SUMMARY"] = "Dentist (moved)"
    fetched.save()
    again = c.calendar.event_by_uid(uid)
    etag2 = etag_of(c, str(again.url))
    s.check("crud.event-update", str(again.icalendar_component["SUMMARY"]) == "Dentist (moved)"
            and str(again.url) == str(fetched.url), str(again.icalendar_component["SUMMARY"]))
    s.check("crud.event-update-changes-etag", etag2 is not None and etag2 != etag1, f"{etag1} -> {etag2}")
    again.delete()
    try:
        c.calendar.event_by_uid(uid)
        gone = False
    except caldav_error.NotFoundError:
        gone = True
    s.check("crud.event-delete", gone)
    s.check("crud.event-delete-get-404", c.http.get(str(again.url), timeout=30).status_code == 404)

    # tasks
    tuid = f"task-{c.run_id}@jadwal.test"
    todo = c.tasks.add_todo(vcalendar(vtodo(tuid, "20260320T170000Z", "File taxes")))
    s.require("crud.todo-create", todo is not None, str(todo.url))
    pending = {str(t.icalendar_component["UID"]) for t in c.tasks.todos()}
    s.check("crud.todo-listed-pending", tuid in pending, str(sorted(pending)))
    todo = c.tasks.todo_by_uid(tuid)
    todo.icalendar_component["SUMMARY"] = "File taxes (2025)"
    todo.save()
    s.check("crud.todo-update", str(c.tasks.todo_by_uid(tuid).icalendar_component["SUMMARY"]) == "File taxes (2025)")
    todo = c.tasks.todo_by_uid(tuid)
    todo.complete()
    pending = {str(t.icalendar_component["UID"]) for t in c.tasks.todos()}
    everything = {str(t.icalendar_component["UID"]) for t in c.tasks.todos(include_completed=True)}
    s.check("crud.todo-complete", tuid not in pending and tuid in everything,
            f"pending={sorted(pending)} all={sorted(everything)}")
    found = c.tasks.search(todo=True, start=utc(2026, 3, 20), end=utc(2026, 3, 21), include_completed=True,
                           compatibility_workarounds=False, post_filter=False)
    s.check("crud.todo-time-range", tuid in {str(t.icalendar_component["UID"]) for t in found}, f"{len(found)} found")
    c.tasks.todo_by_uid(tuid).delete()
    s.check("crud.todo-delete", tuid not in {str(t.icalendar_component["UID"]) for t in c.tasks.todos(include_completed=True)})
    if c.kind == "jadwal":
        default_tasks = next((cal for cal in c.principal.calendars() if cal.get_display_name() == "Tasks"), None)
        if default_tasks is not None:
            duid = f"default-task-{c.run_id}@jadwal.test"
            default_tasks.add_todo(vcalendar(vtodo(duid, "20260321T170000Z", "Buy milk")))
            s.check("crud.todo-in-default-Tasks-list",
                    duid in {str(t.icalendar_component["UID"]) for t in default_tasks.todos()})
            default_tasks.todo_by_uid(duid).delete()


def etag_of(c: Context, url: str) -> str | None:
    response = c.http.head(url, timeout=30)
    return response.headers.get("ETag") if response.status_code == 200 else None


RECURRING_UID = "weekly-standup@jadwal.test"


def search(s: Suite, c: Context) -> None:
    cal = c.calendar
    # Mondays 10:00-11:00 Asia/Riyadh (07:00Z), 8 weeks from 2026-01-05. 2026-01-19 is excluded; the
    # 2026-01-26 instance is moved to Wednesday 2026-02-04 15:00 (12:00Z).
    master = vevent(RECURRING_UID, "20260105T100000", "20260105T110000", "Standup", tz=True,
                    extra="RRULE:FREQ=WEEKLY;COUNT=8\nEXDATE;TZID=Asia/Riyadh:20260119T100000")
    override = vevent(RECURRING_UID, "20260204T150000", "20260204T160000", "Standup (moved)", tz=True,
                      extra="RECURRENCE-ID;TZID=Asia/Riyadh:20260126T100000")
    cal.add_event(vcalendar(master, override, timezone=True))
    cal.add_event(vcalendar(vevent("single-jan21@jadwal.test", "20260121T090000Z", "20260121T093000Z", "Lunch")))
    cal.add_event(vcalendar(vevent("single-mar@jadwal.test", "20260305T090000Z", "20260305T093000Z", "Review")))
    s.check("search.setup", True, "weekly RRULE COUNT=8 + EXDATE + override; 2 single events")

    def uids(start, end):
        found = cal.search(event=True, start=start, end=end, compatibility_workarounds=False, post_filter=False)
        return sorted(str(o.icalendar_component["UID"]) for o in found)

    windows = [  # (name, start, end, UIDs the server must return)
        ("week-with-instance", utc(2026, 1, 12), utc(2026, 1, 19), [RECURRING_UID]),
        ("week-of-exdate", utc(2026, 1, 19), utc(2026, 1, 26), ["single-jan21@jadwal.test"]),
        ("week-of-moved-away-instance", utc(2026, 1, 26), utc(2026, 2, 1), []),
        ("week-with-override", utc(2026, 2, 1), utc(2026, 2, 8), [RECURRING_UID]),
        ("hour-of-override-only", utc(2026, 2, 4, 12), utc(2026, 2, 4, 13), [RECURRING_UID]),
        ("after-count", utc(2026, 3, 1), utc(2026, 3, 8), ["single-mar@jadwal.test"]),
        ("before-dtstart", utc(2025, 12, 1), utc(2026, 1, 5), []),
        ("edge-end-equals-dtstart", utc(2026, 1, 5, 6), utc(2026, 1, 5, 7), []),
        ("edge-start-equals-dtend", utc(2026, 1, 5, 8), utc(2026, 1, 5, 9), []),
        ("one-minute-inside", utc(2026, 1, 5, 7, 59), utc(2026, 1, 5, 8, 0), [RECURRING_UID]),
    ]
    for name, start, end, expected in windows:
        got = uids(start, end)
        s.check(f"search.objects.{name}", got == sorted(expected), f"{fmt(start)}..{fmt(end)} got {got} want {sorted(expected)}")

    # Exactly which instances: (RECURRENCE-ID, DTSTART) in UTC.
    all_instances = [
        (None, utc(2026, 1, 5, 7)), (None, utc(2026, 1, 12, 7)), (utc(2026, 1, 26, 7), utc(2026, 2, 4, 12)),
        (None, utc(2026, 2, 2, 7)), (None, utc(2026, 2, 9, 7)), (None, utc(2026, 2, 16, 7)), (None, utc(2026, 2, 23, 7)),
    ]

    def expected_instances(start, end):
        out = []
        for rid, dtstart in all_instances:
            if dtstart < end and dtstart + dt.timedelta(hours=1) > start:
                out.append((fmt(rid or dtstart), fmt(dtstart)))
        return sorted(out)

    def instances(found, server: bool):
        got, problems = [], []
        for obj in found:
            for comp in obj.icalendar_instance.walk("VEVENT"):
                if str(comp.get("UID")) != RECURRING_UID:
                    continue
                if server and ("RRULE" in comp or "EXDATE" in comp):
                    problems.append("instance still has RRULE/EXDATE")
                if server and "RECURRENCE-ID" not in comp:
                    problems.append("instance without RECURRENCE-ID")
                if server:
                    raw = comp["DTSTART"].to_ical().decode()
                    if not raw.endswith("Z") or "TZID" in comp["DTSTART"].params:
                        problems.append(f"DTSTART not in UTC ({raw})")
                start_t = component_time(comp, "DTSTART")
                rid = component_time(comp, "RECURRENCE-ID") or start_t
                got.append((fmt(rid), fmt(start_t)))
        return sorted(got), sorted(set(problems))

    expand_windows = [
        ("all-eight-weeks", utc(2026, 1, 1), utc(2026, 3, 1)),
        ("week-of-exdate", utc(2026, 1, 19), utc(2026, 1, 26)),
        ("week-of-moved-away-instance", utc(2026, 1, 26), utc(2026, 2, 1)),
        ("week-with-override", utc(2026, 2, 1), utc(2026, 2, 8)),
    ]
    for name, start, end in expand_windows:
        want = expected_instances(start, end)
        found = cal.search(event=True, start=start, end=end, server_expand=True, split_expanded=True,
                           compatibility_workarounds=False, post_filter=False)
        got, problems = instances(found, server=True)
        s.check(f"search.server-expand.{name}", got == want, f"got {got} want {want}")
        if got:
            s.check(f"search.server-expand.{name}.rfc4791-form", not problems,
                    "one instance per component with RECURRENCE-ID, no RRULE/EXDATE, UTC times"
                    + (f"; problems {problems}" if problems else ""))
        found = cal.search(event=True, start=start, end=end, expand=True)
        got, _ = instances(found, server=False)
        s.check(f"search.client-expand.{name}", got == want, f"got {got} want {want}")


def sync(s: Suite, c: Context) -> None:
    cal = c.principal.make_calendar(name=f"Sync {c.run_id}", cal_id=f"sync-{c.run_id}",
                                    supported_calendar_component_set=["VEVENT"])
    objs = [cal.add_event(vcalendar(vevent(f"sync-{i}-{c.run_id}@jadwal.test", f"202604{i + 1:02d}T090000Z",
                                           f"202604{i + 1:02d}T100000Z", f"Sync {i}"))) for i in range(6)]
    first = cal.objects_by_sync_token(load_objects=False, disable_fallback=True)
    token0 = first.sync_token
    s.require("sync.initial-token", isinstance(token0, str) and bool(token0) and not token0.startswith("fake-"),
              str(token0))
    paths = lambda urls: sorted(urllib.parse.unquote(urllib.parse.urlsplit(str(u)).path) for u in urls)
    initial = paths(o.url for o in first)
    s.check("sync.initial-lists-all", initial == paths(o.url for o in objs), f"{len(initial)} objects")

    # 2 added, 2 modified, 2 deleted
    added = [cal.add_event(vcalendar(vevent(f"sync-new-{i}-{c.run_id}@jadwal.test", f"202605{i + 1:02d}T090000Z",
                                            f"202605{i + 1:02d}T100000Z", f"New {i}"))) for i in range(2)]
    for obj in objs[:2]:
        obj.load()
        obj.icalendar_component["SUMMARY"] = str(obj.icalendar_component["SUMMARY"]) + " (edited)"
        obj.save()
    for obj in objs[2:4]:
        obj.delete()
    delta = cal.objects_by_sync_token(sync_token=token0, load_objects=False, disable_fallback=True)
    deleted = paths(delta.deleted_urls)
    changed = paths(set(o.url.canonical() for o in delta) - set(delta.deleted_urls))
    want_changed = paths([o.url for o in added] + [o.url for o in objs[:2]])
    want_deleted = paths(o.url for o in objs[2:4])
    s.check("sync.delta-changed", changed == want_changed, f"got {changed} want {want_changed}")
    s.check("sync.delta-deleted", deleted == want_deleted, f"got {deleted} want {want_deleted}")
    token1 = delta.sync_token
    s.check("sync.new-token", bool(token1) and token1 != token0, f"{token0} -> {token1}")
    empty = cal.objects_by_sync_token(sync_token=token1, load_objects=False, disable_fallback=True)
    s.check("sync.no-changes-since-newest", len(list(empty)) == 0 and not empty.deleted_urls,
            f"{len(list(empty))} changed, {len(empty.deleted_urls)} deleted")
    # the library's incremental sync() on top
    collection = cal.objects_by_sync_token(load_objects=True, disable_fallback=True)
    objs[4].load()
    objs[4].icalendar_component["SUMMARY"] = "Sync 4 (edited again)"
    objs[4].save()
    updated, removed = collection.sync()
    s.check("sync.library-sync", [str(o.icalendar_component["SUMMARY"]) for o in updated] == ["Sync 4 (edited again)"]
            and not removed, f"{len(updated)} updated, {len(removed)} removed")
    bogus = token1[:-1] + ("x" if not token1.endswith("x") else "y") if "://" in token1 else "http://example.invalid/sync/1"
    try:
        cal.objects_by_sync_token(sync_token=bogus, load_objects=False, disable_fallback=True)
        refused, detail = False, "accepted"
    except Exception as error:
        refused, detail = "valid-sync-token" in str(error) or isinstance(error, caldav_error.DAVError), \
            f"{type(error).__name__}: {str(error)[:200]}"
    s.check("sync.invalid-token-refused", refused, detail)
    # etag-only REPORT answers must not carry calendar-data; getctag/sync-token on the collection
    body = ('<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" xmlns:cs="http://calendarserver.org/ns/">'
            '<d:prop><d:sync-token/><cs:getctag/></d:prop></d:propfind>')
    answer = c.http.request("PROPFIND", str(cal.url), data=body, timeout=30,
                            headers={"Depth": "0", "Content-Type": "application/xml; charset=utf-8"})
    newest = collection.sync_token
    s.check("sync.collection-sync-token-property", answer.status_code == 207 and newest in answer.text.replace("&amp;", "&"),
            f"PROPFIND -> {answer.status_code}, want {newest}")
    cal.delete()


# ---------------------------------------------------------------------------------------------
# vdirsyncer

def vdir_event(uid: str, i: int, summary: str) -> str:
    rng = random.Random(i)
    day = dt.date(2026, 1, 1) + dt.timedelta(days=rng.randrange(0, 365))
    hour = rng.randrange(6, 20)
    if i % 10 == 0:
        body = vevent(uid, f"{day:%Y%m%d}T{hour:02d}0000", f"{day:%Y%m%d}T{hour + 1:02d}0000", summary, tz=True,
                      extra="RRULE:FREQ=WEEKLY;COUNT=5")
        return vcalendar(body, timezone=True)
    return vcalendar(vevent(uid, f"{day:%Y%m%d}T{hour:02d}0000Z", f"{day:%Y%m%d}T{hour + 1:02d}0000Z", summary))


def folder_state(folder: Path) -> dict[str, str]:
    """UID -> SUMMARY of every item in a vdir folder."""
    out = {}
    for path in folder.glob("*.ics"):
        text = path.read_text()
        uid = re.search(r"^UID:(.+?)\r?$", text, re.M).group(1)
        summary = re.search(r"^SUMMARY:(.+?)\r?$", text, re.M).group(1)
        out[uid] = summary
    return out


def server_state(cal) -> dict[str, str]:
    out = {}
    for obj in cal.events():
        comp = obj.icalendar_component
        out[str(comp["UID"])] = str(comp["SUMMARY"])
    return out


def server_etags(c: Context, cal_url: str) -> dict[str, str]:
    body = ('<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop>'
            '</d:propfind>')
    answer = c.http.request("PROPFIND", cal_url, data=body, timeout=120,
                            headers={"Depth": "1", "Content-Type": "application/xml; charset=utf-8"})
    if answer.status_code != 207:
        raise SuiteFailure(f"PROPFIND Depth 1 {cal_url} -> {answer.status_code}")
    own = urllib.parse.unquote(urllib.parse.urlsplit(cal_url).path).rstrip("/")
    out = {}
    for response in ET.fromstring(answer.content).iter("{DAV:}response"):
        href = urllib.parse.unquote(urllib.parse.urlsplit(response.findtext("{DAV:}href", "")).path)
        etag = response.find(".//{DAV:}getetag")
        if href.rstrip("/") != own and etag is not None:
            out[href] = etag.text or ""
    return out


def file_hashes(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() + f"@{p.stat().st_mtime_ns}" for p in folder.glob("*.ics")}


ACTION_RE = re.compile(r"^\s*(Copying|Updating|Deleting item)|conflict", re.I)


def run_vdirsyncer(config: Path, *args: str, timeout: float = 900) -> tuple[int, str]:
    cmd = [servers._tool("vdirsyncer"), "-c", str(config)] + list(args)
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, input="")
    return result.returncode, (result.stdout + result.stderr)


def vdirsyncer_section(s: Suite, c: Context, count: int) -> None:
    cal = c.principal.make_calendar(name=f"Vdirsyncer {c.run_id}", cal_id=f"vdir-{c.run_id}",
                                    supported_calendar_component_set=["VEVENT"])
    cal_url = str(cal.url)
    base = c.workdir / "vdirsyncer"
    local_a, local_b = base / "local-a", base / "local-b"
    local_a.mkdir(parents=True)
    local_b.mkdir(parents=True)
    config = base / "config"
    cfg = configparser.ConfigParser(interpolation=None)
    cfg.optionxform = str
    cfg["general"] = {"status_path": f'"{base / "status"}/"'}
    for side, folder in (("a", local_a), ("b", local_b)):
        cfg[f"pair suite_{side}"] = {"a": f'"local_{side}"', "b": f'"remote_{side}"', "collections": "null"}
        cfg[f"storage local_{side}"] = {"type": '"filesystem"', "path": f'"{folder}/"', "fileext": '".ics"'}
        cfg[f"storage remote_{side}"] = {"type": '"caldav"', "url": f'"{cal_url}"', "username": f'"{c.username}"',
                                         "password": f'"{c.password}"'}
    with open(config, "w") as handle:
        cfg.write(handle)

    def sync(pair: str, name: str) -> str:
        started = time.monotonic()
        code, output = run_vdirsyncer(config, "sync", pair)
        took = time.monotonic() - started
        if code != 0:
            raise SuiteFailure(f"vdirsyncer sync {pair} ({name}) exited {code}:\n{output[-2500:]}")
        actions = [l for l in output.splitlines() if ACTION_RE.search(l)]
        print(f"        vdirsyncer sync {pair}: {len(actions)} actions in {took:.1f} s", flush=True)
        return output

    code, output = run_vdirsyncer(config, "discover")
    s.require("vdirsyncer.discover", code == 0, output.strip().splitlines()[-1] if output.strip() else "")

    rng = random.Random(2026)
    expected: dict[str, str] = {}
    for i in range(count):
        uid = f"vdir-{i:04d}-{c.run_id}@jadwal.test"
        expected[uid] = f"Event {i}"
        (local_a / f"vdir-{i:04d}.ics").write_text(vdir_event(uid, i, f"Event {i}"))
    out = sync("suite_a", "upload")
    uploads = sum(1 for l in out.splitlines() if re.search(r"Copying \(uploading\)", l))
    s.check("vdirsyncer.upload-there", uploads == count, f"{uploads} uploads")
    s.check("vdirsyncer.server-has-all", server_state(cal) == expected, f"{len(server_state(cal))} on the server")
    out = sync("suite_b", "download")
    s.check("vdirsyncer.download-back", folder_state(local_b) == expected, f"{len(folder_state(local_b))} in folder B")

    # changes on both sides, disjoint items: server side through the caldav library, local in folder A
    uids = sorted(expected)
    rng.shuffle(uids)
    server_edit, server_delete, local_edit, local_delete = uids[:5], uids[5:10], uids[10:15], uids[15:20]
    for uid in server_edit:
        obj = cal.event_by_uid(uid)
        obj.icalendar_component["SUMMARY"] = expected[uid] + " (server edit)"
        obj.save()
        expected[uid] += " (server edit)"
    for uid in server_delete:
        cal.event_by_uid(uid).delete()
        expected.pop(uid)
    for i in range(5):
        uid = f"vdir-server-new-{i}-{c.run_id}@jadwal.test"
        cal.add_event(vcalendar(vevent(uid, f"202612{i + 1:02d}T090000Z", f"202612{i + 1:02d}T100000Z", f"Server new {i}")))
        expected[uid] = f"Server new {i}"
    by_uid = {}
    for path in local_a.glob("*.ics"):
        by_uid[re.search(r"^UID:(.+?)\r?$", path.read_text(), re.M).group(1)] = path
    for uid in local_edit:
        path = by_uid[uid]
        path.write_text(path.read_text().replace(f"SUMMARY:{expected[uid]}", f"SUMMARY:{expected[uid]} (local edit)"))
        expected[uid] += " (local edit)"
    for uid in local_delete:
        by_uid[uid].unlink()
        expected.pop(uid)
    for i in range(5):
        uid = f"vdir-local-new-{i}-{c.run_id}@jadwal.test"
        (local_a / f"local-new-{i}.ics").write_text(vdir_event(uid, 10_000 + i, f"Local new {i}"))
        expected[uid] = f"Local new {i}"
    out = sync("suite_a", "both sides changed")
    actions = [l for l in out.splitlines() if ACTION_RE.search(l)]
    s.check("vdirsyncer.two-way-actions", len(actions) == 30 and not any("conflict" in l.lower() for l in actions),
            f"{len(actions)} actions (want 30: 5+5+5 each way)" + ("" if len(actions) == 30 else ":\n" + "\n".join(actions)))
    s.check("vdirsyncer.two-way-server-state", server_state(cal) == expected)
    s.check("vdirsyncer.two-way-local-state", folder_state(local_a) == expected)
    sync("suite_b", "pull the changes")
    s.check("vdirsyncer.second-folder-state", folder_state(local_b) == expected)

    # nothing to do: no actions reported, no server ETag and no local file changed
    before = (server_etags(c, cal_url), file_hashes(local_a), file_hashes(local_b))
    idle = []
    for pair in ("suite_a", "suite_b", "suite_a"):
        out = sync(pair, "idempotent")
        idle += [f"{pair}: {l.strip()}" for l in out.splitlines() if ACTION_RE.search(l)]
    after = (server_etags(c, cal_url), file_hashes(local_a), file_hashes(local_b))
    s.check("vdirsyncer.final-sync-nothing-to-do", not idle, "; ".join(idle[:6]) or "no actions")
    s.check("vdirsyncer.final-sync-no-etag-changes", before[0] == after[0] and len(before[0]) == len(expected),
            f"{sum(1 for k in before[0] if before[0].get(k) != after[0].get(k))} ETags changed, "
            f"{len(before[0])} objects")
    s.check("vdirsyncer.final-sync-no-file-changes", before[1:] == after[1:])
    cal.delete()


# ---------------------------------------------------------------------------------------------

def cleanup(c: Context) -> None:
    for cal in (c.calendar, c.tasks):
        if cal is not None:
            try:
                cal.delete()
            except Exception:
                pass


def run(kind: str, url: str, username: str, password: str, events: int, skip: set[str]) -> Suite:
    suite = Suite(kind)
    workdir = Path(tempfile.mkdtemp(prefix="caldav-client-suite-"))
    try:
        c = Context(url, username, password, kind, workdir)
        print(f"client suite against {kind} at {url} as {username}", flush=True)
        suite.section("discovery", discovery, suite, c)
        if c.principal is None or c.home_url is None:
            suite.failed.append(("discovery", "no principal / calendar home; the other sections need them"))
            return suite
        if "crud" not in skip:
            suite.section("create, update, delete", crud, suite, c)
        if c.calendar is None:
            c.calendar = c.principal.make_calendar(name=f"Client Suite {c.run_id}", cal_id=f"suite-{c.run_id}")
        if "search" not in skip:
            suite.section("time-range search", search, suite, c)
        if "sync" not in skip:
            suite.section("sync tokens", sync, suite, c)
        if "vdirsyncer" not in skip:
            suite.section(f"vdirsyncer ({events} events)", vdirsyncer_section, suite, c, events)
        cleanup(c)
        return suite
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", choices=servers.KINDS, help="start this server on loopback")
    parser.add_argument("--jadwal-binary", help="path to the jadwal binary (--server jadwal)")
    parser.add_argument("--url", help="use a running server at this bare URL instead")
    parser.add_argument("--username")
    parser.add_argument("--password")
    parser.add_argument("--kind", choices=servers.KINDS, default="jadwal",
                        help="with --url: which server it is (decides strictness; default jadwal)")
    parser.add_argument("--events", type=int, default=500, help="events for the vdirsyncer round trip (500)")
    parser.add_argument("--skip", action="append", default=[], choices=("crud", "search", "sync", "vdirsyncer"))
    args = parser.parse_args(argv)
    if not args.server and not args.url:
        parser.error("give --server KIND or --url URL")
    started = time.monotonic()
    try:
        if args.url:
            suite = run(args.kind, args.url, args.username or "", args.password or "", args.events, set(args.skip))
        else:
            with servers.start_server(args.server, jadwal_binary=args.jadwal_binary) as server:
                suite = run(args.server, server.base_url, server.username, server.password, args.events, set(args.skip))
                if suite.failed:
                    tail = server.log_tail(15)
                    if tail:
                        print(f"\n{args.server} log tail ({server.log_path}):\n{tail}")
    except servers.ServerError as error:
        print(f"client_suite.py: could not start {args.server}: {error}", file=sys.stderr)
        return 1
    kind = args.server or args.kind
    print(f"\n{kind}: {len(suite.passed)} checks passed, {len(suite.failed)} failed, "
          f"{len(suite.limits)} known peer limitations, in {time.monotonic() - started:.0f} s")
    for name, why, detail in suite.limits:
        print(f"  peer limitation  {name}: {why}")
    for name in suite.unexpected_pass:
        print(f"  note: {name} is listed as a {kind} limitation but passed; update KNOWN_PEER_LIMITS")
    for name, detail in suite.failed:
        print(f"  FAILED  {name}: {detail[:800]}")
    print(f"client-suite: {len(suite.passed)} passed, {len(suite.failed)} failed")
    return 1 if suite.failed else 0


if __name__ == "__main__":
    sys.exit(main())
