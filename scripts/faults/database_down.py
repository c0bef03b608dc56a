#!/usr/bin/env python3
"""Database down (issue 22, "Faults"): PostgreSQL stopped under a busy `jadwal serve`, then
started again, and checked.

  scripts/faults/database_down.py --binary PATH [--outage-seconds 10] [--outages 3] [--short]
                                  [--clients 3] [--log-level info] [--start-probe-seconds 20] [--keep]

A throwaway PostgreSQL cluster (scripts/postgres.sh start), one account with an app password
(`jadwal user create`, `jadwal app-password create`) signed in through the magic link the server
logs, and `jadwal serve --workers 2` on it. Clients (threads, one keep-alive connection each, a new
one after an error): CalDAV clients PUT their own objects (Basic auth with the app password) and
GET each one back; one API client (Bearer) reads GET /api/v1/me and GET /api/v1/calendars and
writes objects with PUT /api/v1/calendars/{id}/objects/{name}. Each outage: a few seconds of
traffic, then `scripts/postgres.sh pause` (pg_ctl stop -m fast), `--outage-seconds` of traffic
against a server without its database, `scripts/postgres.sh resume` (the same port), and traffic
until every client has been answered 2xx again. Checked, each printed PASS or FAIL with figures:

  - answers while PostgreSQL is down (requests sent after it stopped and before it was started
    again, and those in flight when it stopped and unanswered a second later): every one is 503
    with a Retry-After header, JSON `database_busy` from the API, plain text from CalDAV; the
    median answer is under 2 s, none takes 15 s or more, none waits for the database to come
    back. Status counts, median, p90 and max latency are printed;
  - never a 500 from the stop on (nor 401/403: signing in needs the database too), except to a
    PUT in flight when PostgreSQL stopped, whose COMMIT may have been cut off (whether it took
    cannot be known): printed as a note with the server's error lines; a read has no excuse;
  - the server's log during the outage does not flood: Jadwal's own lines about the job queue or
    the database that are not one request's answer are at most 10 per job worker, each worker says
    "job queue unavailable; waiting for it" once and "job queue reachable again" once; the
    per-request "database unavailable" warnings are at most one per 503 answered; PostgresNIO's
    "Connection creation failed" (one per attempt of its pool, info level) at most 2 a second on
    average and 10 in any second (figures: lines, lines per second, the busiest second, the most
    frequent messages);
  - after PostgreSQL is back, requests succeed again by themselves within 15 s (printed: the time
    from `resume` returning to the last client's first success, after which nothing failed);
    /readyz answers 200;
  - every write acknowledged before, during or after the outages is there: GET gives the ETag its
    PUT was answered with; a PUT answered 503 changed nothing (the object is still what the last
    acknowledged write left, or absent).

Not in --short: a probe of a start with the database down. `jadwal serve` is started on the paused
cluster's port (nothing listens there) and watched for `--start-probe-seconds`: whether it exits,
what it logs and when, whether it listens and what /readyz says; then PostgreSQL is resumed and
the probe says whether that server comes up by itself within 30 s. Printed as INFO, not checked
(what the server should do is not decided yet).

`--short`: one outage of `--outage-seconds` (default 10) with 3 s of traffic before it, for the
test command (about 22 s with a debug build on 2 shared cores; up to ~70 s when a request
hangs to the 30 s client timeout). Exit 1 on any failed check.
Every process started here is stopped at the end; the cluster is deleted unless `--keep`.
Standard library only; works with the test venv's Python or the system's.
"""
from __future__ import annotations

import argparse
import collections
import datetime
import http.client
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crash_safety import Connection as SharedConnection, Session as SignedIn  # noqa: E402  (the folder's shared HTTP and sign-in)

ROOT = Path(__file__).resolve().parents[2]
POSTGRES_SH = ROOT / "scripts/postgres.sh"
EMAIL = "dbdown@example.com"
CALENDAR_SLUG = "dbdown"
NAMES_PER_CLIENT = 6
REQUEST_TIMEOUT = 30       # a request unanswered this long is a hang (the check's limit is 15 s)
HANG_SECONDS = 15
MEDIAN_LIMIT = 2.0
RECOVERY_LIMIT = 15.0
RECOVERY_WAIT = 30.0       # traffic after resume stops this long after it at the latest
LOG_LINES_PER_WORKER = 10
ATTEMPT_LINES_PER_SECOND = 2
EDGE = 1.0                 # seconds at the outage's edges where any answer is fine
OUTAGE_WAIT = 1.0          # once the server has found the database gone, a request waits this long for a connection
WORKERS = 2
WORKER_LOOPS = WORKERS + 1  # `--workers N` runs N workers and one more for prompt jobs (sign-in mail, reminders)
PACE = 0.05                # seconds between one client's requests: bounded load on shared cores
# swift-log's default handler: `2026-12-04T23:47:44+0000 info jadwal: meta=… message`.
LOG_LINE = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4})\s+(\w+)\s+(.*)$")
DB_WORDS = re.compile(r"job queue|database|postgres|psql|connection", re.IGNORECASE)

failures: list[str] = []
lock = threading.Lock()


def check(ok: bool, what: str) -> bool:
    print(f"  {'PASS' if ok else 'FAIL'} {what}", flush=True)
    if not ok:
        failures.append(what)
    return ok


def info(what: str) -> None:
    print(f"  INFO {what}", flush=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run(cmd: list[str], timeout: float = 120) -> str:
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return done.stdout


def postgres(command: str, folder: Path) -> str:
    return run([str(POSTGRES_SH), command, str(folder)], timeout=120)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


# MARK: HTTP


class Connection(SharedConnection):
    """crash_safety's keep-alive connection, with this script's hang limit."""

    def __init__(self, port: int, auth: str = ""):
        super().__init__(port, auth, timeout=REQUEST_TIMEOUT)


def readyz(port: int) -> int | str:
    try:
        probe = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        probe.request("GET", "/readyz")
        status = probe.getresponse().status
        probe.close()
        return status
    except OSError as error:
        return type(error).__name__


# MARK: the server


class Server:
    def __init__(self, binary: str, folder: Path, database_url: str, log_level: str, name: str = "server"):
        self.binary, self.folder, self.database_url, self.log_level = binary, folder, database_url, log_level
        self.data = folder / "data"
        self.log_path = folder / f"{name}.log"
        self.process: subprocess.Popen | None = None
        self.port = 0

    def cli(self, *args: str) -> str:
        return run([self.binary, *args, "--data-dir", str(self.data), "--database-url", self.database_url])

    def spawn(self) -> None:
        self.port = free_port()
        with self.log_path.open("w") as log:
            self.process = subprocess.Popen(
                [self.binary, "serve", "--hostname", "127.0.0.1", "--port", str(self.port), "--data-dir", str(self.data),
                 "--database-url", self.database_url, "--workers", str(WORKERS), "--log-level", self.log_level],
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def start(self, limit: float = 90) -> float:
        began = time.monotonic()
        self.spawn()
        while time.monotonic() - began < limit:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode} while starting:\n{self.log_tail()}")
            if readyz(self.port) == 200:
                return time.monotonic() - began
            time.sleep(0.1)
        raise RuntimeError(f"no 200 from /readyz within {limit:.0f} s:\n{self.log_tail()}")

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def log_tail(self, lines: int = 20) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> float | None:
        """SIGTERM, then SIGKILL after 30 s; the seconds a SIGTERM took, None when it was killed."""
        if not self.alive():
            return 0.0
        began = time.monotonic()
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
            return time.monotonic() - began
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)
            return None

    def kill(self) -> None:
        if self.alive():
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)


class Session(SignedIn):
    """crash_safety's sign-in (the magic link the server logs), for this script's one account;
    its refresh says how it went instead of raising, since it needs the database too."""

    def __init__(self, server: Server, password: str):
        server.email = EMAIL
        super().__init__(server, password)

    def refresh(self) -> int:
        """A new access token; the status of the refresh (it needs the database too)."""
        status, _, body = Connection(self.server.port).send(
            "POST", "/api/v1/auth/refresh", json.dumps({"refreshToken": self.refresh_token}).encode(),
            {"Content-Type": "application/json"})
        if status == 200:
            session = json.loads(body)
            with lock:
                self.refresh_token = session["refreshToken"]
                self.bearer = "Bearer " + session["accessToken"]
        return status


def make_calendar(session: "Session", name: str) -> tuple[str, str]:
    """The clients' calendar (MKCALENDAR over CalDAV): its path and its id in the JSON API."""
    server = session.server
    calendar = session.home + CALENDAR_SLUG + "/"
    setup = Connection(server.port, session.basic)
    body = ('<?xml version="1.0" encoding="utf-8"?><C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
            f'<D:set><D:prop><D:displayname>{name}</D:displayname></D:prop></D:set></C:mkcalendar>').encode()
    status, _, data = setup.send("MKCALENDAR", calendar, body, {"Content-Type": "application/xml"})
    setup.close()
    if status != 201:
        raise RuntimeError(f"MKCALENDAR {calendar} answered {status}: {data[:300]!r}")
    status, _, data = Connection(server.port, session.bearer).send("GET", "/api/v1/calendars")
    listed = json.loads(data)
    listed = listed.get("calendars", listed) if isinstance(listed, dict) else listed
    return calendar, next(c["id"] for c in listed if c.get("slug") == CALENDAR_SLUG)


# MARK: what the clients did


class Request:
    """One request: sent at `sent`, answered at `answered` (monotonic), or an error."""

    def __init__(self, client: str, kind: str, method: str, path: str):
        self.client, self.kind, self.method, self.path = client, kind, method, path
        self.sent = time.monotonic()
        self.answered: float | None = None
        self.status: int | None = None
        self.headers: dict = {}
        self.body = b""
        self.error: str | None = None

    @property
    def seconds(self) -> float:
        return (self.answered or time.monotonic()) - self.sent

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    def outcome(self) -> str:
        return str(self.status) if self.status is not None else f"error {self.error}"


class Write:
    """One PUT of an object: its version, and what it was answered (`etag` when acknowledged)."""

    def __init__(self, name: str, version: str, request: Request):
        self.name, self.version, self.request = name, version, request
        self.etag: str | None = None


def event_body(name: str, version: str, day: int) -> bytes:
    start = datetime.date(2027, 3, 1) + datetime.timedelta(days=day % 300)
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Jadwal//database down//EN\r\nBEGIN:VEVENT\r\n"
            f"UID:dbdown-{name[:-4]}\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:{start:%Y%m%d}T090000Z\r\nDURATION:PT30M\r\n"
            f"SUMMARY:{name} {version}\r\nX-DBDOWN-VERSION:{version}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").encode()


def version_of(body: bytes) -> str:
    found = re.search(rb"^X-DBDOWN-VERSION:(.*?)\r?$", body, re.MULTILINE)
    return found.group(1).decode() if found else "?"


class Client(threading.Thread):
    """A CalDAV client (PUT then GET of its own objects) or the API client (GET /me, PUT an object
    through the API, GET /calendars), until `stop` is set; at most `max_requests`."""

    def __init__(self, label: str, kind: str, session: Session, calendar: str, calendar_id: str,
                 stop: threading.Event, max_requests: int = 20000):
        super().__init__(daemon=True)
        self.label, self.kind, self.session, self.calendar, self.calendar_id = label, kind, session, calendar, calendar_id
        self.stop, self.max_requests = stop, max_requests
        self.requests: list[Request] = []
        self.writes: list[Write] = []
        self.step = 0
        self.problems: list[str] = []

    def names(self) -> list[str]:
        return [f"{self.label}-{i}.ics" for i in range(NAMES_PER_CLIENT)]

    def send(self, connection: Connection, method: str, path: str, body: bytes | None = None,
             headers: dict | None = None) -> Request:
        request = Request(self.label, self.kind, method, path)
        self.requests.append(request)
        try:
            request.status, request.headers, request.body = connection.send(method, path, body, headers)
        except (OSError, http.client.HTTPException) as error:
            request.error = type(error).__name__
        request.answered = time.monotonic()
        return request

    def run(self) -> None:
        if self.kind == "api":
            connection = Connection(self.session.server.port, self.session.bearer)
        else:
            connection = Connection(self.session.server.port, self.session.basic)
        try:
            while not self.stop.is_set() and len(self.requests) < self.max_requests:
                if self.kind == "api":
                    connection.auth = self.session.bearer
                    self.api_step(connection)
                else:
                    self.caldav_step(connection)
                self.step += 1
                time.sleep(PACE)
        except Exception as error:  # a bug here must not look like a quiet client
            self.problems.append(f"{type(error).__name__}: {error}")
        finally:
            connection.close()

    def put(self, connection: Connection, path: str, name: str) -> Write:
        version = f"{self.label}-{self.step}"
        request = self.send(connection, "PUT", path, event_body(name, version, self.step),
                            {"Content-Type": "text/calendar; charset=utf-8"})
        write = Write(name, version, request)
        if request.ok:
            write.etag = request.headers.get("etag")
            if not write.etag:
                self.problems.append(f"PUT {path} answered {request.status} without an ETag")
        self.writes.append(write)
        return write

    def caldav_step(self, connection: Connection) -> None:
        name = self.names()[self.step % NAMES_PER_CLIENT]
        write = self.put(connection, self.calendar + name, name)
        got = self.send(connection, "GET", self.calendar + name)
        if write.etag and got.ok and got.headers.get("etag") != write.etag:
            self.problems.append(f"GET {name} right after its PUT gave ETag {got.headers.get('etag')}, the PUT said {write.etag}")

    def api_step(self, connection: Connection) -> None:
        phase = self.step % 3
        if phase == 0:
            request = self.send(connection, "GET", "/api/v1/me")
            if request.status == 401:
                # The access token lasts 5 minutes; a new one needs the database too.
                self.session.refresh()
        elif phase == 1:
            name = self.names()[(self.step // 3) % NAMES_PER_CLIENT]
            self.put(connection, f"/api/v1/calendars/{self.calendar_id}/objects/{name}", name)
        else:
            self.send(connection, "GET", "/api/v1/calendars")


# MARK: one outage


class Outage:
    def __init__(self, number: int):
        self.number = number
        self.pause_began = self.paused = self.resume_began = self.resumed = 0.0
        self.pause_wall = self.resumed_wall = 0.0
        self.recovered: float | None = None
        self.end_wall = self.end = 0.0
        self.readyz_during: list = []


def wall(monotonic_time: float, offset: float) -> float:
    return monotonic_time + offset


def parse_log(server: Server) -> list[tuple[float, str, str]]:
    """(unix seconds, level, rest) for every line of the server's log with a timestamp."""
    lines = []
    for line in server.log_text().splitlines():
        match = LOG_LINE.match(line)
        if not match:
            continue
        stamp = datetime.datetime.strptime(match.group(1), "%Y-%m-%dT%H:%M:%S%z").timestamp()
        lines.append((stamp, match.group(2), match.group(3)))
    return lines


def message_of(rest: str) -> str:
    """The log line's message without its metadata and varying figures, to group lines."""
    # `label: key=value … [Source] message`: the metadata's values may hold spaces and brackets,
    # the message is what follows the last `[Source] `.
    found = re.search(r"(\[[A-Za-z][\w.]*\] [^\[]*)$", rest)
    text = found.group(1) if found else rest
    return re.sub(r"\d+(\.\d+)?", "N", text).strip()[:140]


def check_outage(outage: Outage, clients: list[Client], server: Server, offset: float) -> None:
    n = outage.number
    every = [r for c in clients for r in c.requests]
    # What clients saw while PostgreSQL was down: every request sent then, and every one sent
    # before that and still unanswered when it had stopped (one that waits for the database to
    # come back is the hang this is about). Its wait counts from the later of its sending and
    # the stop.
    # At both edges a request is left out: in flight at the stop and answered within EDGE
    # seconds, it may have been done before (2xx); sent less than the server's wait for a
    # connection (OUTAGE_WAIT, plus EDGE) before the start, it may get one and be answered after.
    sent_down = [r for r in every if outage.paused <= r.sent < outage.resume_began
                 and not (r.answered and r.answered >= outage.resume_began and r.sent >= outage.resume_began - OUTAGE_WAIT - EDGE)]
    straddling = [r for r in every if r.sent < outage.paused and (r.answered or 1e18) > outage.paused + EDGE]
    down = straddling + sent_down
    print(f"outage {n}: PostgreSQL stopped in {outage.paused - outage.pause_began:.2f} s, down for "
          f"{outage.resume_began - outage.paused:.1f} s, started again in {outage.resumed - outage.resume_began:.2f} s", flush=True)

    def waited(r: Request) -> float:
        return (r.answered or time.monotonic()) - max(r.sent, outage.paused)

    def when(r: Request) -> str:
        return "unanswered" if r.answered is None else "after it was back" if r.answered >= outage.resume_began else "while down"

    statuses = collections.Counter(f"{r.kind} {r.outcome()} {when(r)}" for r in down)
    print(f"  outage {n}: {len(sent_down)} requests sent while down, {len(straddling)} in flight when it stopped; answers: "
          + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())), flush=True)
    check(len(sent_down) > 0, f"outage {n}: clients got to send requests while PostgreSQL was down: {len(sent_down)} "
                              f"(none: each client waited in its request{'s' if len(clients) > 1 else ''} in flight)")
    latencies = [waited(r) for r in down]
    if latencies:
        median, top = statistics.median(latencies), max(latencies)
        check(median < MEDIAN_LIMIT and top < HANG_SECONDS and not any(r.answered and r.answered >= outage.resume_began for r in sent_down),
              f"outage {n}: answered quickly while down: median {median * 1000:.0f} ms, p90 {quantile(latencies, 0.9) * 1000:.0f} ms, "
              f"max {top * 1000:.0f} ms over {len(down)} requests; answered only after PostgreSQL was back: "
              f"{sum(1 for r in down if r.answered and r.answered >= outage.resume_began)} "
              f"(limits: median < {MEDIAN_LIMIT:.0f} s, none ≥ {HANG_SECONDS} s, each answered while down)")
    wrong = []
    for r in down:
        problem = None
        if r.sent < outage.paused and r.status is not None and r.status >= 500 and r.status != 503:
            continue  # the 500 check below
        if r.answered is not None and r.answered >= outage.resume_began:
            problem = f"answered {r.outcome()} only after PostgreSQL was back (it waited {waited(r):.1f} s)"
        elif r.status != 503:
            problem = f"answered {r.outcome()}"
        elif not re.fullmatch(r"\d+", r.headers.get("retry-after", "")):
            problem = f"503 without a Retry-After (headers {sorted(r.headers)})"
        elif r.kind == "api" and r.path.startswith("/api/"):
            try:
                code = json.loads(r.body)["error"]["code"]  # {"error": {"code", "message"}}
            except (ValueError, KeyError, TypeError):
                code = None
            if code != "database_busy":
                problem = f"503 whose JSON code is {code!r}, not database_busy: {r.body[:200]!r}"
        elif r.kind == "caldav" and not r.headers.get("content-type", "").startswith("text/plain"):
            problem = f"CalDAV 503 as {r.headers.get('content-type')!r}, not text/plain"
        if problem:
            wrong.append(f"{r.kind} {r.method} {r.path}: {problem}")
    retry_after = collections.Counter(r.headers.get("retry-after") for r in down if r.status == 503)
    check(bool(down) and not wrong,
          f"outage {n}: every answer while down is 503 with Retry-After (Retry-After values {dict(retry_after)}), API code "
          f"database_busy, CalDAV text/plain" + (f"; {len(wrong)} not:\n      " + "\n      ".join(wrong[:8]) if wrong else ""))

    # Back by itself.
    # (Until this outage's watch ended: the next outage's 503s are its own.)
    after = [r for r in every if outage.resume_began <= r.sent <= outage.end]
    # A 500 is never right, with one exception: a write in flight when PostgreSQL stopped whose
    # COMMIT was cut off (whether it took cannot be known). A read has no such excuse.
    around = [r for r in every if r.answered and r.answered >= outage.pause_began and r.sent <= outage.end]
    cut_off = [r for r in around if r.status and r.status >= 500 and r.status != 503 and r.method == "PUT" and r.sent < outage.paused]
    five_hundreds = [r for r in around if r.status and r.status >= 500 and r.status != 503 and r not in cut_off]
    check(not five_hundreds, f"outage {n}: no 500 (nor other 5xx but 503) from the stop on, but to a write whose COMMIT the stop "
                             f"may have cut off: {len(five_hundreds)}"
                             + "".join(f"\n      {r.kind} {r.method} {r.path} {r.status} "
                                       f"{'(in flight when it stopped) ' if r.sent < outage.paused else ''}{r.body[:200]!r}"
                                       for r in five_hundreds[:5]))
    for r in cut_off:
        info(f"outage {n}: note: {r.kind} {r.method} {r.path}, in flight when PostgreSQL stopped, answered {r.outcome()} "
             f"after {r.seconds:.2f} s: {r.body[:160]!r}")
    if five_hundreds or cut_off:
        errors = [rest for t, level, rest in parse_log(server) if level == "error" and outage.pause_wall - 1 <= t <= outage.end_wall + 1
                  and "job queue" not in rest]
        info(f"outage {n}: the server's error lines then ({len(errors)}):" + "".join(f"\n      {e[:600]}" for e in errors[:4]))
    stopping = [r for r in every if r.answered and outage.pause_began <= r.answered < outage.paused]
    if stopping:
        info(f"outage {n}: answered while PostgreSQL was stopping: "
             + ", ".join(f"{k}: {v}" for k, v in sorted(collections.Counter(f"{r.kind} {r.method} {r.outcome()}" for r in stopping).items())))
    unauthorised = [r for r in every if r.sent >= outage.pause_began and r.status in (401, 403)]
    check(not unauthorised, f"outage {n}: no 401/403 around the outage (signing in needs the database; a client told "
                            f"its password is wrong asks its person again): {len(unauthorised)}")
    hangs = [r for r in every if r.sent >= outage.pause_began and (r.error == "TimeoutError" or r.seconds >= HANG_SECONDS)]
    check(not hangs, f"outage {n}: no request around the outage took {HANG_SECONDS} s or more: {len(hangs)}"
                     + "".join(f"\n      {r.kind} {r.method} {r.path} {r.outcome()} after {r.seconds:.1f} s" for r in hangs[:5]))
    if outage.recovered is None:
        last = collections.Counter(f"{r.kind} {r.outcome()}" for r in after[-30:])
        check(False, f"outage {n}: requests did not succeed again within {RECOVERY_WAIT:.0f} s of PostgreSQL's return "
                     f"(last answers: {dict(last)})")
    else:
        took = outage.recovered - outage.resumed
        failed_after = [r for r in after if r.answered and r.answered > outage.recovered and not r.ok]
        check(took <= RECOVERY_LIMIT and not failed_after,
              f"outage {n}: every client answered 2xx again {took:.2f} s after PostgreSQL was back (limit {RECOVERY_LIMIT:.0f} s), "
              f"{len([r for r in after if r.answered and r.answered > outage.recovered])} requests after that, "
              f"{len(failed_after)} not 2xx; between: "
              + ", ".join(f"{k}: {v}" for k, v in sorted(collections.Counter(
                  f"{r.kind} {r.outcome()}" for r in after if r.answered and r.answered <= outage.recovered).items())))
    info(f"outage {n}: /readyz while down: {dict(collections.Counter(outage.readyz_during))}")

    # The log.
    begin, end = outage.pause_wall, outage.end_wall
    window = [(t, level, rest) for t, level, rest in parse_log(server) if begin - 1 <= t <= end + 1]
    about = [(t, level, rest) for t, level, rest in window if DB_WORDS.search(rest)]
    per_request = [x for x in about if "database unavailable" in x[2] or "not ready" in x[2]]
    # PostgresNIO logs each failed connection attempt of its pool (info level), with a backoff
    # that grows: a steady trickle, checked by its rate; Jadwal's own lines by their number.
    attempts = [x for x in about if "[PostgresNIO]" in x[2]]
    background = [x for x in about if x not in per_request and x not in attempts]
    queue = [x for x in about if "job queue" in x[2]]
    by_worker: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for _, _, rest in queue:
        worker = re.search(r"worker=(\S+)", rest)
        what = "unavailable" if "unavailable" in rest else "reachable again" if "reachable again" in rest else "other"
        by_worker[worker.group(1) if worker else "?"][what] += 1
    seconds = max(1.0, end - begin)
    busiest = collections.Counter(int(t) for t, _, _ in about).most_common(1)
    print(f"  outage {n} log ({seconds:.0f} s, {len(window)} lines in all): {len(about)} about the job queue or database "
          f"({len(about) / seconds:.1f}/s, busiest second {busiest[0][1] if busiest else 0}): {len(queue)} job queue, "
          f"{len(per_request)} per-request warnings, {len(attempts)} PostgresNIO connection attempts, {len(background)} other", flush=True)
    for message, count in collections.Counter(f"{level} {message_of(rest)}" for _, level, rest in about).most_common(6):
        print(f"      {count:5d} × {message}", flush=True)
    check(len(background) <= LOG_LINES_PER_WORKER * WORKER_LOOPS,
          f"outage {n}: the log does not flood: {len(background)} of Jadwal's own lines about the job queue or database "
          f"besides the per-request warnings (limit {LOG_LINES_PER_WORKER} per worker, {LOG_LINES_PER_WORKER * WORKER_LOOPS})")
    busiest_attempts = collections.Counter(int(t) for t, _, _ in attempts).most_common(1)
    busiest_attempts = busiest_attempts[0][1] if busiest_attempts else 0
    check(len(attempts) <= ATTEMPT_LINES_PER_SECOND * seconds and busiest_attempts <= LOG_LINES_PER_WORKER,
          f"outage {n}: PostgresNIO's connection-attempt lines trickle: {len(attempts)} in {seconds:.0f} s "
          f"({len(attempts) / seconds:.1f}/s, busiest second {busiest_attempts}; limits {ATTEMPT_LINES_PER_SECOND}/s, "
          f"{LOG_LINES_PER_WORKER} in a second)")
    said = {worker: dict(counts) for worker, counts in sorted(by_worker.items())}
    check(len(by_worker) == WORKER_LOOPS and all(c["unavailable"] == 1 and c["reachable again"] == 1 and c["other"] == 0
                                            for c in by_worker.values()),
          f"outage {n}: each of the {WORKER_LOOPS} job workers says once that the queue is unavailable and once that it is "
          f"reachable again: {len(by_worker)} of {WORKER_LOOPS} said anything: {said or 'nothing said'}")
    answered_503 = sum(1 for r in every if r.status == 503 and r.answered and begin <= wall(r.answered, offset) <= end + 1)
    check(len(per_request) <= answered_503 + len(outage.readyz_during),
          f"outage {n}: per-request warnings ({len(per_request)}) at most one per 503 answered ({answered_503}) "
          f"and /readyz probe ({len(outage.readyz_during)})")


def check_writes(clients: list[Client], session: Session, calendar: str) -> None:
    """Every acknowledged write is there (its ETag); a write refused with 503 changed nothing."""
    connection = Connection(session.server.port, session.basic)
    checked = acknowledged = refused = 0
    wrong: list[str] = []
    try:
        for client in clients:
            for name in client.names():
                writes = [w for w in client.writes if w.name == name]
                if not writes:
                    continue
                acked = [w for w in writes if w.etag]
                acknowledged += len(acked)
                refused += sum(1 for w in writes if w.request.status == 503)
                last_acked = acked[-1] if acked else None
                later = writes[writes.index(last_acked) + 1:] if last_acked else writes
                # A write answered 503 changed nothing; one with no answer, or another failure,
                # may have landed.
                unknown = [w for w in later if w.request.status != 503 and not (w.request.status and 400 <= w.request.status < 500)]
                status, headers, body = connection.send("GET", calendar + name)
                checked += 1
                seen = (headers.get("etag"), version_of(body)) if status == 200 else None
                expected = [(last_acked.etag, last_acked.version) if last_acked else None]
                possible = expected + [(None, w.version) for w in unknown]
                if seen == expected[0] or (seen and any(seen[1] == v for _, v in possible[1:])):
                    continue
                wrong.append(f"{client.label} {name}: GET {status} {seen}; expected "
                             f"{expected[0] or 'absent (no write acknowledged)'}"
                             + (f" or one of the unanswered writes {[w.version for w in unknown]}" if unknown else "")
                             + f" ({len(writes)} writes, {len(acked)} acknowledged, last ones "
                               f"{[(w.version, w.request.outcome()) for w in writes[-4:]]})")
    finally:
        connection.close()
    check(not wrong, f"every acknowledged write is there with the ETag its PUT was answered ({checked} objects, {acknowledged} "
                     f"acknowledged writes), and the {refused} PUTs answered 503 changed nothing"
                     + "".join(f"\n      {w}" for w in wrong[:10]))


# MARK: the start probe


def start_probe(binary: str, folder: Path, pgdir: Path, database_url: str, log_level: str, seconds: float) -> None:
    """`jadwal serve` started while PostgreSQL is down (the paused cluster's port): what it does."""
    print(f"start probe: `jadwal serve` with PostgreSQL down (nothing listening on its port), watched {seconds:.0f} s", flush=True)
    postgres("pause", pgdir)
    probe = Server(binary, folder, database_url, log_level, name="start-probe")
    began = time.monotonic()
    probe.spawn()
    resumed = False
    first_line = listening = None
    readyz_seen: collections.Counter = collections.Counter()
    try:
        while time.monotonic() - began < seconds and probe.alive():
            if first_line is None and probe.log_text().strip():
                first_line = time.monotonic() - began
            status = readyz(probe.port)
            readyz_seen[status] += 1
            if listening is None and isinstance(status, int):
                listening = time.monotonic() - began
            time.sleep(0.5)
        exited = None if probe.alive() else (probe.process.returncode, time.monotonic() - began)
        lines = probe.log_text().splitlines()
        if exited:
            info(f"start probe: exited with {exited[0]} after {exited[1]:.1f} s")
        else:
            info(f"start probe: still running after {seconds:.0f} s, no exit")
        info(f"start probe: first log line after {first_line:.1f} s" if first_line is not None else "start probe: logged nothing")
        info(f"start probe: HTTP " + (f"listening after {listening:.1f} s" if listening is not None else "not listening")
             + f"; /readyz answers: {dict(readyz_seen)}")
        counts = collections.Counter(f"{m.group(2)} {message_of(m.group(3))}" for m in map(LOG_LINE.match, lines) if m)
        info(f"start probe: {len(lines)} log lines at --log-level {log_level}; most frequent:"
             + "".join(f"\n      {c:4d} × {msg}" for msg, c in counts.most_common(6)))
        if not exited:
            postgres("resume", pgdir)
            resumed = True
            back = time.monotonic()
            ready = None
            while time.monotonic() - back < 30 and probe.alive():
                if readyz(probe.port) == 200:
                    ready = time.monotonic() - back
                    break
                time.sleep(0.25)
            info("start probe: after PostgreSQL came back, " + (f"/readyz 200 in {ready:.1f} s" if ready is not None else
                 f"no 200 from /readyz within 30 s (alive: {probe.alive()}; last log line: "
                 f"{(probe.log_text().splitlines() or [''])[-1][:200]})"))
    finally:
        probe.kill()
        if not resumed:
            postgres("resume", pgdir)


# MARK: main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.environ.get("JADWAL_BINARY", "/var/tmp/jadwal-build/debug/jadwal"),
                        help="the jadwal binary (default $JADWAL_BINARY, else /var/tmp/jadwal-build/debug/jadwal)")
    parser.add_argument("--outage-seconds", type=float, default=10.0, help="how long PostgreSQL stays down each time (default 10)")
    parser.add_argument("--outages", type=int, default=3, help="outages in one run (default 3; 1 with --short)")
    parser.add_argument("--clients", type=int, default=3, help="clients: one API client and the rest CalDAV (default 3, at least 2)")
    parser.add_argument("--log-level", default="info", help="the server's --log-level (default info, the server's own default)")
    parser.add_argument("--start-probe-seconds", type=float, default=20.0,
                        help="watch a start with the database down this long (0: skip; skipped with --short)")
    parser.add_argument("--short", action="store_true", help="one outage, 3 s of traffic before it, no start probe (under a minute)")
    parser.add_argument("--keep", action="store_true", help="keep the cluster, the data folder and the server logs")
    args = parser.parse_args()
    warmup = 3.0 if args.short else 5.0
    if args.short:
        args.outages = 1
        args.start_probe_seconds = 0
    args.clients = max(2, args.clients)
    args.binary = str(Path(args.binary).resolve())
    if not os.access(args.binary, os.X_OK):
        print(f"no jadwal binary at {args.binary}", file=sys.stderr)
        return 2
    print(f"database down: {args.outages} outage(s) of {args.outage_seconds:.0f} s, {args.clients - 1} CalDAV clients + 1 API client, "
          f"{WORKERS} job workers, log level {args.log_level}", flush=True)
    began = time.monotonic()
    folder = Path(tempfile.mkdtemp(prefix="jadwal-dbdown-"))
    # Its own folder: scripts/postgres.sh hands it to the postgres user when run as root.
    pgdir = Path(tempfile.mkdtemp(prefix="jadwal-dbdown-pg-"))
    server: Server | None = None
    clients: list[Client] = []
    stop = threading.Event()
    try:
        database_url = postgres("start", pgdir).strip().splitlines()[-1]
        server = Server(args.binary, folder, database_url, args.log_level)
        server.cli("user", "create", EMAIL, "--name", "Dana", "--time-zone", "Asia/Riyadh")
        created = server.cli("app-password", "create", EMAIL, "--name", "dbdown")
        password = next(line.split(":", 1)[1].strip() for line in created.splitlines() if line.lower().startswith("password:"))
        print(f"server ready in {server.start():.1f} s on port {server.port}; PostgreSQL at {database_url.rsplit('@', 1)[-1]}", flush=True)
        session = Session(server, password)
        calendar, calendar_id = make_calendar(session, "Database down")

        offset = time.time() - time.monotonic()
        clients = [Client("api", "api", session, calendar, calendar_id, stop)] + [
            Client(f"dav{i}", "caldav", session, calendar, calendar_id, stop) for i in range(1, args.clients)]
        for client in clients:
            client.start()
        outages = []
        for number in range(1, args.outages + 1):
            time.sleep(warmup)
            if number == 1:
                before = [r for c in clients for r in c.requests if r.answered is not None]
                check(before and all(r.ok for r in before),
                      f"before the first outage every request succeeds: {len(before)} requests, "
                      + ", ".join(f"{k}: {v}" for k, v in sorted(collections.Counter(f"{r.kind} {r.outcome()}" for r in before).items())))
            if number > 1 and session.refresh() != 200:
                print("  (a token refresh between outages failed)", flush=True)
            outage = Outage(number)
            outage.pause_began = time.monotonic()
            outage.pause_wall = time.time()
            postgres("pause", pgdir)
            outage.paused = time.monotonic()
            print(f"outage {number}: PostgreSQL stopped ({outage.paused - began:.1f} s into the run)", flush=True)
            while time.monotonic() - outage.paused < args.outage_seconds:
                asked = time.monotonic()
                answer = readyz(server.port)
                outage.readyz_during.append(f"{answer} after {time.monotonic() - asked:.1f} s" if answer != 200 else answer)
                time.sleep(min(1.0, max(0.0, args.outage_seconds - (time.monotonic() - outage.paused))))
            outage.resume_began = time.monotonic()
            postgres("resume", pgdir)
            outage.resumed = time.monotonic()
            outage.resumed_wall = time.time()
            # Wait until every client has been answered 2xx for a request sent after the resume,
            # and nothing after that failed; then 2 s more of traffic.
            while time.monotonic() - outage.resumed < RECOVERY_WAIT:
                time.sleep(0.25)
                latest_failure = max((r.answered for c in clients for r in c.requests
                                      if r.sent >= outage.resume_began and r.answered and not r.ok), default=outage.resumed)
                firsts = []
                for client in clients:
                    good = [r.answered for r in client.requests if r.sent >= outage.resume_began and r.ok and r.answered >= latest_failure]
                    firsts.append(min(good) if good else None)
                if all(f is not None for f in firsts):
                    outage.recovered = max(firsts)
                    if time.monotonic() - outage.recovered >= 2.0:
                        break
            # The job workers find the queue again at their next try; they back off up to 5 s.
            while time.monotonic() - outage.resumed < RECOVERY_WAIT and server.alive():
                back = {re.search(r"worker=(\S+)", rest).group(1) for t, _, rest in parse_log(server)
                        if t >= outage.pause_wall and "job queue reachable again" in rest and "worker=" in rest}
                if len(back) >= WORKER_LOOPS:
                    break
                time.sleep(0.25)
            if not server.alive():
                check(False, f"outage {number}: the server is still running (it exited with {server.process.returncode})")
                break
            outage.end_wall, outage.end = time.time(), time.monotonic()
            outages.append(outage)
        stop.set()
        for client in clients:
            client.join(timeout=REQUEST_TIMEOUT + 10)
            if client.is_alive():
                check(False, f"client {client.label} ended after the run (it is stuck in a request)")
        print(f"traffic: {sum(len(c.requests) for c in clients)} requests, {sum(1 for c in clients for w in c.writes if w.etag)} "
              f"acknowledged writes, in {time.monotonic() - began:.1f} s", flush=True)
        for client in clients:
            for problem in client.problems:
                check(False, f"client {client.label}: {problem}")
        for outage in outages:
            check_outage(outage, clients, server, offset)
        ready = readyz(server.port)
        check(ready == 200, f"/readyz after the outages: {ready}")
        check_writes(clients, session, calendar)
        bad = [line for line in server.log_text().splitlines() if re.match(r"^\S+\s+critical\s", line)]
        check(not bad, f"no critical line in the server's log: {len(bad)}" + "".join(f"\n      {line[:200]}" for line in bad[:5]))
        took = server.stop()
        check(took is not None, "the server stops on SIGTERM within 30 s" + (f" ({took:.1f} s)" if took is not None else " (killed)"))
        if args.start_probe_seconds > 0:
            start_probe(args.binary, folder, pgdir, database_url, args.log_level, args.start_probe_seconds)
    except Exception as error:  # a setup step failed: say which
        check(False, f"{type(error).__name__}: {error}")
        if server is not None:
            print(server.log_tail(), flush=True)
    finally:
        stop.set()
        for client in clients:
            client.join(timeout=REQUEST_TIMEOUT + 10)
        if server is not None:
            server.kill()
        if args.keep:
            print(f"kept: {folder} and {pgdir} (stop the cluster with scripts/postgres.sh stop {pgdir})")
        else:
            subprocess.run([str(POSTGRES_SH), "stop", str(pgdir)], capture_output=True, timeout=120)
            shutil.rmtree(folder, ignore_errors=True)
    print(f"database down: {len(failures)} failed check(s) in {time.monotonic() - began:.1f} s", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
