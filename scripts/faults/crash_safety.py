#!/usr/bin/env python3
"""Crash safety (issue 22, "Faults"): `jadwal serve` killed with SIGKILL in the middle of writes,
restarted on the same data, and checked.

  scripts/faults/crash_safety.py --binary PATH [--rounds 20] [--engine sqlite|postgresql|both]
                                 [--database-url URL] [--seed N] [--clients 4] [--short] [--keep]
                                 [--startup-kills N] [--no-key-files] [--instances N]

First, when strace is installed: for each key file the server makes in a new data folder
(secret.key, chat.key, vapid.key), a first start is killed at the write(2) of that file (strace
injects the SIGKILL there: a random kill almost never lands in that window), and a normal start
on the same folder must then come up.

For each engine: a fresh data folder (SQLite, or `--database-url` / a throwaway cluster from
scripts/postgres.sh for PostgreSQL; the folder then holds only the key files), one account with
an app password (`jadwal user create`, `jadwal app-password create`) signed in through the magic
link the server logs; before that, a few first starts are killed at random while they create and
migrate the database (`--startup-kills`). Then, each round:

  - several CalDAV clients (threads, one keep-alive connection each, Basic auth with the app
    password) PUT, DELETE and sync-collection REPORT their own objects in one shared calendar,
    and one more thread imports WhatsApp exports (`POST /api/v1/chats/import`, each a new chat
    that agrees one plan among a few hundred messages) and syncs the "WhatsApp Events" calendar;
  - at a random moment (seeded RNG: the seed is printed; `--seed` replays the kill delays and
    each client's choices, not the server's timing) the server gets SIGKILL; a request without
    an answer by then is "in flight";
  - the server starts again on the same data (in about a third of the rounds that restart is
    itself killed first, at random while it recovers) and must answer /readyz with no error or
    critical line in its log (migrations, recovery);
  - checks: every object is what its last acknowledged write left (the body and the ETag the PUT
    was answered with; 404 after an acknowledged DELETE), or, when a write was in flight, wholly
    the old or wholly the new body; the calendar lists exactly those objects; each client's
    sync-collection REPORT from the last token it took before the kill reports every change
    acknowledged after that token, nothing settled before it, and at most the in-flight ones that
    landed, each as GET shows it (ETag, or 404); the client's mirror (first full sync plus every
    delta) equals the calendar; each acknowledged import is there with its conversation, message
    count and event; an in-flight import is wholly there or wholly absent, and sent again it adds
    nothing (it had landed) or everything (it had not); the "WhatsApp Events" calendar holds
    exactly the events the conversations name, and its sync from the importer's token agrees.

`--instances N` (PostgreSQL): N servers on the database (the first one's key files copied to the
others), clients spread over them, and each round one of them, picked at random, is killed while
the others go on serving.

The model carries over from round to round (what an in-flight write turned out to be is settled
by the checks), so later rounds also check what earlier rounds left. Any failed check is printed
with what was expected and what was seen, the run goes on with the model set to what was seen,
and the exit code is 1. Every process started here is stopped at the end (SIGTERM, then SIGKILL).

`--short`: 3 rounds per engine with shorter kill delays and 2 startup kills, for the test command
(about 20 s with a debug build on 2 shared cores; well under 90 s).
Standard library only; works with the test venv's Python or the system's.
"""
from __future__ import annotations

import argparse
import base64
import copy
import datetime
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DAV = "{DAV:}"
ME = "Omar"
CALENDAR_SLUG = "crash"
CHAT_SLUG = "whatsapp-events"
NAMES_PER_CLIENT = 8
REQUEST_TIMEOUT = 60
# A server log line at these levels after a restart is a failed start (swift-log's default
# handler writes `<timestamp> <level> <label> : …`).
BAD_LOG = re.compile(r"^\S+\s+(error|critical)\s", re.MULTILINE)

failures: list[str] = []


def fail(what: str) -> None:
    failures.append(what)
    print(f"  FAIL {what}", flush=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run(cmd: list[str]) -> str:
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return done.stdout


# MARK: HTTP


class Connection:
    """One keep-alive HTTP/1.1 connection to the server; reconnects after an error."""

    def __init__(self, port: int, auth: str = "", timeout: float = REQUEST_TIMEOUT):
        self.port = port
        self.auth = auth
        self.timeout = timeout
        self.http: http.client.HTTPConnection | None = None

    def send(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None) -> tuple[int, dict, bytes]:
        if self.http is None:
            self.http = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        all_headers = {"Authorization": self.auth} if self.auth else {}
        all_headers.update(headers or {})
        try:
            self.http.request(method, path, body=body, headers=all_headers)
            response = self.http.getresponse()
            data = response.read()
        except BaseException:
            self.close()
            raise
        if response.getheader("connection", "").lower() == "close":
            self.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data

    def close(self) -> None:
        if self.http is not None:
            self.http.close()
            self.http = None


def sync_body(token: str | None) -> bytes:
    return ('<?xml version="1.0" encoding="utf-8"?><D:sync-collection xmlns:D="DAV:">'
            f'<D:sync-token>{token or ""}</D:sync-token><D:sync-level>1</D:sync-level>'
            '<D:prop><D:getetag/></D:prop></D:sync-collection>').encode()


def object_name(href: str) -> str:
    return urllib.parse.unquote(href.rstrip("/").rsplit("/", 1)[-1])


def parse_multistatus(data: bytes, collection: str) -> tuple[dict[str, str | None], str | None]:
    """name -> ETag (None for a 404 member), and the sync token if any. The collection's own
    response (PROPFIND Depth 1) is left out."""
    root = ET.fromstring(data)
    members: dict[str, str | None] = {}
    for response in root.findall(f"{DAV}response"):
        href = urllib.parse.unquote(response.findtext(f"{DAV}href", "").strip())
        if href.rstrip("/") == urllib.parse.unquote(collection).rstrip("/"):
            continue
        status = response.findtext(f"{DAV}status", "")
        if " 404" in status:
            members[object_name(href)] = None
            continue
        if status and " 200" not in status:
            raise ValueError(f"member {href} answered {status.strip()}")
        etag = None
        for propstat in response.findall(f"{DAV}propstat"):
            if " 200" in propstat.findtext(f"{DAV}status", ""):
                etag = propstat.findtext(f"{DAV}prop/{DAV}getetag")
        if etag is None:
            raise ValueError(f"member {href} has no getetag")
        members[object_name(href)] = etag.strip()
    token = root.findtext(f"{DAV}sync-token")
    return members, token.strip() if token else None


# MARK: the server


class Server:
    """`jadwal serve` on one data folder (and database), started, killed and started again."""

    def __init__(self, binary: str, folder: Path, database_url: str | None, email: str):
        self.binary = binary
        self.folder = folder
        self.data = folder / "data"
        self.storage = ["--database-url", database_url] if database_url else []
        self.email = email
        self.process: subprocess.Popen | None = None
        self.starts = 0
        self.port = 0
        self.log_path = folder / "server-0.log"

    def create_account(self) -> str:
        run([self.binary, "user", "create", self.email, "--name", ME, "--time-zone", "Asia/Riyadh", "--data-dir", str(self.data)] + self.storage)
        created = run([self.binary, "app-password", "create", self.email, "--name", "crash", "--data-dir", str(self.data)] + self.storage)
        return next(line.split(":", 1)[1].strip() for line in created.splitlines() if line.lower().startswith("password:"))

    def spawn(self) -> None:
        self.starts += 1
        self.port = free_port()
        self.log_path = self.folder / f"server-{self.starts}.log"
        with self.log_path.open("w") as log:
            self.process = subprocess.Popen(
                [self.binary, "serve", "--hostname", "127.0.0.1", "--port", str(self.port), "--data-dir", str(self.data),
                 "--log-level", "notice"] + self.storage,
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def ready(self) -> bool:
        try:
            probe = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
            probe.request("GET", "/readyz")
            status = probe.getresponse().status
            probe.close()
            return status == 200
        except OSError:
            return False

    def start(self) -> float:
        """Starts the server and waits for /readyz; the seconds it took. Raises when it does not
        come up (the process exits, or 90 s pass)."""
        began = time.monotonic()
        self.spawn()
        while time.monotonic() - began < 90:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode} while starting:\n{self.log_tail()}")
            if self.ready():
                return time.monotonic() - began
            time.sleep(0.05)
        raise RuntimeError(f"no 200 from /readyz within 90 s:\n{self.log_tail()}")

    def start_and_kill(self, after: float) -> bool:
        """Starts the server and kills it `after` seconds later, whatever it is doing then
        (creating the database, migrating, recovering). True when it was ready by then."""
        self.spawn()
        time.sleep(after)
        if self.process.poll() is not None:
            raise RuntimeError(f"the server exited with {self.process.returncode} while starting:\n{self.log_tail()}")
        was_ready = self.ready()
        self.kill()
        return was_ready

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def log_tail(self, lines: int = 30) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def warnings(self) -> list[str]:
        """This start's warning lines, without their timestamps."""
        return [line.split(" ", 1)[1] for line in self.log_text().splitlines() if re.match(r"^\S+\s+warning\s", line)]

    def bad_log_lines(self) -> list[str]:
        return [line for line in self.log_text().splitlines() if BAD_LOG.match(line + "\n")]

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)


class Session:
    """The account's API session (Bearer) and CalDAV credentials."""

    def __init__(self, server: Server, password: str):
        self.server = server
        self.basic = "Basic " + base64.b64encode(f"{server.email}:{password}".encode()).decode()
        anonymous = Connection(server.port, "")
        status, _, _ = anonymous.send("POST", "/api/v1/auth/email", json.dumps({"email": server.email}).encode(),
                                      {"Content-Type": "application/json"})
        if status != 202:
            raise RuntimeError(f"POST /api/v1/auth/email answered {status}")
        link = None
        for _ in range(100):
            link = re.search(r"auth/magic\?token=([A-Za-z0-9_-]+)", server.log_text())
            if link:
                break
            time.sleep(0.1)
        if not link:
            raise RuntimeError("no sign-in link in the server log")
        status, _, body = anonymous.send("POST", "/api/v1/auth/magic", json.dumps({"token": link.group(1)}).encode(),
                                         {"Content-Type": "application/json"})
        if status != 200:
            raise RuntimeError(f"POST /api/v1/auth/magic answered {status}: {body[:300]!r}")
        session = json.loads(body)
        self.refresh_token = session["refreshToken"]
        self.bearer = "Bearer " + session["accessToken"]
        self.home = f"/dav/calendars/{session['account']['id'].lower()}/"

    def refresh(self) -> None:
        """A new access token (they last 5 minutes) on the server's current port."""
        status, _, body = Connection(self.server.port, "").send(
            "POST", "/api/v1/auth/refresh", json.dumps({"refreshToken": self.refresh_token}).encode(), {"Content-Type": "application/json"})
        if status != 200:
            raise RuntimeError(f"POST /api/v1/auth/refresh answered {status}: {body[:300]!r}")
        session = json.loads(body)
        self.refresh_token = session["refreshToken"]
        self.bearer = "Bearer " + session["accessToken"]

    def on(self, server: Server) -> "Session":
        """The same credentials, talking to another instance."""
        other = copy.copy(self)
        other.server = server
        return other

    def caldav(self) -> Connection:
        return Connection(self.server.port, self.basic)

    def api(self) -> Connection:
        return Connection(self.server.port, self.bearer)


# MARK: what the clients did


class Op:
    """One request: sent at t_sent, answered at t_ack (None while in flight, or never)."""

    def __init__(self, kind: str, name: str, body: str | None = None):
        self.kind = kind          # put | delete
        self.name = name
        self.body = body
        self.t_sent = time.monotonic()
        self.t_ack: float | None = None
        self.status: int | None = None
        self.etag: str | None = None
        self.error: str | None = None

    @property
    def acked(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


class Token:
    def __init__(self, value: str, t_sent: float, t_recv: float):
        self.value, self.t_sent, self.t_recv = value, t_sent, t_recv


class Model:
    """What the shared calendar must hold: per object, its settled state (None: absent, else
    (body, etag)), the write in flight at the kill if any, and every write since the start."""

    def __init__(self):
        self.state: dict[str, tuple[str, str] | None] = {}
        self.pending: dict[str, Op] = {}
        self.history: dict[str, list[Op]] = {}

    def record(self, op: Op) -> None:
        self.history.setdefault(op.name, []).append(op)
        if op.acked:
            if op.kind == "put":
                self.state[op.name] = (op.body, op.etag)
            else:
                self.state[op.name] = None


def event_body(name: str, version: str, rng: random.Random, day: int) -> str:
    start = datetime.date(2027, 1, 1) + datetime.timedelta(days=day % 700)
    filler = " ".join(f"{version}-{i}" for i in range(rng.randint(5, 400)))
    description = fold(f"DESCRIPTION:{filler}")
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Jadwal//crash safety//EN\r\nBEGIN:VEVENT\r\n"
            f"UID:crash-{name[:-4]}\r\nDTSTAMP:20260101T000000Z\r\n"
            f"DTSTART:{start:%Y%m%d}T{6 + rng.randint(0, 10):02d}0000Z\r\nDURATION:PT30M\r\n"
            f"SUMMARY:{name} {version}\r\n{description}X-CRASH-VERSION:{version}\r\n"
            "END:VEVENT\r\nEND:VCALENDAR\r\n")


def fold(line: str) -> str:
    out, rest = [], line
    while len(rest.encode()) > 74:
        out.append(rest[:74])
        rest = " " + rest[74:]
    out.append(rest)
    return "\r\n".join(out) + "\r\n"


def unfolded(text: str) -> str:
    return re.sub(r"\r?\n[ \t]", "", text.replace("\r\n", "\n"))


def same_object(seen: str, written: str) -> bool:
    """The body a GET gave is the body a PUT sent: the same content lines, unfolded."""
    return unfolded(seen).strip().splitlines() == unfolded(written).strip().splitlines()


def version_of(text: str) -> str:
    found = re.search(r"^X-CRASH-VERSION:(.*)$", unfolded(text), re.MULTILINE)
    return found.group(1).strip() if found else "?"


class Client(threading.Thread):
    """One CalDAV client: PUTs, DELETEs and syncs its own objects in the shared calendar."""

    def __init__(self, slot: int, session: Session, calendar: str, model: Model, mirror: dict, token: Token | None,
                 rng: random.Random, stop: threading.Event, killing: threading.Event, round_no: int, max_ops: int):
        super().__init__(daemon=True)
        self.slot, self.session, self.calendar, self.model = slot, session, calendar, model
        self.mirror, self.token, self.rng, self.stop, self.round_no, self.max_ops = mirror, token, rng, stop, round_no, max_ops
        self.killing = killing
        self.ops: list[Op] = []
        self.inflight: Op | None = None
        self.syncs = 0
        self.problems: list[str] = []

    def names(self) -> list[str]:
        return [f"c{self.slot}-{i}.ics" for i in range(NAMES_PER_CLIENT)]

    def run(self) -> None:
        connection = self.session.caldav()
        try:
            for n in range(self.max_ops):
                if self.stop.is_set():
                    return
                choice = self.rng.random()
                present = [name for name in self.names() if self.model.state.get(name)]
                if choice < 0.22 or self.token is None:
                    if not self.sync(connection):
                        return
                elif choice < 0.40 and present:
                    if not self.write(connection, Op("delete", self.rng.choice(present))):
                        return
                else:
                    name = self.rng.choice(self.names())
                    version = f"r{self.round_no}c{self.slot}n{n}"
                    body = event_body(name, version, self.rng, self.slot * NAMES_PER_CLIENT + int(name.split("-")[1][:-4]) + n)
                    if not self.write(connection, Op("put", name, body)):
                        return
        finally:
            connection.close()

    def write(self, connection: Connection, op: Op) -> bool:
        """False once the server is gone (the op stays in flight)."""
        self.inflight = op
        try:
            if op.kind == "put":
                status, headers, data = connection.send("PUT", self.calendar + op.name, op.body.encode(),
                                                        {"Content-Type": "text/calendar; charset=utf-8"})
            else:
                status, headers, data = connection.send("DELETE", self.calendar + op.name)
        except (OSError, http.client.HTTPException) as error:
            op.error = f"{type(error).__name__}: {error}"
            if not self.killing.is_set():
                self.problems.append(f"{op.kind} {op.name}: no answer before the kill ({op.error})")
            return False
        op.t_ack, op.status, op.etag = time.monotonic(), status, headers.get("etag")
        self.inflight = None
        expected = (201, 204) if op.kind == "put" else (200, 204)
        if op.kind == "put" and status == 204 and self.model.state.get(op.name) is None:
            self.problems.append(f"PUT {op.name} (new) answered 204, expected 201")
        if op.kind == "put" and status == 201 and self.model.state.get(op.name) is not None:
            self.problems.append(f"PUT {op.name} (existing) answered 201, expected 204")
        if status not in expected:
            self.problems.append(f"{op.kind.upper()} {op.name} answered {status}, expected one of {expected}: {data[:200]!r}")
        elif op.kind == "put" and not op.etag:
            self.problems.append(f"PUT {op.name} answered {status} without an ETag")
        self.model.record(op)
        self.ops.append(op)
        return True

    def sync(self, connection: Connection) -> bool:
        t_sent = time.monotonic()
        try:
            status, _, data = connection.send("REPORT", self.calendar, sync_body(self.token.value if self.token else None),
                                              {"Content-Type": "application/xml; charset=utf-8", "Depth": "0"})
        except (OSError, http.client.HTTPException) as error:
            if not self.killing.is_set():
                self.problems.append(f"sync-collection: no answer before the kill ({type(error).__name__}: {error})")
            return False
        t_recv = time.monotonic()
        if status != 207:
            self.problems.append(f"sync-collection from {self.token.value if self.token else 'nothing'} answered {status}: {data[:300]!r}")
            return True
        members, new_token = parse_multistatus(data, self.calendar)
        if self.token is None:
            self.mirror.clear()
        apply_delta(self.mirror, members)
        if new_token:
            self.token = Token(new_token, t_sent, t_recv)
        self.syncs += 1
        return True


def apply_delta(mirror: dict, members: dict) -> None:
    for name, etag in members.items():
        if etag is None:
            mirror.pop(name, None)
        else:
            mirror[name] = etag


# MARK: chat imports


class Import:
    def __init__(self, partner: str, messages: int, body: bytes):
        self.partner, self.messages, self.body = partner, messages, body
        self.t_sent = time.monotonic()
        self.t_ack: float | None = None
        self.status: int | None = None
        self.answer: dict | None = None
        self.error: str | None = None
        # Settled by the checks: the event names it made (empty when it did not land).
        self.events: set[str] = set()
        self.landed: bool | None = None

    @property
    def acked(self) -> bool:
        return self.status == 200


SMALL_TALK = ["how was work?", "long day", "did you see the news?", "thanks!", "on my way home", "no worries",
              "just finished the report", "my mum says hi", "I'll check", "did you eat?", "not yet", "same here"]


def tag(i: int) -> str:
    """A word with no digits and no meaning (numbers in small talk read as times)."""
    letters = "bcdfghjklmnpqrstvwxz"
    word = "zz"
    while True:
        word += letters[i % 20]
        i //= 20
        if not i:
            return word


def whatsapp_export(partner: str, day: datetime.date, rng: random.Random, filler: int) -> tuple[bytes, int]:
    """A two-person export: small talk, then a dinner agreed for the next day. The message count
    with words (what the import stores)."""
    lines = []
    stamp = datetime.datetime.combine(day, datetime.time(7, 0))
    for i in range(filler):
        sender = ME if i % 2 else partner
        lines.append(f"{stamp:%d/%m/%Y, %H:%M} - {sender}: {rng.choice(SMALL_TALK)} {tag(i)}")
        if i % 4 == 3:
            stamp += datetime.timedelta(minutes=1)
    stamp = datetime.datetime.combine(day, datetime.time(18, 0))
    lines.append(f"{stamp:%d/%m/%Y, %H:%M} - {partner}: Dinner tomorrow at 8pm at Nando's?")
    lines.append(f"{stamp + datetime.timedelta(minutes=2):%d/%m/%Y, %H:%M} - {ME}: Deal 👍")
    return ("\n".join(lines) + "\n").encode(), filler + 2


class Importer(threading.Thread):
    """Imports one new chat after another, syncing "WhatsApp Events" after each answer."""

    def __init__(self, session: Session, chat_calendar: str, imports: list, mirror: dict, token: Token | None,
                 rng: random.Random, stop: threading.Event, killing: threading.Event, round_no: int, max_imports: int, filler: int):
        super().__init__(daemon=True)
        self.killing = killing
        self.session, self.chat_calendar, self.imports, self.mirror, self.token = session, chat_calendar, imports, mirror, token
        self.rng, self.stop, self.round_no, self.max_imports, self.filler = rng, stop, round_no, max_imports, filler
        self.inflight: Import | None = None
        self.problems: list[str] = []

    def run(self) -> None:
        api, caldav = self.session.api(), self.session.caldav()
        try:
            if self.token is None and not self.sync(caldav):
                return
            for n in range(self.max_imports):
                if self.stop.is_set():
                    return
                partner = f"Partner R{self.round_no}N{n}"
                day = datetime.date(2027, 1, 1) + datetime.timedelta(days=(self.round_no * 37 + n * 3) % 600)
                body, count = whatsapp_export(partner, day, self.rng, self.rng.randint(self.filler // 2, self.filler))
                record = Import(partner, count, body)
                self.imports.append(record)
                self.inflight = record
                try:
                    status, _, data = api.send("POST", f"/api/v1/chats/import?me={ME}", body, {"Content-Type": "text/plain; charset=utf-8"})
                except (OSError, http.client.HTTPException) as error:
                    record.error = f"{type(error).__name__}: {error}"
                    if not self.killing.is_set():
                        self.problems.append(f"import {partner}: no answer before the kill ({record.error})")
                    return
                record.t_ack, record.status = time.monotonic(), status
                self.inflight = None
                if status != 200:
                    self.problems.append(f"import {partner} answered {status}, expected 200: {data[:300]!r}")
                    continue
                record.answer = json.loads(data)
                made = [e for e in record.answer.get("events", []) if e.get("change") == "created"]
                if record.answer.get("messages", {}).get("new") != count or len(made) != 1:
                    self.problems.append(f"import {partner}: expected {count} new messages and 1 event created, "
                                         f"the answer says {record.answer.get('messages')} and events {record.answer.get('events')}")
                if not self.sync(caldav):
                    return
        finally:
            api.close()
            caldav.close()

    def sync(self, connection: Connection) -> bool:
        t_sent = time.monotonic()
        try:
            status, _, data = connection.send("REPORT", self.chat_calendar, sync_body(self.token.value if self.token else None),
                                              {"Content-Type": "application/xml; charset=utf-8", "Depth": "0"})
        except (OSError, http.client.HTTPException) as error:
            if not self.killing.is_set():
                self.problems.append(f"sync-collection of {CHAT_SLUG}: no answer before the kill ({type(error).__name__}: {error})")
            return False
        if status != 207:
            self.problems.append(f"sync-collection of {CHAT_SLUG} answered {status}: {data[:300]!r}")
            return True
        members, new_token = parse_multistatus(data, self.chat_calendar)
        if self.token is None:
            self.mirror.clear()
        apply_delta(self.mirror, members)
        if new_token:
            self.token = Token(new_token, t_sent, time.monotonic())
        return True


# MARK: checks after the restart


def listing(connection: Connection, collection: str, what: str) -> dict[str, str] | None:
    status, _, data = connection.send("PROPFIND", collection, b'<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:getetag/></D:prop></D:propfind>',
                                      {"Depth": "1", "Content-Type": "application/xml"})
    if status != 207:
        fail(f"PROPFIND {what}: expected 207, seen {status}: {data[:300]!r}")
        return None
    members, _ = parse_multistatus(data, collection)
    return {name: etag for name, etag in members.items() if etag is not None}


def check_objects(connection: Connection, calendar: str, model: Model, names: list[str]) -> dict[str, str | None]:
    """GETs every object; checks it against the model and settles in-flight writes. The ETag
    each now has (None: absent). Counts in-flight writes that landed."""
    now: dict[str, str | None] = {}
    for name in names:
        status, headers, data = connection.send("GET", calendar + name)
        settled = model.state.get(name)
        pending = model.pending.pop(name, None)
        body = data.decode(errors="replace")
        seen_state: tuple[str, str] | None
        if status == 404:
            seen_state = None
        elif status == 200:
            seen_state = (body, headers.get("etag", ""))
        else:
            fail(f"GET {name}: expected 200 or 404, seen {status}: {data[:200]!r}")
            continue
        now[name] = seen_state[1] if seen_state else None

        def matches_settled() -> bool:
            if settled is None:
                return seen_state is None
            return seen_state is not None and same_object(seen_state[0], settled[0]) and seen_state[1] == settled[1]

        def describe(state) -> str:
            return "404 (absent)" if state is None else f"version {version_of(state[0])} with ETag {state[1]}"

        if matches_settled():
            if pending is not None:
                pending.landed = False
            continue
        if pending is not None:
            if pending.kind == "put" and seen_state is not None and same_object(seen_state[0], pending.body):
                pending.landed = True
                model.state[name] = seen_state
                continue
            if pending.kind == "delete" and seen_state is None:
                pending.landed = True
                model.state[name] = None
                continue
            if pending.kind == "put" and seen_state is not None and version_of(seen_state[0]) == version_of(pending.body):
                fail(f"{name}: an in-flight PUT is half there: the body GET gives is neither the old ({describe(settled)}) nor the new one as sent:\n"
                     f"--- sent\n{pending.body}--- seen\n{seen_state[0]}")
            else:
                fail(f"{name}: expected {describe(settled)} (last acknowledged write) or what the in-flight {pending.kind.upper()} sent "
                     f"({'404' if pending.kind == 'delete' else 'version ' + version_of(pending.body)}); seen {describe(seen_state)}")
        else:
            if settled is not None and seen_state is not None and same_object(seen_state[0], settled[0]):
                fail(f"{name}: the body is the acknowledged one (version {version_of(settled[0])}), but GET's ETag {seen_state[1]} "
                     f"is not the {settled[1]} the PUT was answered with")
            else:
                fail(f"{name}: expected {describe(settled)} (its last acknowledged write); seen {describe(seen_state)}")
        model.state[name] = seen_state
    return now


def check_sync(connection: Connection, collection: str, who: str, token: Token | None, mirror: dict,
               history: dict[str, list], now: dict[str, str | None], initial: dict[str, bool]) -> Token | None:
    """The REPORT from the last token taken before the kill against what was acknowledged after
    it, and the mirror it keeps against the calendar. `history`: name -> writes, each with
    t_sent, t_ack (None: in flight), acked, kind ('put' or 'delete'); `initial`: whether each
    name existed before its first write in `history`. Returns the new token."""
    if token is None:
        return None
    status, _, data = connection.send("REPORT", collection, sync_body(token.value),
                                      {"Content-Type": "application/xml; charset=utf-8", "Depth": "0"})
    if status != 207:
        fail(f"{who}: sync-collection from its last token before the kill ({token.value}): expected 207, seen {status}: {data[:300]!r}")
        return None
    reported, new_token = parse_multistatus(data, collection)
    for name in sorted(set(now) | set(reported)):
        ops = history.get(name, [])
        before = [op for op in ops if op.acked and op.t_ack < token.t_sent]
        after = [op for op in ops if op.acked and op.t_sent > token.t_recv]
        unsure = [op for op in ops if op not in before and op not in after and (op.acked or op.t_ack is None)]
        current = now.get(name)
        if unsure:
            at_token = "unknown"
        elif before:
            at_token = "present" if before[-1].kind == "put" else "absent"
        else:
            at_token = "present" if initial.get(name) else "absent"
        if name in reported:
            got = reported[name]
            if got != current:
                fail(f"{who}: sync from {token.value} reports {name} as {'404' if got is None else 'ETag ' + got}, "
                     f"but GET gives {'404' if current is None else 'ETag ' + current}")
            elif not after and not unsure:
                fail(f"{who}: sync from {token.value} reports {name}, which nothing changed after that token "
                     f"(last acknowledged write answered {token.t_sent - before[-1].t_ack:.3f} s before the token was asked for)"
                     if before else f"{who}: sync from {token.value} reports {name}, never written")
        else:
            created_and_gone = at_token == "absent" and current is None
            if after and not created_and_gone:
                fail(f"{who}: sync from {token.value} does not report {name}, changed after that token "
                     f"({', '.join(f'{op.kind} answered {op.status}' for op in after)}; "
                     f"GET gives {'404' if current is None else 'ETag ' + current})")
    apply_delta(mirror, reported)
    actual = {name: etag for name, etag in now.items() if etag is not None}
    if mirror != actual:
        missing = {n: e for n, e in actual.items() if mirror.get(n) != e}
        extra = {n: e for n, e in mirror.items() if n not in actual}
        fail(f"{who}: its mirror (full sync plus every delta) differs from the calendar: "
             f"out of date or missing {missing}, gone from the calendar {extra}")
        mirror.clear()
        mirror.update(actual)
    return Token(new_token, time.monotonic(), time.monotonic()) if new_token else None


def check_chats(session: Session, imports: list[Import], chat_calendar: str) -> dict[str, str | None]:
    """Acknowledged imports are there; in-flight ones wholly or not at all; the WhatsApp Events
    calendar holds exactly the conversations' events. Returns that calendar's name -> ETag."""
    api, caldav = session.api(), session.caldav()
    try:
        status, _, data = api.send("GET", "/api/v1/chats")
        if status != 200:
            fail(f"GET /api/v1/chats: expected 200, seen {status}")
            return {}
        conversations = {c["partner"]: c for c in json.loads(data)["chats"]}
        known = {record.partner for record in imports}
        for partner in sorted(set(conversations) - known):
            fail(f"a conversation with {partner!r} is there that no import made")
        named: set[str] = set()
        for record in imports:
            conversation = conversations.get(record.partner)
            pending = record.status is None
            if record.status is not None and record.status != 200 and conversation is not None:
                fail(f"import {record.partner} was answered {record.status}, yet its conversation is there")
                continue
            if conversation is None:
                if record.landed:
                    fail(f"import {record.partner} was there after an earlier restart, and its conversation is gone now")
                    continue
                if pending:
                    record.landed = False
                    continue
                if record.acked:
                    fail(f"import {record.partner} was answered 200, but its conversation is not there after the restart")
                continue
            events = {e["name"] for e in conversation.get("events", [])}
            named |= events
            if record.landed is not None:
                continue  # checked in an earlier round
            status, _, data = api.send("GET", f"/api/v1/chats/{conversation['id']}")
            stored = json.loads(data).get("messages", {}).get("stored") if status == 200 else None
            expected_events = ({e["name"] for e in record.answer.get("events", [])} if record.acked and record.answer else None)
            if stored != record.messages:
                fail(f"import {record.partner} ({'answered 200' if record.acked else 'in flight at the kill'}): expected "
                     f"{record.messages} stored messages, seen {stored} (GET /api/v1/chats/{conversation['id']} answered {status})")
            if conversation.get("state") != "HAS_EVENT_AGREED" or len(events) != 1:
                fail(f"import {record.partner} ({'answered 200' if record.acked else 'in flight at the kill'}): expected state HAS_EVENT_AGREED "
                     f"with 1 event, seen state {conversation.get('state')} with events {sorted(events)}")
            if expected_events is not None and events != expected_events:
                fail(f"import {record.partner}: its answer named events {sorted(expected_events)}, the conversation now {sorted(events)}")
            record.landed = True
            record.events = events
        members = listing(caldav, chat_calendar, CHAT_SLUG) or {}
        if set(members) != named:
            fail(f"{CHAT_SLUG}: expected exactly the {len(named)} events the conversations name; the calendar lists {len(members)}: "
                 f"missing {sorted(named - set(members))}, not named by any conversation {sorted(set(members) - named)}")
        for name in sorted(named & set(members)):
            status, headers, _ = caldav.send("GET", chat_calendar + name)
            if status != 200 or headers.get("etag") != members[name]:
                fail(f"{CHAT_SLUG}/{name}: expected 200 with the listed ETag {members[name]}, seen {status} {headers.get('etag')}")
        return {name: members.get(name) for name in set(members) | named}
    finally:
        api.close()
        caldav.close()


def reimport(session: Session, record: Import, where: str) -> None:
    api = session.api()
    try:
        t_sent = time.monotonic()
        status, _, data = api.send("POST", f"/api/v1/chats/import?me={ME}", record.body, {"Content-Type": "text/plain; charset=utf-8"})
    except (OSError, http.client.HTTPException) as error:
        fail(f"{where}: importing {record.partner} again after the restart: no answer ({type(error).__name__}: {error})")
        return
    finally:
        api.close()
    if status != 200:
        fail(f"{where}: importing {record.partner} again after the restart: expected 200, seen {status}: {data[:300]!r}")
        return
    answer = json.loads(data)
    new, duplicates = answer.get("messages", {}).get("new"), answer.get("messages", {}).get("duplicates")
    changed = answer.get("events", [])
    if record.landed:
        if new != 0 or duplicates != record.messages or changed:
            fail(f"{where}: importing {record.partner} again (its first upload landed before the kill): expected 0 new and "
                 f"{record.messages} duplicate messages and no event change; seen {new} new, {duplicates} duplicates, events {changed}")
        return
    made = {e["name"] for e in changed if e.get("change") == "created"}
    if new != record.messages or len(made) != 1 or len(changed) != 1:
        fail(f"{where}: importing {record.partner} again (its first upload did not land): expected {record.messages} new messages "
             f"and 1 event created; seen {new} new, {duplicates} duplicates, events {changed}")
    record.t_sent, record.t_ack, record.status, record.answer = t_sent, time.monotonic(), 200, answer
    record.landed = None  # checked again as an acknowledged import


class ImportWrite:
    """An import as a write to one event name, for the sync check."""

    def __init__(self, record: Import):
        self.kind = "put"
        self.t_sent, self.t_ack, self.status, self.landed = record.t_sent, record.t_ack, record.status, record.landed

    @property
    def acked(self) -> bool:
        return self.status == 200 or bool(self.landed)


# MARK: killed while writing a key file


KEY_FILES = ("secret.key", "chat.key", "vapid.key")


def key_file_kills(binary: str) -> None:
    """A first start killed at the moment each key file the server makes in its data folder comes
    to be, then a normal start on the same folder must come up: nothing is sealed with a key that
    was never written, so a half-made key file must not stop the server. strace injects SIGKILL at
    the syscall on that path (a random kill almost never lands in that window): the write(2) to it,
    for a server that writes the file in place, and the link(2) that puts it in place, for one that
    writes it under another name first."""
    strace = shutil.which("strace")
    if not strace:
        print("key files: not checked, no strace on this machine (apt-get install strace)", flush=True)
        return
    for key in KEY_FILES:
        for syscalls in ("write", "link,linkat,rename,renameat,renameat2"):
            folder = Path(tempfile.mkdtemp(prefix="jadwal-crash-keys-"))
            first = syscalls.split(",")[0]
            try:
                data = folder / "data"
                traced = Server(binary, folder, None, "")
                command = [strace, "-f", "-qq", "-o", str(folder / "strace.out"), "-P", str(data / key), "-e", f"trace={syscalls}",
                           "-e", f"inject={syscalls}:signal=SIGKILL"]
                traced.starts += 1
                traced.port = free_port()
                with (folder / "traced.log").open("w") as log:
                    process = subprocess.Popen(
                        command + [binary, "serve", "--hostname", "127.0.0.1", "--port", str(traced.port), "--data-dir", str(data),
                                   "--log-level", "notice"], stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
                began, ready = time.monotonic(), False
                while process.poll() is None and time.monotonic() - began < 60 and not ready:
                    ready = traced.ready()
                    time.sleep(0.05)
                if process.poll() is None:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(timeout=30)
                trace = (folder / "strace.out").read_text(errors="replace") if (folder / "strace.out").exists() else ""
                if ready:
                    print(f"key files: {key}: no {first}(2) on the file during a first start: nothing to kill at", flush=True)
                    continue
                if "killed by SIGKILL" not in trace:
                    print(f"key files: {key}: not checked at {first}(2), strace did not kill the server (cannot trace here?): "
                          f"{(folder / 'traced.log').read_text(errors='replace')[-300:]!r} {trace[-300:]!r}", flush=True)
                    continue
                size = (data / key).stat().st_size if (data / key).exists() else None
                server = Server(binary, folder, None, "")
                server.starts = 1
                try:
                    server.start()
                    print(f"key files: {key}: first start killed at its {first}(2) (left {size} bytes); the next start came up", flush=True)
                except RuntimeError as error:
                    fail(f"key file {key}: a first start killed at the {first}(2) of {key} left it with {size} bytes; expected the next "
                         f"start to come up (nothing was sealed with that key), seen: {str(error).strip().splitlines()[-1]}")
                finally:
                    server.stop()
            finally:
                shutil.rmtree(folder, ignore_errors=True)


# MARK: one engine


class Stats:
    def __init__(self):
        self.rounds = 0
        self.puts = self.deletes = self.imports = self.syncs = 0
        self.inflight_writes = self.inflight_imports = self.landed_writes = self.landed_imports = 0
        self.restart_seconds: list[float] = []
        self.kill_after: list[float] = []
        self.warnings: dict[str, int] = {}
        self.reimports = 0
        self.startup_kills = self.startup_kills_before_ready = self.restart_kills = self.restart_kills_before_ready = 0


def run_engine(engine: str, args, rng: random.Random, stats: Stats) -> None:
    folder = Path(tempfile.mkdtemp(prefix=f"jadwal-crash-{engine}-"))
    pgdir = None
    server = None
    servers: list[Server] = []
    try:
        database_url = None
        if engine == "postgresql":
            database_url = args.database_url
            if not database_url:
                pgdir = Path(tempfile.mkdtemp(prefix="jadwal-crash-pg-"))
                database_url = run([str(ROOT / "scripts/postgres.sh"), "start", str(pgdir)]).strip().splitlines()[-1]
        email = f"crash-{args.seed}-{int(time.time())}@example.com"
        server = Server(args.binary, folder, database_url, email)
        servers.append(server)
        # Killed while it creates and migrates the database (and a little after), then again.
        for _ in range(args.startup_kills):
            after = rng.uniform(0.0, 0.45)
            was_ready = server.start_and_kill(after)
            stats.startup_kills += 1
            stats.startup_kills_before_ready += 0 if was_ready else 1
            if server.bad_log_lines():
                fail(f"{engine}: a first start killed after {after:.2f} s had logged errors:\n" + "\n".join(server.bad_log_lines()[:20]))
        password = server.create_account()
        server.start()
        if server.bad_log_lines():
            fail(f"{engine}: the first start logged errors:\n" + "\n".join(server.bad_log_lines()))
        session = Session(server, password)
        # More instances on the same PostgreSQL database, with the first one's keys; each round
        # one of them is killed while the others go on serving.
        for number in range(2, (args.instances if engine == "postgresql" else 1) + 1):
            other = Server(args.binary, folder / f"instance-{number}", database_url, email)
            other.data.mkdir(parents=True, mode=0o700)
            for key in KEY_FILES:
                shutil.copy2(server.data / key, other.data / key)
            other.start()
            servers.append(other)
        calendar = session.home + CALENDAR_SLUG + "/"
        chat_calendar = session.home + CHAT_SLUG + "/"
        setup = session.caldav()
        status, _, data = setup.send("MKCALENDAR", calendar, b'<?xml version="1.0" encoding="utf-8"?><C:mkcalendar xmlns:D="DAV:" '
                                     b'xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop><D:displayname>Crash</D:displayname>'
                                     b'</D:prop></D:set></C:mkcalendar>', {"Content-Type": "application/xml"})
        setup.close()
        if status != 201:
            raise RuntimeError(f"MKCALENDAR {calendar} answered {status}: {data[:300]!r}")

        model = Model()
        mirrors = [dict() for _ in range(args.clients)]
        tokens: list[Token | None] = [None] * args.clients
        imports: list[Import] = []
        chat_mirror: dict = {}
        chat_token: Token | None = None
        names = [f"c{slot}-{i}.ics" for slot in range(args.clients) for i in range(NAMES_PER_CLIENT)]
        kill_low, kill_high = (0.3, 1.5) if args.short else (0.3, 3.0)
        filler = 150 if args.short else 300

        for round_no in range(1, args.rounds + 1):
            session.refresh()
            stop, killing = threading.Event(), threading.Event()
            clients = [Client(slot, session.on(servers[slot % len(servers)]), calendar, model, mirrors[slot], tokens[slot],
                              random.Random(rng.random()), stop, killing, round_no, 400)
                       for slot in range(args.clients)]
            importer = Importer(session.on(servers[round_no % len(servers)]), chat_calendar, imports, chat_mirror, chat_token,
                                random.Random(rng.random()), stop, killing, round_no, 200, filler)
            victim = servers[rng.randrange(len(servers))]
            kill_after = rng.uniform(kill_low, kill_high)
            began = time.monotonic()
            for thread in clients + [importer]:
                thread.start()
            time.sleep(kill_after)
            killing.set()
            kill_time = time.monotonic()
            victim.kill()
            stop.set()
            for thread in clients + [importer]:
                thread.join(timeout=REQUEST_TIMEOUT + 10)
                if thread.is_alive():
                    raise RuntimeError("a client thread did not end after the kill")
            for client in clients:
                for problem in client.problems:
                    fail(f"{engine} round {round_no}: client {client.slot}: {problem}")
                if client.inflight is not None:
                    client.inflight.t_ack = None
                    model.history.setdefault(client.inflight.name, []).append(client.inflight)
                    model.pending[client.inflight.name] = client.inflight
                tokens[client.slot] = client.token
            for problem in importer.problems:
                fail(f"{engine} round {round_no}: importer: {problem}")
            chat_token = importer.token
            acked_puts = sum(1 for c in clients for op in c.ops if op.acked and op.kind == "put")
            acked_deletes = sum(1 for c in clients for op in c.ops if op.acked and op.kind == "delete")
            round_imports = [r for r in imports if r.partner.startswith(f"Partner R{round_no}N")]
            acked_imports = sum(1 for r in round_imports if r.acked)
            inflight = [c.inflight for c in clients if c.inflight is not None]
            inflight_import = importer.inflight

            # Restart on the same data; now and then the restart is killed too, while it recovers.
            try:
                if rng.random() < 0.3:
                    after = rng.uniform(0.0, 0.35)
                    was_ready = victim.start_and_kill(after)
                    stats.restart_kills += 1
                    stats.restart_kills_before_ready += 0 if was_ready else 1
                    if victim.bad_log_lines():
                        fail(f"{engine} round {round_no}: a restart killed after {after:.2f} s had logged errors:\n"
                             + "\n".join(victim.bad_log_lines()[:20]))
                restart = victim.start()
            except RuntimeError as error:
                fail(f"{engine} round {round_no}: the server did not start again on the killed data: {error}")
                return
            bad = victim.bad_log_lines()
            for line in victim.warnings():
                stats.warnings[line] = stats.warnings.get(line, 0) + 1
            if bad:
                fail(f"{engine} round {round_no}: the restart logged errors (expected none):\n" + "\n".join(bad[:20]))
            session.refresh()

            connection = session.caldav()
            try:
                now = check_objects(connection, calendar, model, names)
                listed = listing(connection, calendar, CALENDAR_SLUG)
                if listed is not None:
                    present = {name: etag for name, etag in now.items() if etag is not None}
                    if listed != present:
                        fail(f"{engine} round {round_no}: PROPFIND {CALENDAR_SLUG} lists {sorted(listed.items())}, "
                             f"expected the objects GET finds {sorted(present.items())}")
                for op in inflight:
                    if getattr(op, "landed", False):
                        op.t_ack, op.status = kill_time, 200
                    else:
                        model.history[op.name].remove(op)
                initial: dict[str, bool] = {}
                for slot in range(args.clients):
                    tokens[slot] = check_sync(connection, calendar, f"{engine} round {round_no}: client {slot}", tokens[slot],
                                              mirrors[slot], model.history, now, initial)
            finally:
                connection.close()
            chat_now = check_chats(session, imports, chat_calendar)
            import_landed = bool(inflight_import and inflight_import.landed)
            if import_landed:
                inflight_import.t_ack = kill_time
            if inflight_import is not None:
                # What a client does after a failed upload: the same export again. It adds
                # nothing when the first one landed, and all of it when it did not.
                reimport(session, inflight_import, f"{engine} round {round_no}")
                stats.reimports += 1
                chat_now = check_chats(session, imports, chat_calendar)
            chat_history: dict[str, list] = {}
            for record in imports:
                if record.landed:
                    for name in record.events:
                        chat_history.setdefault(name, []).append(ImportWrite(record))
                elif record.status is None:
                    pass  # did not land: it wrote nothing
            chat_connection = session.caldav()
            try:
                chat_token = check_sync(chat_connection, chat_calendar, f"{engine} round {round_no}: importer", chat_token,
                                        chat_mirror, chat_history, chat_now, {})
            finally:
                chat_connection.close()

            landed = sum(1 for op in inflight if getattr(op, "landed", False))
            stats.rounds += 1
            stats.puts += acked_puts
            stats.deletes += acked_deletes
            stats.imports += acked_imports
            stats.syncs += sum(c.syncs for c in clients)
            stats.inflight_writes += len(inflight)
            stats.landed_writes += landed
            stats.inflight_imports += 1 if inflight_import else 0
            stats.landed_imports += 1 if import_landed else 0
            stats.restart_seconds.append(restart)
            stats.kill_after.append(kill_after)
            which = f" instance {servers.index(victim) + 1} of {len(servers)}" if len(servers) > 1 else ""
            print(f"{engine} round {round_no}:{which} killed after {kill_after:.2f} s; acknowledged {acked_puts} PUT, {acked_deletes} DELETE, "
                  f"{acked_imports} imports; in flight {len(inflight)} writes ({landed} landed), "
                  f"{'1 import (' + ('landed' if import_landed else 'not landed') + ')' if inflight_import else 'no import'}; "
                  f"ready again in {restart:.2f} s; {len(failures)} failures so far ({time.monotonic() - began:.1f} s)", flush=True)
        for instance in servers:
            instance.stop()
            if instance.bad_log_lines():
                fail(f"{engine}: the last run logged errors:\n" + "\n".join(instance.bad_log_lines()[:20]))
    finally:
        for instance in servers:
            instance.kill()
        if pgdir is not None:
            subprocess.run([str(ROOT / "scripts/postgres.sh"), "stop", str(pgdir)], capture_output=True, timeout=120)
        if args.keep:
            print(f"{engine}: data and logs kept in {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.environ.get("JADWAL_BINARY", "/var/tmp/jadwal-build/debug/jadwal"),
                        help="the jadwal binary (default $JADWAL_BINARY, else /var/tmp/jadwal-build/debug/jadwal)")
    parser.add_argument("--rounds", type=int, default=20, help="kills per engine (default 20)")
    parser.add_argument("--engine", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--database-url", help="a PostgreSQL database to use (a new account is made in it each run; else a throwaway cluster from scripts/postgres.sh)")
    parser.add_argument("--seed", type=int, help="RNG seed (printed; default from the clock)")
    parser.add_argument("--clients", type=int, default=4, help="concurrent CalDAV clients (default 4)")
    parser.add_argument("--instances", type=int, default=1,
                        help="PostgreSQL: this many `jadwal serve` on the database, one killed each round (default 1)")
    parser.add_argument("--short", action="store_true", help="3 rounds per engine with short kill delays, for the test command (about 20 s)")
    parser.add_argument("--startup-kills", type=int, help="first starts killed (creating, migrating) before the rounds (default 4; 2 with --short)")
    parser.add_argument("--no-key-files", dest="key_files", action="store_false",
                        help="skip the first starts killed (with strace) at the write of each key file")
    parser.add_argument("--keep", action="store_true", help="keep the data folders and server logs")
    args = parser.parse_args()
    if args.short:
        args.rounds = 3
    if args.startup_kills is None:
        args.startup_kills = 2 if args.short else 4
    if args.seed is None:
        args.seed = int(time.time() * 1000) % 1_000_000
    args.binary = str(Path(args.binary).resolve())
    if not os.access(args.binary, os.X_OK):
        print(f"no jadwal binary at {args.binary}", file=sys.stderr)
        return 2
    engines = ["sqlite", "postgresql"] if args.engine == "both" else [args.engine]
    print(f"crash safety: seed {args.seed}, {args.rounds} rounds per engine ({', '.join(engines)}), {args.clients} CalDAV clients + 1 importer", flush=True)
    rng = random.Random(args.seed)
    began = time.monotonic()
    if args.key_files:
        key_file_kills(args.binary)
    for engine in engines:
        stats = Stats()
        engine_began = time.monotonic()
        try:
            run_engine(engine, args, random.Random(rng.random()), stats)
        except Exception as error:  # a setup step failed: say which, and go on to the next engine
            fail(f"{engine}: {type(error).__name__}: {error}")
        if stats.rounds:
            restarts = sorted(stats.restart_seconds)
            print(f"{engine}: {stats.rounds} rounds in {time.monotonic() - engine_began:.1f} s; acknowledged {stats.puts} PUT + "
                  f"{stats.deletes} DELETE + {stats.imports} imports, {stats.syncs} syncs; in flight at the kill: "
                  f"{stats.inflight_writes} writes ({stats.landed_writes} landed), {stats.inflight_imports} imports "
                  f"({stats.landed_imports} landed); restart to /readyz median {restarts[len(restarts) // 2]:.2f} s, "
                  f"max {restarts[-1]:.2f} s; starts killed too: {stats.startup_kills} first starts ({stats.startup_kills_before_ready} "
                  f"before /readyz), {stats.restart_kills} restarts ({stats.restart_kills_before_ready} before /readyz); "
                  f"{stats.reimports} in-flight imports sent again after the restart", flush=True)
            for line, count in sorted(stats.warnings.items()):
                print(f"{engine}: warning logged by {count} of {stats.rounds} restarts (not a failed check): {line}")
    print(f"crash safety: seed {args.seed}, {time.monotonic() - began:.1f} s, {len(failures)} failed checks")
    for failure in failures:
        print(f"FAIL {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
