#!/usr/bin/env python3
"""One repeating event with N RECURRENCE-ID overrides: how each operation scales with N (issue 22).

  Benchmarks/overrides/bench.py --jadwal-binary /var/tmp/overrides-bin/jadwal \
      [--sizes 250,500,1000,2000,4000] [--reps 3] [--variants plain,thisandfuture]

A `jadwal serve` on a fresh SQLite data folder (Benchmarks/jadwal_server.py), one person in
Asia/Riyadh praying in Riyadh, and one background event in the calendar: a daily 10:30-11:00
series over the 150 days around T0 (next Monday), so each moved instance of the big object
overlaps it and the conflict check records real conflicts (a fixed number, whatever N is).

For every N the big object is ONE VCALENDAR: a master VEVENT (DTSTART;TZID=Asia/Riyadh 09:00,
one hour, RRULE:FREQ=DAILY, no end) starting N/2 days before T0, and N overriding VEVENTs with
the same UID, one for each of its first N days: RECURRENCE-ID at 09:00, moved to 10:00-11:00 and
retitled. So the month queried, [T0, T0+30 days), always holds 30 overridden instances, and N/2
overridden instances lie before it and N/2 after it. Variant `thisandfuture`: every 4th
override also carries RANGE=THISANDFUTURE (moving that instance and all later ones an hour).

Each repetition uses its own UID and object name, and the object is deleted (and the queue
drained) before the next one, so every repetition runs against the background event plus one
big object. One repetition times, in order:

  put        CalDAV PUT creating the object (If-None-Match: *)
  e2e_put    from the start of that PUT until the job queue has drained (jadwal_jobs_due == 0
             in /metrics: the conflict check and the reminder scheduling it queued have run)
  edit       a second PUT replacing it (every override retitled)
  e2e_edit   from the start of the edit until the queue has drained again
  query      REPORT calendar-query over the calendar, VEVENT time-range = the month, with
             calendar-data (the first one after the edit: parsing/indexing included)
  query2     the same REPORT again (warm)
  expand     the same REPORT with <C:calendar-data><C:expand .../>
  far        the REPORT (no expand) for a month three years ahead: outside the +-2 years each
             object's instance index covers, so the filter is evaluated on the parsed object
  miss       the same for a month twelve years back, before the series starts (no match; the
             stored first_start/last_end bounds answer it without parsing the object)
  get        GET of the object
  conflicts  GET /api/v1/conflicts
  events     GET /api/v1/events?start=..&end=.. for the month (the integrated view: every
             calendar's instances, recurrences expanded; the API has no per-calendar listing)
  delete     DELETE of the object (not drained: the next repetition waits for the queue first)

The table gives each column's median over --reps repetitions, then for every size the ratio
t(N)/t(previous N) (with doubling sizes ~2 is linear, ~4 quadratic) and the server's VmRSS and
VmHWM (/proc/PID/status) after the size. Results are sanity-checked (the month must hold 30
moved instances carrying the override titles) and the script says when they are not.
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import json
import math
import re
import statistics
import sys
import time
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from jadwal_server import Connection, JadwalServer  # noqa: E402

RIYADH = ZoneInfo("Asia/Riyadh")
ICS = "text/calendar; charset=utf-8"
XML = "application/xml; charset=utf-8"
DRAIN_LIMIT_S = 600.0          # a drain longer than this is reported as a timeout
COLUMNS = ["put", "e2e_put", "edit", "e2e_edit", "query", "query2", "expand", "far", "miss", "get", "conflicts", "events", "delete"]

VTIMEZONE = [
    "BEGIN:VTIMEZONE", "TZID:Asia/Riyadh", "BEGIN:STANDARD", "DTSTART:19700101T000000",
    "TZOFFSETFROM:+0300", "TZOFFSETTO:+0300", "TZNAME:+03", "END:STANDARD", "END:VTIMEZONE",
]


def stamp(value: dt.datetime) -> str:
    return value.strftime("%Y%m%dT%H%M%S")


def big_object(uid: str, first_day: dt.date, n: int, variant: str, label: str) -> str:
    """A daily 09:00 master from first_day and n overrides of its first n instances, each moved to 10:00."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Bench//overrides//EN", *VTIMEZONE,
             "BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20261201T000000Z",
             f"DTSTART;TZID=Asia/Riyadh:{stamp(dt.datetime.combine(first_day, dt.time(9)))}",
             f"DTEND;TZID=Asia/Riyadh:{stamp(dt.datetime.combine(first_day, dt.time(10)))}",
             f"SUMMARY:Daily {label}", "RRULE:FREQ=DAILY", "END:VEVENT"]
    for k in range(n):
        day = first_day + dt.timedelta(days=k)
        rid = stamp(dt.datetime.combine(day, dt.time(9)))
        # Every 4th one (not the first) moves this instance and the later ones, in that variant.
        rng = ";RANGE=THISANDFUTURE" if variant == "thisandfuture" and k % 4 == 3 else ""
        lines += ["BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20261201T000000Z",
                  f"RECURRENCE-ID;TZID=Asia/Riyadh{rng}:{rid}",
                  f"DTSTART;TZID=Asia/Riyadh:{stamp(dt.datetime.combine(day, dt.time(10)))}",
                  f"DTEND;TZID=Asia/Riyadh:{stamp(dt.datetime.combine(day, dt.time(11)))}",
                  f"SUMMARY:{label} {k}", "END:VEVENT"]
    return "\r\n".join(lines + ["END:VCALENDAR"]) + "\r\n"


def background_object(first_day: dt.date) -> str:
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Bench//overrides//EN", *VTIMEZONE,
             "BEGIN:VEVENT", "UID:overrides-background", "DTSTAMP:20261201T000000Z",
             f"DTSTART;TZID=Asia/Riyadh:{stamp(dt.datetime.combine(first_day, dt.time(10, 30)))}",
             f"DTEND;TZID=Asia/Riyadh:{stamp(dt.datetime.combine(first_day, dt.time(11)))}",
             "SUMMARY:Background", "RRULE:FREQ=DAILY;COUNT=150", "END:VEVENT", "END:VCALENDAR"]
    return "\r\n".join(lines) + "\r\n"


def query_body(start: str, end: str, expand: bool) -> str:
    data = f'<C:calendar-data><C:expand start="{start}" end="{end}"/></C:calendar-data>' if expand else "<C:calendar-data/>"
    return ('<?xml version="1.0" encoding="utf-8"?>'
            '<C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
            f"<D:prop><D:getetag/>{data}</D:prop>"
            '<C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT">'
            f'<C:time-range start="{start}" end="{end}"/>'
            "</C:comp-filter></C:comp-filter></C:filter></C:calendar-query>")


def send(connection: Connection, method: str, path: str, body: str | None = None, content_type: str | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """Connection.send with extra headers (Depth, If-None-Match)."""
    all_headers = {"Authorization": connection.auth} if connection.auth else {}
    if content_type:
        all_headers["Content-Type"] = content_type
    all_headers.update(headers or {})
    connection.http.request(method, path, body=body.encode() if body is not None else None, headers=all_headers)
    response = connection.http.getresponse()
    return response.status, response.read()


class Failure(Exception):
    pass


def vm(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of the server in KiB."""
    text = Path(f"/proc/{pid}/status").read_text()
    return (int(re.search(r"^VmRSS:\s+(\d+)", text, re.M).group(1)), int(re.search(r"^VmHWM:\s+(\d+)", text, re.M).group(1)))


class Bench:
    def __init__(self, server: JadwalServer, variant: str, skip_reports: bool = False):
        self.server = server
        self.skip_reports = skip_reports
        self.variant = variant
        self.dav = Connection(server.port, server.basic)
        self.home = server.home + "personal/"
        self.token_time = time.monotonic()
        today = dt.date.today()
        self.t0 = today + dt.timedelta(days=7 - today.weekday())          # next Monday
        start = dt.datetime.combine(self.t0, dt.time(0), RIYADH).astimezone(dt.timezone.utc)
        end = start + dt.timedelta(days=30)
        self.range_utc = (start.strftime("%Y%m%dT%H%M%SZ"), end.strftime("%Y%m%dT%H%M%SZ"))
        self.range_iso = (start.strftime("%Y-%m-%dT%H:%M:%SZ"), end.strftime("%Y-%m-%dT%H:%M:%SZ"))
        self.notes: list[str] = []
        # Months outside the two years either side of today that the per-object instance index
        # covers, so the filter is evaluated on the parsed object: `far` three years ahead (the
        # master has instances there), `miss` twelve years back (before any instance: no match).
        def month(first: dt.datetime) -> tuple[str, str]:
            return (first.strftime("%Y%m%dT%H%M%SZ"), (first + dt.timedelta(days=30)).strftime("%Y%m%dT%H%M%SZ"))
        self.far_ranges = (month(start + dt.timedelta(days=3 * 365)), month(start - dt.timedelta(days=12 * 365)))

    # -- helpers ------------------------------------------------------------------------------
    def api(self) -> Connection:
        if time.monotonic() - self.token_time > 120:       # access tokens last 5 minutes
            self.server.refresh()
            self.token_time = time.monotonic()
        return self.server.api

    def jobs_due(self) -> float:
        try:
            status, body = self.api().send("GET", "/metrics")
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            self.api().http.close()                         # an idle keep-alive connection the server closed
            status, body = self.api().send("GET", "/metrics")
        found = re.search(r"^jadwal_jobs_due ([0-9.e+]+)", body.decode(), re.M)
        if status != 200 or not found:
            raise Failure(f"/metrics: {status} {body[:200]!r}")
        return float(found.group(1))

    def drain(self, began: float) -> float:
        """Seconds from `began` until no job is due or running."""
        while self.jobs_due() > 0:
            if time.perf_counter() - began > DRAIN_LIMIT_S:
                raise Failure(f"the job queue did not drain within {DRAIN_LIMIT_S:.0f} s")
            time.sleep(0.02)
        return time.perf_counter() - began

    def timed(self, connection: Connection, method: str, path: str, body: str | None = None, content_type: str | None = None,
              headers: dict[str, str] | None = None, expect: tuple[int, ...] = (200,)) -> tuple[float, bytes]:
        began = time.perf_counter()
        try:
            status, answer = send(connection, method, path, body, content_type, headers)
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # The server closes a keep-alive connection left idle (the API one, while a slow
            # REPORT runs): open it again and time the request on the new one.
            connection.http.close()
            began = time.perf_counter()
            try:
                status, answer = send(connection, method, path, body, content_type, headers)
            except OSError as error:
                connection.http.close()
                raise Failure(f"{method} {path}: {type(error).__name__} after {time.perf_counter() - began:.1f} s (on a new connection)")
        except OSError as error:                            # a timeout (120 s) or a dropped connection
            connection.http.close()
            raise Failure(f"{method} {path}: {type(error).__name__} after {time.perf_counter() - began:.1f} s")
        seconds = time.perf_counter() - began
        if status not in expect:
            raise Failure(f"{method} {path}: {status} {answer[:300]!r}")
        return seconds, answer

    # -- the run ------------------------------------------------------------------------------
    def setup(self) -> None:
        status, body = self.api().send("PUT", "/api/v1/prayer-settings", json.dumps({"city": "Riyadh"}))
        if status != 200:
            raise Failure(f"prayer settings: {status} {body[:200]!r}")
        self.timed(self.dav, "PUT", self.home + "background.ics", background_object(self.t0 - dt.timedelta(days=30)), ICS,
                   expect=(201, 204))
        self.drain(time.perf_counter())

    def repetition(self, n: int, rep: int) -> dict[str, float]:
        uid = f"overrides-{self.variant}-{n}-{rep}"
        path = self.home + uid + ".ics"
        first_day = self.t0 - dt.timedelta(days=n // 2)
        created = big_object(uid, first_day, n, self.variant, "Moved")
        edited = big_object(uid, first_day, n, self.variant, "Edited")
        if len(edited.encode()) > 1 << 20:
            raise Failure(f"N={n}: the object is {len(edited.encode())} bytes, over the server's 1 MiB object limit")
        t: dict[str, float] = {}
        began = time.perf_counter()
        t["put"], _ = self.timed(self.dav, "PUT", path, created, ICS, {"If-None-Match": "*"}, expect=(201,))
        t["e2e_put"] = self.drain(began)
        began = time.perf_counter()
        t["edit"], _ = self.timed(self.dav, "PUT", path, edited, ICS, expect=(204, 200))
        t["e2e_edit"] = self.drain(began)

        start, end = self.range_utc
        plain = expanded = b""
        if not self.skip_reports:
            t["query"], plain = self.timed(self.dav, "REPORT", self.home, query_body(start, end, False), XML, {"Depth": "1"}, expect=(207,))
            t["query2"], _ = self.timed(self.dav, "REPORT", self.home, query_body(start, end, False), XML, {"Depth": "1"}, expect=(207,))
            t["expand"], expanded = self.timed(self.dav, "REPORT", self.home, query_body(start, end, True), XML, {"Depth": "1"}, expect=(207,))
            far, miss = self.far_ranges
            t["far"], far_answer = self.timed(self.dav, "REPORT", self.home, query_body(*far, False), XML, {"Depth": "1"}, expect=(207,))
            t["miss"], miss_answer = self.timed(self.dav, "REPORT", self.home, query_body(*miss, False), XML, {"Depth": "1"}, expect=(207,))
        if not self.skip_reports and rep == 0 and (uid.encode() not in far_answer or uid.encode() in miss_answer):
            self.notes.append(f"N={n}: the far query should find the object and the miss query should not; "
                              f"far found it: {uid.encode() in far_answer}, miss found it: {uid.encode() in miss_answer}")
        t["get"], got = self.timed(self.dav, "GET", path)
        t["conflicts"], conflicts = self.timed(self.api(), "GET", "/api/v1/conflicts")
        s, e = self.range_iso
        t["events"], events = self.timed(self.api(), "GET", f"/api/v1/events?start={s}&end={e}")
        t["delete"], _ = self.timed(self.dav, "DELETE", path, expect=(204, 200))
        self.drain(time.perf_counter())                     # not timed: the next repetition starts from an empty queue
        if rep == 0:
            self.check(n, plain, expanded, got, conflicts, events, len(edited.encode()))
        return t

    def check(self, n: int, plain: bytes, expanded: bytes, got: bytes, conflicts: bytes, events: bytes, size: int) -> None:
        """Sanity of the answers (first repetition of each size); anything odd becomes a note."""
        month_days = {self.t0 + dt.timedelta(days=d) for d in range(30)}
        first_day = self.t0 - dt.timedelta(days=n // 2)
        in_month = sorted(k for k in range(n) if first_day + dt.timedelta(days=k) in month_days)
        text = expanded.decode("utf-8", "replace")
        moved = len(re.findall(r"SUMMARY:Edited \d+", text))
        got_overrides = got.decode("utf-8", "replace").count("RECURRENCE-ID")
        plain_overrides = plain.decode("utf-8", "replace").count("RECURRENCE-ID")
        listed = json.loads(events)
        items = listed.get("events", listed if isinstance(listed, list) else [])
        titled = sum(1 for item in items if str(item.get("summary", item.get("title", ""))).startswith("Edited "))
        open_conflicts = len(json.loads(conflicts).get("conflicts", []))
        reports = "REPORTs skipped" if self.skip_reports else (f"expand answered {moved} 'Edited' instances; "
                                                               f"query carried {plain_overrides} RECURRENCE-IDs")
        if self.skip_reports:
            moved = len(in_month)                               # not asked
        line = (f"N={n}: {size / 1024:.0f} KiB object; month holds {len(in_month)} overridden days; {reports}, GET {got_overrides}; "
                f"/api/v1/events listed {titled} 'Edited' instances of {len(items)}; {open_conflicts} open conflicts")
        print("  " + line, flush=True)
        if self.variant == "plain" and (moved != len(in_month) or titled != len(in_month) or got_overrides != n):
            self.notes.append("MISMATCH " + line)


def fmt(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1000:.0f}" if seconds >= 0.01 else f"{seconds * 1000:.1f}"


def report(label: str, sizes: list[int], medians: dict[int, dict[str, float]], memory: dict[int, tuple[int, int]]) -> None:
    print(f"\n### {label}: median ms over the repetitions\n")
    head = ["N"] + COLUMNS + ["RSS MiB", "HWM MiB"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for n in sizes:
        if n not in medians:
            continue
        rss, hwm = memory.get(n, (0, 0))
        print("| " + " | ".join([str(n)] + [fmt(medians[n].get(c)) for c in COLUMNS] + [f"{rss / 1024:.0f}", f"{hwm / 1024:.0f}"]) + " |")
    print(f"\n### {label}: ratio t(N)/t(previous N)  (doubling N: ~2 linear, ~4 quadratic)\n")
    print("| N | " + " | ".join(COLUMNS) + " |")
    print("|" + "---|" * (len(COLUMNS) + 1))
    done = [n for n in sizes if n in medians]
    for previous, n in zip(done, done[1:]):
        cells = []
        for c in COLUMNS:
            a, b = medians[previous].get(c), medians[n].get(c)
            cells.append(f"{b / a:.2f}" if a and b else "-")
        print(f"| {previous}→{n} | " + " | ".join(cells) + " |")
    if len(done) >= 2:
        lo, hi = done[0], done[-1]
        cells = []
        for c in COLUMNS:
            a, b = medians[lo].get(c), medians[hi].get(c)
            cells.append(f"{math.log(b / a) / math.log(hi / lo):.2f}" if a and b else "-")
        print(f"| exponent {lo}→{hi} | " + " | ".join(cells) + " |")
    sys.stdout.flush()


def run_variant(binary: str, variant: str, sizes: list[int], reps: int, budget_end: float, skip_reports: bool = False) -> None:
    print(f"\n== {binary}, variant {variant}, sizes {sizes}, {reps} repetitions ==", flush=True)
    medians: dict[int, dict[str, float]] = {}
    memory: dict[int, tuple[int, int]] = {}
    with JadwalServer(binary) as server:
        bench = Bench(server, variant, skip_reports)
        bench.setup()
        print(f"  T0 {bench.t0}, month {bench.range_iso[0]} .. {bench.range_iso[1]}, server pid {server.process.pid}, "
              f"RSS at start {vm(server.process.pid)[0] / 1024:.0f} MiB", flush=True)
        for n in sizes:
            if time.monotonic() > budget_end:
                bench.notes.append(f"stopped before N={n}: --budget reached")
                break
            samples: list[dict[str, float]] = []
            try:
                for rep in range(reps):
                    began = time.perf_counter()
                    samples.append(bench.repetition(n, rep))
                    print(f"  N={n} rep {rep}: " + " ".join(f"{c}={fmt(samples[-1].get(c))}" for c in COLUMNS)
                          + f" ({time.perf_counter() - began:.1f} s)", flush=True)
            except Failure as failure:
                bench.notes.append(f"N={n}: FAILED: {failure}")
                print(f"  N={n}: FAILED: {failure}", flush=True)
                if server.process.poll() is not None:
                    bench.notes.append(f"the server exited with {server.process.returncode}")
                    break
                bench.dav = Connection(server.port, server.basic)
            if samples:
                medians[n] = {c: statistics.median(s[c] for s in samples) for c in COLUMNS if c in samples[0]}
                memory[n] = vm(server.process.pid)
        log_tail = [line for line in server.log_path.read_text().splitlines() if re.search(r"error|warning|critical", line, re.I)]
    report(f"{Path(binary).name} ({binary}), variant {variant}", sizes, medians, memory)
    for note in bench.notes:
        print("NOTE: " + note)
    if log_tail:
        print(f"server log: {len(log_tail)} warning/error lines, last ones:")
        for line in log_tail[-5:]:
            print("  " + line[:300])
    sys.stdout.flush()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jadwal-binary", required=True, action="append", help="may be given twice (debug and release)")
    parser.add_argument("--sizes", default="250,500,1000,2000,4000")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--variants", default="plain,thisandfuture", help="plain and/or thisandfuture")
    parser.add_argument("--skip-reports", action="store_true",
                        help="leave out the five REPORT columns (a cold one can take minutes at large N in a debug build)")
    parser.add_argument("--budget", type=float, default=3600, help="seconds; no new size starts after this")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    budget_end = time.monotonic() + args.budget
    for binary in args.jadwal_binary:
        for variant in args.variants.split(","):
            run_variant(binary, variant, sizes, args.reps, budget_end, args.skip_reports)
    return 0


if __name__ == "__main__":
    sys.exit(main())
