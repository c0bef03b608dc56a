#!/usr/bin/env python3
"""Bulk writes end to end: N events PUT over CalDAV, then every conflict check they queued.

  swift build -c release --product jadwal --scratch-path /var/tmp/jadwal-build
  Benchmarks/bulk-writes/bench.py --jadwal-binary /var/tmp/jadwal-build/release/jadwal [--counts 5000,20000] [--runs 3]
      [--database-url postgres://jadwal:jadwal@127.0.0.1:PORT/jadwal]

A release `jadwal serve` with its default workers, on SQLite in a fresh data folder, or on
PostgreSQL with --database-url (a role that may CREATE DATABASE: each run gets an empty database
of its own, dropped afterwards). One person in Asia/Riyadh praying in Riyadh. The events are a
phone's first sync of an existing calendar: 60-minute events between 08:00 and 18:00 spread over
the last 180 days and the next 90 (a third of them ahead, where checks look), one in ten a weekly
series of 10; so many overlap one another and the prayers. --connections clients PUT them.

  PUT         from the first PUT to the last answer: the rate a client sees
  drain       from the last answer until no job is due or running (`jadwal_jobs_due` on /metrics,
              read fresh from the database): the conflict checks the PUTs queued, and what they queue
  end to end  N divided by PUT plus drain: events written and checked per second

Each line is one run; with --runs above 1 the medians follow.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from jadwal_server import Connection, JadwalServer  # noqa: E402

VTIMEZONE = ("BEGIN:VTIMEZONE\r\nTZID:Asia/Riyadh\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:+0300\r\n"
             "TZOFFSETTO:+0300\r\nTZNAME:+03\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n")


def events(count: int, seed: int = 28) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    today = dt.date.today()
    items = []
    for i in range(count):
        day = today + dt.timedelta(days=rng.randrange(-180, 90))
        start = dt.datetime.combine(day, dt.time(rng.randrange(8, 18), rng.choice((0, 30))))
        rule = "RRULE:FREQ=WEEKLY;COUNT=10\r\n" if i % 10 == 0 else ""
        body = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Jadwal bench//EN\r\n" + VTIMEZONE
                + f"BEGIN:VEVENT\r\nUID:bulk-{i}@bench\r\nDTSTAMP:20260101T000000Z\r\n"
                + f"DTSTART;TZID=Asia/Riyadh:{start:%Y%m%dT%H%M%S}\r\nDURATION:PT1H\r\nSUMMARY:Meeting {i}\r\n"
                + rule + "END:VEVENT\r\nEND:VCALENDAR\r\n")
        items.append((f"bulk-{i}.ics", body))
    return items


class Database:
    """An empty PostgreSQL database for one run, made through the given URL's server."""

    def __init__(self, url: str):
        self.admin = url
        self.name = "jadwal_bulk_" + uuid.uuid4().hex[:12]
        parts = urllib.parse.urlsplit(url)
        self.url = urllib.parse.urlunsplit(parts._replace(path="/" + self.name))

    def psql(self, sql: str) -> None:
        done = subprocess.run(["psql", self.admin, "-q", "-c", sql], capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"psql: {done.stderr}")

    def __enter__(self) -> str:
        self.psql(f"CREATE DATABASE {self.name}")
        return self.url

    def __exit__(self, *exc) -> None:
        self.psql(f"DROP DATABASE IF EXISTS {self.name}")


def jobs_due(server: JadwalServer) -> float:
    """`jadwal_jobs_due`, with a fresh access token when the old one has run out (5 minutes)."""
    try:
        return server.jobs_pending()
    except (SystemExit, json.JSONDecodeError, OSError):
        server.refresh()
        return server.jobs_pending()


def put_with_wrk(server: JadwalServer, queue: list[tuple[str, str]], connections: int) -> float:
    """PUTs every event with wrk (put.lua), 2 threads: seconds from start to the last answer."""
    with tempfile.TemporaryDirectory(prefix="jadwal-wrk-") as folder:
        events_file = Path(folder) / "events.tsv"
        events_file.write_text("".join(f"{name}\t{text.replace(chr(13) + chr(10), chr(92) + 'r' + chr(92) + 'n')}\n" for name, text in queue))
        prefix = str(Path(folder) / "done-")
        threads = min(2, connections)
        command = ["wrk", "-t", str(threads), "-c", str(connections), "-d", "3600s", "--timeout", "120s",
                   "-s", str(Path(__file__).with_name("put.lua")), f"http://127.0.0.1:{server.port}",
                   "--", str(events_file), str(threads), server.home + "personal/", prefix, server.basic]
        began = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            while sum(Path(prefix + str(thread)).exists() for thread in range(threads)) < threads:
                if process.poll() is not None:
                    sys.exit(f"wrk ended early: {process.stderr.read().decode()}")
                if Path(prefix + "failed").exists():
                    sys.exit(f"PUT failed: {Path(prefix + 'failed').read_text()[:500]}")
                time.sleep(0.005)
            seconds = time.perf_counter() - began
        finally:
            process.terminate()
            process.wait()
        if Path(prefix + "failed").exists():
            sys.exit(f"PUT failed: {Path(prefix + 'failed').read_text()[:500]}")
        return seconds


def one_run(binary: str, count: int, connections: int, database_url: str | None, client: str = "python") -> tuple[float, float, float]:
    with JadwalServer(binary, database_url=database_url) as server:
        status, body = server.api.send("PUT", "/api/v1/prayer-settings", json.dumps({"city": "Riyadh"}))
        if status != 200:
            sys.exit(f"prayer settings: {status} {body!r}")
        home = server.home + "personal/"
        queue = events(count)
        if client == "wrk":
            put_seconds = put_with_wrk(server, queue, connections)
            began = time.perf_counter() - put_seconds
            server.refresh()
            while jobs_due(server) > 0:
                time.sleep(0.05)
            drain_seconds = time.perf_counter() - began - put_seconds
            return put_seconds, drain_seconds, count / (put_seconds + drain_seconds)
        queue.reverse()
        lock = threading.Lock()
        failures: list[str] = []

        def writer() -> None:
            connection = Connection(server.port, server.basic)
            while True:
                with lock:
                    if not queue or failures:
                        return
                    name, text = queue.pop()
                status, answer = connection.send("PUT", home + name, text, "text/calendar; charset=utf-8")
                if status not in (201, 204):
                    with lock:
                        failures.append(f"PUT {name}: {status} {answer[:200]!r}")
                    return

        threads = [threading.Thread(target=writer) for _ in range(connections)]
        began = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        put_seconds = time.perf_counter() - began
        if failures:
            sys.exit(failures[0])
        server.refresh()
        while jobs_due(server) > 0:
            time.sleep(0.05)
        drain_seconds = time.perf_counter() - began - put_seconds
        return put_seconds, drain_seconds, count / (put_seconds + drain_seconds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jadwal-binary", required=True)
    parser.add_argument("--counts", default="5000,20000", help="comma-separated event counts")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--database-url", help="PostgreSQL server to make a fresh database on for each run")
    parser.add_argument("--client", choices=("python", "wrk"), default="python",
                        help="who PUTs: Python threads (one process), or wrk with 2 threads (put.lua), which costs the server's cores less")
    args = parser.parse_args()
    engine = "PostgreSQL" if args.database_url else "SQLite"
    print(f"jadwal release, {engine}, default workers, {args.connections} CalDAV connections ({args.client}) on the same machine, {dt.date.today()}")
    for count in (int(part) for part in args.counts.split(",")):
        rows = []
        for _ in range(args.runs):
            if args.database_url:
                with Database(args.database_url) as url:
                    put, drain, rate = one_run(args.jadwal_binary, count, args.connections, url, args.client)
            else:
                put, drain, rate = one_run(args.jadwal_binary, count, args.connections, None, args.client)
            rows.append((put, drain, rate))
            print(f"N={count:>6}: PUT {put:6.1f} s ({count / put:5.0f}/s)   drain {drain:6.1f} s   end to end {rate:5.0f} events/s",
                  flush=True)
        if args.runs > 1:
            put = statistics.median(r[0] for r in rows)
            drain = statistics.median(r[1] for r in rows)
            rate = statistics.median(r[2] for r in rows)
            print(f"N={count:>6} median of {args.runs}: PUT {count / put:5.0f}/s   drain {drain:6.1f} s   end to end {rate:5.0f} events/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
