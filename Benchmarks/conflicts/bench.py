#!/usr/bin/env python3
"""Conflicts through the server: a month of 1,000 events (100 repeating) plus prayer blocks.

  swift build -c release --product jadwal --scratch-path /var/tmp/jadwal-build
  Benchmarks/conflicts/bench.py --jadwal-binary /var/tmp/jadwal-build/release/jadwal [--reps 200]

A release `jadwal serve` on its SQLite default, one person in Asia/Riyadh praying in Riyadh. The
month starting next Monday gets 900 single events and 100 weekly series (07:00–22:00, 30 to 120
minutes, so many overlap) over CalDAV PUT from 4 clients; every PUT queues a conflict check, run
by the server's job workers. Then one more event is put over a busy evening, and the script times:

  checks      from the first PUT until every conflict check has run (jobs drained): the cost of
              detection on every write, for 1,001 writes
  suggest     GET /api/v1/conflicts/{id}/suggestions?count=5: busy time read from the database
              (the person's calendars, recurrences expanded, prayer blocks) and five free slots
  list        GET /api/v1/conflicts: every open conflict with its day's timeline (megabytes: each
              conflict carries its whole day); also timed to the answer's headers, which the
              server sends once it has written the whole answer

Latencies are from --reps requests on one keep-alive connection after 10 warm-ups: p50 and p95.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from jadwal_server import Connection, JadwalServer  # noqa: E402


def event(uid: str, start: dt.datetime, minutes: int, summary: str, rrule: str | None) -> str:
    end = start + dt.timedelta(minutes=minutes)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Bench//EN", "BEGIN:VEVENT", f"UID:{uid}",
             "DTSTAMP:20261101T000000Z", f"DTSTART;TZID=Asia/Riyadh:{start:%Y%m%dT%H%M%S}",
             f"DTEND;TZID=Asia/Riyadh:{end:%Y%m%dT%H%M%S}", f"SUMMARY:{summary}"]
    if rrule:
        lines.append(f"RRULE:{rrule}")
    return "\r\n".join(lines + ["END:VEVENT", "END:VCALENDAR"]) + "\r\n"


def month_of_events(first_day: dt.date, seed: int = 7) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    items = []
    for i in range(1000):
        day = first_day + dt.timedelta(days=rng.randrange(0, 30 if i >= 100 else 7))
        start = dt.datetime.combine(day, dt.time(rng.randrange(7, 21), rng.choice((0, 15, 30, 45))))
        rule = "FREQ=WEEKLY;COUNT=5" if i < 100 else None
        items.append((f"e{i:04d}.ics", event(f"bench-{i}", start, rng.choice((30, 45, 60, 90, 120)), f"Event {i}", rule)))
    return items


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(p * (len(ordered) - 1))))]


def timed(connection: Connection, path: str, reps: int, first_bytes: list[float] | None = None) -> list[float]:
    """Milliseconds from sending each request to having read its whole answer; into
    `first_bytes`, to having its status line and headers (the server writes a JSON answer whole
    before sending any of it, so that is the server's time plus one loopback round trip)."""
    for _ in range(10):
        connection.send("GET", path)
    samples = []
    for _ in range(reps):
        begin = time.perf_counter()
        connection.http.request("GET", path, headers={"Authorization": connection.auth})
        response = connection.http.getresponse()
        headed = time.perf_counter()
        body = response.read()
        samples.append((time.perf_counter() - begin) * 1000)
        if first_bytes is not None:
            first_bytes.append((headed - begin) * 1000)
        if response.status != 200:
            sys.exit(f"GET {path}: {response.status} {body[:300]!r}")
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jadwal-binary", required=True)
    parser.add_argument("--reps", type=int, default=200)
    args = parser.parse_args()
    with JadwalServer(args.jadwal_binary) as server:
        return measure(server, args.reps)


def measure(server: JadwalServer, reps: int) -> int:
    api, port = server.api, server.port
    status, body = api.send("PUT", "/api/v1/prayer-settings", json.dumps({"city": "Riyadh"}))
    if status != 200:
        sys.exit(f"prayer settings: {status} {body!r}")
    home = server.home + "personal/"
    basic = server.basic

    today = dt.date.today()
    first_day = today + dt.timedelta(days=7 - today.weekday())
    items = month_of_events(first_day)
    began = time.perf_counter()
    queue = list(items)
    lock = threading.Lock()

    def writer() -> None:
        connection = Connection(port, basic)
        while True:
            with lock:
                if not queue:
                    return
                name, text = queue.pop()
            status, body = connection.send("PUT", home + name, text, "text/calendar; charset=utf-8")
            if status not in (201, 204):
                sys.exit(f"PUT {name}: {status} {body[:200]!r}")

    threads = [threading.Thread(target=writer) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    put_seconds = time.perf_counter() - began
    evening = dt.datetime.combine(first_day + dt.timedelta(days=2), dt.time(19, 0))
    status, _ = Connection(port, basic).send("PUT", home + "probe.ics", event("probe", evening, 60, "Dinner with Sara", None),
                                            "text/calendar; charset=utf-8")
    # Every write queued a check; wait until the workers have run them all.
    server.wait_for_jobs()
    checks_seconds = time.perf_counter() - began
    api = server.api

    status, body = api.send("GET", "/api/v1/conflicts")
    conflicts = json.loads(body)["conflicts"]
    probe = next((c for c in conflicts if c["event"]["name"] == "probe.ics"), None)
    if probe is None:
        sys.exit("the probe event ran into nothing: the data set is too sparse")
    suggest = timed(api, f"/api/v1/conflicts/{probe['id']}/suggestions?count=5", reps)
    listing_headed: list[float] = []
    listing = timed(api, "/api/v1/conflicts", max(20, reps // 10), listing_headed)
    print(f"data: 1,000 events (100 weekly series of 5) from {first_day}, prayer blocks for Riyadh; {len(conflicts)} open conflicts")
    print(f"PUT 1,001 events over CalDAV (4 clients): {put_seconds:.2f} s; every conflict check run: {checks_seconds:.2f} s after the first PUT")
    print(f"suggestions (5 slots):   p50 {statistics.median(suggest):.2f} ms   p95 {percentile(suggest, 0.95):.2f} ms   ({len(suggest)} requests)")
    days = {c["day"]["date"]: len(c["day"]["blocks"]) for c in conflicts if c.get("day")}
    print(f"  (the list is {len(body) / 1e6:.1f} MB: each conflict carries its day's timeline; {len(days)} days, "
          f"{statistics.median(days.values()) if days else 0:.0f} blocks a day at the median)")
    print(f"conflict list ({len(conflicts)}):   p50 {statistics.median(listing):.2f} ms   p95 {percentile(listing, 0.95):.2f} ms   ({len(listing)} requests)")
    print(f"  of which the server (until its headers arrive):   p50 {statistics.median(listing_headed):.2f} ms   "
          f"p95 {percentile(listing_headed, 0.95):.2f} ms; the rest is the client reading the answer")
    return 0


if __name__ == "__main__":
    sys.exit(main())
