#!/usr/bin/env python3
"""CalDAV speed: Jadwal beside Radicale and Xandikos, same data, same workload, one table.

  Benchmarks/caldav/bench.py --jadwal-binary /var/tmp/jadwal-build/release/jadwal
  Benchmarks/caldav/bench.py --jadwal-binary ... --events 5000 --markdown
  Benchmarks/caldav/bench.py --quick --servers radicale,xandikos          (smoke run, no Jadwal)

For every calendar size (--events, default 5000,20000) and every server, a fresh server is
started on loopback (scripts/caldav/servers.py), a calendar is made with MKCALENDAR, and:

  PUT            the generated events are uploaded by 8 concurrent clients (keep-alive
                 connections): events/s for the whole load. Radicale and Xandikos slow down as
                 a calendar grows (each PUT checks the UID against the whole collection), so a
                 peer gets --put-budget seconds of PUTs (default 180) and the rest of its data is
                 written straight into its storage (Radicale's folder; Xandikos' git repo with
                 one commit); its PUT/s then covers the first events only, which flatters it.
                 Jadwal always takes every PUT.
  query-week     calendar-query REPORT for one week (calendar-data + getetag, Depth 1): p50/p99
  sync-10        sync-collection REPORT with a token taken before 10 events were changed: p50/p99
  propfind-home  PROPFIND Depth 1 on the calendar home (displayname, resourcetype, getctag,
                 sync-token, supported-calendar-component-set): p50/p99
  rss            the server's resident memory after loading and querying (VmRSS, MiB)

Timed requests are raw HTTP/1.1 on one persistent connection (http.client), so that no client
library's cost is measured. Each latency is measured --reps times (after 10 warm-ups) or until
--budget seconds are spent, whichever comes first; the table says how many samples.

The data set is deterministic (--seed): events spread over 2025-2026 in Asia/Riyadh with a
VTIMEZONE, 10% recurring (weekly without end, daily COUNT=10, monthly COUNT=12, weekly with an
EXDATE), 20% with a VALARM. The number of objects the week query returns is printed per server:
all servers must agree (a cheap correctness cross-check).

The ratio columns say how many times better Jadwal is than the peer: peer/jadwal for times and
memory, jadwal/peer for PUT throughput. Above 1 means Jadwal is faster or smaller.
"""

from __future__ import annotations

import argparse
import base64
import datetime as dt
import http.client
import json
import random
import re
import statistics
import sys
import threading
import time
import urllib.parse
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts" / "caldav"))
import servers  # noqa: E402

DAV, CALDAV, CS = "DAV:", "urn:ietf:params:xml:ns:caldav", "http://calendarserver.org/ns/"
WEEK_START, WEEK_END = dt.datetime(2026, 3, 2, tzinfo=dt.timezone.utc), dt.datetime(2026, 3, 9, tzinfo=dt.timezone.utc)

RIYADH = "\r\n".join([
    "BEGIN:VTIMEZONE", "TZID:Asia/Riyadh", "BEGIN:STANDARD", "TZOFFSETFROM:+0300", "TZOFFSETTO:+0300",
    "TZNAME:+03", "DTSTART:19700101T000000", "END:STANDARD", "END:VTIMEZONE"])


# ---------------------------------------------------------------------------------------------
# data

def generate(count: int, seed: int) -> list[tuple[str, str]]:
    """(object name, iCalendar text) for `count` events."""
    rng = random.Random(seed)
    start_day = dt.date(2025, 1, 1)
    out = []
    for i in range(count):
        uid = f"bench-{seed}-{i:06d}@jadwal.bench"
        day = start_day + dt.timedelta(days=rng.randrange(0, 730))
        hour, minute = rng.randrange(6, 22), rng.choice((0, 15, 30, 45))
        length = rng.choice((30, 45, 60, 90, 120))
        begin = dt.datetime.combine(day, dt.time(hour, minute))
        end = begin + dt.timedelta(minutes=length)
        lines = ["BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20250101T000000Z",
                 f"DTSTART;TZID=Asia/Riyadh:{begin:%Y%m%dT%H%M%S}", f"DTEND;TZID=Asia/Riyadh:{end:%Y%m%dT%H%M%S}",
                 f"SUMMARY:Event {i} {rng.choice(('Meeting', 'Call', 'Lunch', 'Review', 'Dentist', 'Gym'))}",
                 f"LOCATION:Room {rng.randrange(1, 40)}"]
        if i % 10 == 0:  # 10% recurring
            kind = (i // 10) % 4
            if kind == 0:
                lines.append("RRULE:FREQ=WEEKLY")
            elif kind == 1:
                lines.append("RRULE:FREQ=DAILY;COUNT=10")
            elif kind == 2:
                lines.append("RRULE:FREQ=MONTHLY;COUNT=12")
            else:
                lines.append("RRULE:FREQ=WEEKLY;COUNT=20")
                lines.append(f"EXDATE;TZID=Asia/Riyadh:{begin + dt.timedelta(weeks=2):%Y%m%dT%H%M%S}")
        if rng.random() < 0.2:
            lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder",
                      f"TRIGGER:-PT{rng.choice((5, 10, 15, 30))}M", "END:VALARM"]
        lines.append("END:VEVENT")
        text = "\r\n".join(["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal//bench//EN", RIYADH] + lines
                           + ["END:VCALENDAR"]) + "\r\n"
        out.append((f"bench-{i:06d}.ics", text))
    return out


# ---------------------------------------------------------------------------------------------
# raw HTTP

class Client:
    """One keep-alive HTTP/1.1 connection; reconnects when the server closes it."""

    def __init__(self, server: servers.Server):
        self.host, self.port = "127.0.0.1", server.port
        self.auth = server.auth_header()
        self.conn: http.client.HTTPConnection | None = None
        self.reconnects = 0

    def request(self, method: str, path: str, body: bytes | str | None = None,
                headers: dict | None = None) -> tuple[int, bytes, dict]:
        if isinstance(body, str):
            body = body.encode()
        hdrs = {"Authorization": self.auth, "User-Agent": "jadwal-bench"}
        if body is not None:
            hdrs.setdefault("Content-Type", "application/xml; charset=utf-8")
        hdrs.update(headers or {})
        for attempt in range(2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=600)
                self.reconnects += 1
            try:
                self.conn.request(method, path, body=body, headers=hdrs)
                response = self.conn.getresponse()
                data = response.read()
                if response.will_close:
                    self.conn.close()
                    self.conn = None
                return response.status, data, dict(response.getheaders())
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError,
                    http.client.CannotSendRequest, http.client.ResponseNotReady):
                self.conn.close()
                self.conn = None
                if attempt == 1:
                    raise
        raise RuntimeError("unreachable")

    def close(self):
        if self.conn:
            self.conn.close()


class BenchError(Exception):
    pass


def propfind(client: Client, path: str, props: str, depth: str = "0") -> tuple[int, bytes]:
    body = (f'<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" xmlns:c="{CALDAV}" '
            f'xmlns:cs="{CS}"><d:prop>{props}</d:prop></d:propfind>')
    status, data, _ = client.request("PROPFIND", path, body, {"Depth": depth})
    return status, data


def href_of(data: bytes, ns: str, name: str) -> str | None:
    try:
        root = ET.fromstring(data)
    except ET.ParseError:
        return None
    node = root.find(f".//{{{ns}}}{name}/{{{DAV}}}href")
    return node.text.strip() if node is not None and node.text else None


def discover_home(client: Client) -> str:
    status, data = propfind(client, "/", "<d:current-user-principal/>")
    principal = href_of(data, DAV, "current-user-principal") if status == 207 else None
    if not principal:
        raise BenchError(f"PROPFIND / current-user-principal -> {status}: {data[:200]!r}")
    principal = urllib.parse.urlsplit(principal).path
    status, data = propfind(client, principal, "<c:calendar-home-set/>")
    home = href_of(data, CALDAV, "calendar-home-set") if status == 207 else None
    if not home:
        raise BenchError(f"PROPFIND {principal} calendar-home-set -> {status}: {data[:200]!r}")
    home = urllib.parse.urlsplit(home).path
    return home if home.endswith("/") else home + "/"


def make_calendar(client: Client, home: str, name: str) -> str:
    path = f"{home}{name}/"
    body = (f'<?xml version="1.0" encoding="utf-8"?><c:mkcalendar xmlns:d="DAV:" xmlns:c="{CALDAV}"><d:set><d:prop>'
            f'<d:displayname>Benchmark</d:displayname><c:supported-calendar-component-set><c:comp name="VEVENT"/>'
            f'</c:supported-calendar-component-set></d:prop></d:set></c:mkcalendar>')
    status, data, _ = client.request("MKCALENDAR", path, body)
    if status not in (200, 201):
        raise BenchError(f"MKCALENDAR {path} -> {status}: {data[:200]!r}")
    return path


def put_all(server: servers.Server, calendar: str, items: list[tuple[str, str]], clients: int,
            budget: float | None = None) -> tuple[float, int, int]:
    """Uploads with `clients` threads until done or `budget` seconds are spent.
    Returns (events per second, PUTs done, failures)."""
    lock = threading.Lock()
    queue = list(reversed(items))
    failures: list[str] = []
    deadline = time.perf_counter() + budget if budget else None

    def worker():
        client = Client(server)
        try:
            while True:
                with lock:
                    if not queue or (deadline and time.perf_counter() > deadline):
                        return
                    name, text = queue.pop()
                status, data, _ = client.request("PUT", calendar + name, text,
                                                 {"Content-Type": "text/calendar; charset=utf-8", "If-None-Match": "*"})
                if status not in (201, 204):
                    with lock:
                        failures.append(f"{name}: {status} {data[:120]!r}")
        except Exception as error:
            with lock:
                failures.append(f"{type(error).__name__}: {error}")
        finally:
            client.close()

    threads = [threading.Thread(target=worker) for _ in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.perf_counter() - started
    if failures:
        print(f"    {len(failures)} PUTs failed, e.g. {failures[0]}", file=sys.stderr)
    done = len(items) - len(queue)
    return (done - len(failures)) / took, done, len(failures)


def preload(server: servers.Server, calendar: str, items: list[tuple[str, str]]) -> None:
    """Writes the rest of the data set straight into a peer's storage (its PUT is too slow to
    load 20,000 events in reasonable time: both check UID uniqueness against the whole
    collection on every PUT). The server keeps running; both read their storage per request."""
    path = urllib.parse.unquote(calendar).strip("/")
    if server.kind == "radicale":
        folder = server.data_dir / "collections" / "collection-root" / path
        for name, text in items:
            (folder / name).write_text(text)
    elif server.kind == "xandikos":
        from dulwich.repo import Repo
        folder = server.data_dir / "dav" / path
        for name, text in items:
            (folder / name).write_text(text)
        repo = Repo(str(folder))
        worktree = repo.get_worktree() if hasattr(repo, "get_worktree") else repo
        worktree.stage([name.encode() for name, _ in items])
        kwargs = dict(message=b"bench preload", committer=b"bench <bench@jadwal.bench>",
                      author=b"bench <bench@jadwal.bench>")
        worktree.commit(**kwargs) if hasattr(worktree, "commit") else repo.do_commit(**kwargs)
    else:
        raise BenchError(f"no preload for {server.kind}: it must take every PUT")


def count_responses(data: bytes) -> int:
    return len(re.findall(rb"<(?:[\w-]+:)?response[\s>]", data))


def response_names(data: bytes) -> set[str]:
    """The last path segment of every href in a multistatus (the object names)."""
    hrefs = re.findall(rb"<(?:[\w-]+:)?href>([^<]+)</(?:[\w-]+:)?href>", data)
    return {urllib.parse.unquote(h.decode()).rstrip("/").rsplit("/", 1)[-1] for h in hrefs}


def reference_week(items: list[tuple[str, str]]) -> set[str] | None:
    """Names of the objects with an instance in the week, by icalendar + recurring-ical-events."""
    try:
        import icalendar
        import recurring_ical_events
    except ImportError:
        return None
    return {name for name, text in items
            if recurring_ical_events.of(icalendar.Calendar.from_ical(text)).between(WEEK_START, WEEK_END)}


def time_request(client: Client, method: str, path: str, body: str, headers: dict, reps: int, budget: float,
                 ok=(207,), warmup: int = 10) -> tuple[list[float], bytes]:
    last = b""
    # Warm-up: Radicale builds its item cache on the first read, Xandikos adds an index for a
    # filter once it has seen it more than 5 times; neither should be timed.
    for _ in range(warmup):
        status, last, _ = client.request(method, path, body, headers)
        if status not in ok:
            raise BenchError(f"{method} {path} -> {status}: {last[:300]!r}")
    samples = []
    deadline = time.perf_counter() + budget
    while len(samples) < reps and (len(samples) < 5 or time.perf_counter() < deadline):
        t0 = time.perf_counter()
        status, last, _ = client.request(method, path, body, headers)
        samples.append(time.perf_counter() - t0)
        if status not in ok:
            raise BenchError(f"{method} {path} -> {status}")
    return samples, last


def week_query() -> str:
    return (f'<?xml version="1.0" encoding="utf-8"?><c:calendar-query xmlns:d="DAV:" xmlns:c="{CALDAV}">'
            f'<d:prop><d:getetag/><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR">'
            f'<c:comp-filter name="VEVENT"><c:time-range start="{WEEK_START:%Y%m%dT%H%M%SZ}" '
            f'end="{WEEK_END:%Y%m%dT%H%M%SZ}"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>')


def sync_body(token: str) -> str:
    """A sync-collection REPORT body (RFC 6578; sent with Depth: 0, as section 3.2 requires)."""
    token_xml = f"<d:sync-token>{token}</d:sync-token>" if token else "<d:sync-token/>"
    return (f'<?xml version="1.0" encoding="utf-8"?><d:sync-collection xmlns:d="DAV:">{token_xml}'
            f'<d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>')


def sync_token_of(data: bytes) -> str | None:
    m = re.search(rb"<(?:[\w-]+:)?sync-token>([^<]+)</(?:[\w-]+:)?sync-token>", data)
    return m.group(1).decode().replace("&amp;", "&") if m else None


HOME_PROPS = ("<d:displayname/><d:resourcetype/><cs:getctag/><d:sync-token/>"
              "<c:supported-calendar-component-set/><d:current-user-privilege-set/>")


# ---------------------------------------------------------------------------------------------

@dataclass
class Result:
    kind: str
    events: int
    put_rate: float | None = None
    put_count: int = 0
    put_failures: int = 0
    query: list[float] = field(default_factory=list)
    query_hits: int | None = None
    query_names: set[str] = field(default_factory=set)
    sync: list[float] = field(default_factory=list)
    sync_hits: int | None = None
    propfind: list[float] = field(default_factory=list)
    rss_mib: float | None = None
    errors: dict[str, str] = field(default_factory=dict)


def run_one(kind: str, items, args) -> Result:
    result = Result(kind, len(items))
    print(f"  {kind}: starting", file=sys.stderr, flush=True)
    try:
        server = servers.start_server(kind, jadwal_binary=args.jadwal_binary)
    except servers.ServerError as error:
        result.errors["start"] = str(error).splitlines()[0]
        print(f"  {kind}: could not start: {error}", file=sys.stderr)
        return result
    with server:
        client = Client(server)
        try:
            home = discover_home(client)
            calendar = make_calendar(client, home, "bench")
        except Exception as error:
            result.errors["setup"] = f"{error}"[:300]
            print(f"  {kind}: setup failed: {error}", file=sys.stderr)
            return result
        t0 = time.perf_counter()
        budget = args.put_budget if kind != "jadwal" and args.put_budget > 0 else None
        result.put_rate, result.put_count, result.put_failures = put_all(server, calendar, items, args.clients, budget)
        print(f"  {kind}: PUT {result.put_count} in {time.perf_counter() - t0:.1f} s ({result.put_rate:.0f}/s)",
              file=sys.stderr, flush=True)
        if result.put_count < len(items):
            t0 = time.perf_counter()
            try:
                preload(server, calendar, items[result.put_count:])
            except Exception as error:
                result.errors["setup"] = f"preload failed: {error}"
                return result
            print(f"  {kind}: wrote the other {len(items) - result.put_count} events into its storage "
                  f"in {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)

        def measure(name, fn):
            try:
                fn()
            except Exception as error:
                result.errors[name] = f"{type(error).__name__}: {error}"[:300]
                print(f"  {kind}: {name} failed: {error}", file=sys.stderr, flush=True)

        def query():
            result.query, data = time_request(client, "REPORT", calendar, week_query(), {"Depth": "1"},
                                              args.reps, args.budget)
            result.query_hits = count_responses(data)
            result.query_names = response_names(data) & {name for name, _ in items}

        def sync():
            status, data, _ = client.request("REPORT", calendar, sync_body(""), {"Depth": "0"})
            token = sync_token_of(data) if status == 207 else None
            if not token:
                raise BenchError(f"initial sync-collection -> {status}, no sync-token")
            for name, text in items[1:len(items):max(1, len(items) // 10)][:10]:
                status, data, _ = client.request("PUT", calendar + name, text.replace("SUMMARY:", "SUMMARY:Changed "),
                                                 {"Content-Type": "text/calendar; charset=utf-8"})
                if status not in (201, 204):
                    raise BenchError(f"PUT change -> {status}")
            result.sync, data = time_request(client, "REPORT", calendar, sync_body(token), {"Depth": "0"},
                                             args.reps, args.budget)
            result.sync_hits = count_responses(data)

        def home_propfind():
            body = (f'<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" xmlns:c="{CALDAV}" '
                    f'xmlns:cs="{CS}"><d:prop>{HOME_PROPS}</d:prop></d:propfind>')
            result.propfind, _ = time_request(client, "PROPFIND", home, body, {"Depth": "1"}, args.reps, args.budget)

        measure("query-week", query)
        measure("sync-10", sync)
        measure("propfind-home", home_propfind)
        result.rss_mib = server.rss_kib() / 1024
        client.close()
        q = f"{statistics.median(result.query) * 1000:.1f} ms" if result.query else "-"
        print(f"  {kind}: query p50 {q} ({result.query_hits} objects), RSS {result.rss_mib:.0f} MiB",
              file=sys.stderr, flush=True)
    return result


def pct(samples: list[float], p: float) -> float | None:
    if not samples:
        return None
    ordered = sorted(samples)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k] * 1000


def rows_for(results: dict[str, Result]) -> list[tuple[str, dict[str, float | None], bool, dict[str, str]]]:
    """(label, value per server, higher_is_better, notes per server)."""
    def by(fn):
        return {k: fn(r) for k, r in results.items()}

    def note(r: Result, key: str, n: int | None = None) -> str:
        if "start" in r.errors or "setup" in r.errors:
            return r.errors.get("start") or r.errors.get("setup")
        return r.errors.get(key, "")

    return [
        ("PUT events/s (8 clients)", by(lambda r: r.put_rate), True, by(lambda r: note(r, "put"))),
        ("week query p50 ms", by(lambda r: pct(r.query, 50)), False, by(lambda r: note(r, "query-week"))),
        ("week query p99 ms", by(lambda r: pct(r.query, 99)), False, by(lambda r: note(r, "query-week"))),
        ("sync-collection (10 changes) p50 ms", by(lambda r: pct(r.sync, 50)), False, by(lambda r: note(r, "sync-10"))),
        ("sync-collection (10 changes) p99 ms", by(lambda r: pct(r.sync, 99)), False, by(lambda r: note(r, "sync-10"))),
        ("PROPFIND home Depth 1 p50 ms", by(lambda r: pct(r.propfind, 50)), False, by(lambda r: note(r, "propfind-home"))),
        ("PROPFIND home Depth 1 p99 ms", by(lambda r: pct(r.propfind, 99)), False, by(lambda r: note(r, "propfind-home"))),
        ("server RSS MiB", by(lambda r: r.rss_mib), False, by(lambda r: "")),
    ]


def fmt_value(v: float | None) -> str:
    if v is None:
        return "-"
    return f"{v:.0f}" if v >= 100 else f"{v:.1f}" if v >= 10 else f"{v:.2f}"


def render(all_results: dict[int, dict[str, Result]], kinds: list[str], markdown: bool,
           references: dict[int, set[str] | None] | None = None) -> str:
    peers = [k for k in kinds if k != "jadwal"]
    ratio_cols = [f"{p}/jadwal" for p in peers] if "jadwal" in kinds else []
    header = ["events", "metric"] + kinds + ratio_cols
    rows = []
    for events, results in all_results.items():
        for label, values, higher_better, _notes in rows_for(results):
            row = [f"{events:,}", label] + [fmt_value(values.get(k)) for k in kinds]
            for p in peers if "jadwal" in kinds else []:
                j, v = values.get("jadwal"), values.get(p)
                if j and v:
                    ratio = (j / v) if higher_better else (v / j)
                    row.append(f"{ratio:.1f}x")
                else:
                    row.append("-")
            rows.append(row)
        ref = (references or {}).get(events)
        counts = ["", f"objects in the week{f' (reference {len(ref)})' if ref is not None else ''} / in sync delta"] + [
            f"{results[k].query_hits if results[k].query_hits is not None else '-'} / "
            f"{results[k].sync_hits if results[k].sync_hits is not None else '-'}" for k in kinds] + [""] * len(ratio_cols)
        samples = ["", "samples (query/sync/propfind)"] + [
            f"{len(results[k].query)}/{len(results[k].sync)}/{len(results[k].propfind)}" for k in kinds] + [""] * len(ratio_cols)
        rows += [counts, samples]
    if markdown:
        out = ["| " + " | ".join(header) + " |", "|" + "|".join("---:" if i > 1 else "---" for i in range(len(header))) + "|"]
        out += ["| " + " | ".join(r) + " |" for r in rows]
    else:
        widths = [max(len(x) for x in col) for col in zip(header, *rows)]
        line = lambda r: "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
        out = [line(header), "  ".join("-" * w for w in widths)] + [line(r) for r in rows]
    notes = []
    for events, results in all_results.items():
        for k in kinds:
            for key, message in results[k].errors.items():
                notes.append(f"{k} @ {events:,}: {key}: {message}")
            if results[k].put_failures:
                notes.append(f"{k} @ {events:,}: {results[k].put_failures} PUTs failed")
            if 0 < results[k].put_count < events:
                notes.append(f"{k} @ {events:,}: PUT/s measured over the first {results[k].put_count} events "
                             f"(--put-budget); the rest was written into its storage directly")
        hits = {k: results[k].query_hits for k in kinds if results[k].query_hits is not None}
        reference = (references or {}).get(events)
        if reference is not None:
            for k in kinds:
                if results[k].query_hits is None:
                    continue
                extra = sorted(results[k].query_names - reference)
                missing = sorted(reference - results[k].query_names)
                if extra or missing or results[k].query_hits != len(reference):
                    notes.append(f"{k} @ {events:,}: the week query returned {results[k].query_hits} objects, the "
                                 f"reference (recurring-ical-events) {len(reference)}; extra {extra[:5]}, "
                                 f"missing {missing[:5]}")
        elif len(set(hits.values())) > 1:
            notes.append(f"@ {events:,}: the week query returned different object counts: {hits}")
        sync_hits = {k: results[k].sync_hits for k in kinds if results[k].sync_hits is not None}
        if any(v != 10 for v in sync_hits.values()):
            notes.append(f"@ {events:,}: sync-collection after 10 changes returned {sync_hits} (want 10)")
    if notes:
        out.append("")
        out += [("- " if markdown else "note: ") + n for n in notes]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jadwal-binary", help="path to the jadwal binary (a release build for real figures)")
    parser.add_argument("--servers", default="jadwal,radicale,xandikos")
    parser.add_argument("--events", default="5000,20000", help="events per calendar, comma-separated")
    parser.add_argument("--quick", action="store_true", help="smoke run: 500 events, 20 reps, 3 s budget")
    parser.add_argument("--clients", type=int, default=8, help="concurrent PUT clients (8)")
    parser.add_argument("--put-budget", type=float, default=180.0,
                        help="seconds of PUTs per peer (180); the rest of its data is written into its storage "
                             "directly. Jadwal always takes every PUT. 0: no limit")
    parser.add_argument("--reps", type=int, default=200, help="samples per latency (200)")
    parser.add_argument("--budget", type=float, default=20.0, help="seconds per latency metric at most (20)")
    parser.add_argument("--seed", type=int, default=4791)
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown (for the README)")
    parser.add_argument("--json", metavar="FILE", help="also write the raw results as JSON")
    args = parser.parse_args(argv)
    if args.quick:
        args.events, args.reps, args.budget = "500", min(args.reps, 20), min(args.budget, 3.0)
    kinds = [k.strip() for k in args.servers.split(",") if k.strip()]
    for kind in kinds:
        if kind not in servers.KINDS:
            parser.error(f"unknown server {kind!r}")
    if "jadwal" in kinds and not args.jadwal_binary:
        parser.error("--jadwal-binary PATH is needed (or leave jadwal out of --servers)")
    sizes = [int(x.replace("_", "")) for x in args.events.split(",") if x.strip()]

    all_results: dict[int, dict[str, Result]] = {}
    references: dict[int, set[str] | None] = {}
    started = time.monotonic()
    for size in sizes:
        items = generate(size, args.seed)
        print(f"== {size:,} events ({sum(len(t) for _, t in items) / 1e6:.1f} MB of iCalendar)", file=sys.stderr, flush=True)
        references[size] = reference_week(items)
        if references[size] is not None:
            print(f"  reference: {len(references[size])} objects in the week {WEEK_START:%Y-%m-%d}..{WEEK_END:%Y-%m-%d}",
                  file=sys.stderr, flush=True)
        all_results[size] = {kind: run_one(kind, items, args) for kind in kinds}
        if len(sizes) > 1 and size != sizes[-1]:  # a partial table, in case a later size is cut short
            print(render({size: all_results[size]}, kinds, False, references) + "\n", file=sys.stderr, flush=True)
    table = render(all_results, kinds, args.markdown, references)
    print(f"\nCalDAV benchmark, {', '.join(kinds)}; {time.monotonic() - started:.0f} s"
          f"{' (quick)' if args.quick else ''}; ratio = how many times better Jadwal is "
          f"(peer/jadwal for times and memory, jadwal/peer for PUT/s)\n")
    print(table)
    if args.json:
        Path(args.json).write_text(json.dumps({str(s): {k: {**r.__dict__, "query_names": sorted(r.query_names)}
                                                        for k, r in res.items()}
                                               for s, res in all_results.items()}, indent=1))
    failed_setup = any(("start" in r.errors or "setup" in r.errors) for res in all_results.values() for r in res.values())
    return 1 if failed_setup else 0


if __name__ == "__main__":
    sys.exit(main())
