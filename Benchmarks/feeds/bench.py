#!/usr/bin/env python3
"""Feeds and imports end to end: a subscribed feed's first refresh, an .ics import, and the
refreshes that follow.

  swift build -c release --product jadwal --scratch-path /var/tmp/jadwal-build
  Benchmarks/feeds/bench.py --jadwal-binary /var/tmp/jadwal-build/release/jadwal [--counts 5000,20000]
      [--database-url postgres://jadwal:jadwal@127.0.0.1:PORT/jadwal]

A release `jadwal serve --allow-private-fetch` with its default workers (SQLite in a fresh data
folder, or a fresh PostgreSQL database per run), one person in Asia/Riyadh praying in Riyadh, and a
feed host on loopback (Python's http.server, with ETag and 304). The events are those of
Benchmarks/bulk-writes (60-minute events over the last 180 days and the next 90, one in ten a
weekly series), so many overlap one another and the prayers.

  first refresh   from POST /api/v1/external-calendars until no job is due or running: the fetch,
                  the N objects written, and every conflict check they queue (events/s end to end)
  import          POST /api/v1/calendars/{id}/import of the same events as one file, until no job
                  is due or running (events/s end to end)
  unchanged 304   a refresh the feed host answers 304: server CPU (user + system, all threads)
  unchanged body  the same body again without validators (a digest comparison): server CPU
  10 changed      10 events changed in the feed: server CPU, and the objects a phone's sync reports

Each line is one run; CPU figures are medians of 5 refreshes.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import http.server
import json
import os
import re
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bulk-writes"))
from jadwal_server import Connection, JadwalServer  # noqa: E402
from bench import VTIMEZONE, Database, events, jobs_due  # noqa: E402


def feed_text(count: int, changed: int = 0) -> str:
    parts = ["BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Jadwal bench//EN\r\nX-WR-CALNAME:Bench feed\r\n", VTIMEZONE]
    for index, (_, body) in enumerate(events(count)):
        start = body.index("BEGIN:VEVENT")
        event = body[start:body.index("END:VCALENDAR")]
        if index < changed:
            event = event.replace("SUMMARY:Meeting", "SUMMARY:Moved meeting")
        parts.append(event)
    parts.append("END:VCALENDAR\r\n")
    return "".join(parts)


class FeedHost:
    """Serves one body at /feed.ics, with an ETag (or without, when `etag` is off)."""

    def __init__(self) -> None:
        self.body = b""
        self.etag = True
        host = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                tag = '"' + hashlib.sha256(host.body).hexdigest()[:16] + '"'
                if host.etag and self.headers.get("If-None-Match") == tag:
                    self.send_response(304)
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/calendar")
                self.send_header("Content-Length", str(len(host.body)))
                if host.etag:
                    self.send_header("ETag", tag)
                self.end_headers()
                self.wfile.write(host.body)

            def log_message(self, *args) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/feed.ics"


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_drained(server: JadwalServer) -> None:
    server.refresh()
    while jobs_due(server) > 0:
        time.sleep(0.02)


def refresh_cpu(server: JadwalServer, subscription: str) -> float:
    """Server CPU of one refresh, from the request to the end of the work it queued."""
    before = cpu_seconds(server.process.pid)
    status, body = server.api.send("POST", f"/api/v1/external-calendars/{subscription}/refresh")
    if status != 202:
        sys.exit(f"refresh: {status} {body!r}")
    time.sleep(0.3)  # the workers poll every 250 ms
    wait_drained(server)
    return cpu_seconds(server.process.pid) - before


def sync_changes(server: JadwalServer, calendar: str, token: str | None) -> tuple[int, str]:
    connection = Connection(server.port, server.basic)
    body = ('<?xml version="1.0"?><d:sync-collection xmlns:d="DAV:"><d:sync-token>' + (token or "")
            + "</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>")
    status, answer = connection.send("REPORT", calendar, body, "application/xml")
    text = answer.decode()
    found = re.search(r"<d:sync-token>([^<]+)</d:sync-token>", text) or re.search(r"sync-token>([^<]+)<", text)
    return text.count("<d:href>") + text.count("<D:href>"), found.group(1) if found else ""


def one_run(binary: str, count: int, database_url: str | None) -> dict[str, float]:
    host = FeedHost()
    host.body = feed_text(count).encode()
    figures: dict[str, float] = {}
    with JadwalServer(binary, extra_args=["--allow-private-fetch"], database_url=database_url) as server:
        status, body = server.api.send("PUT", "/api/v1/prayer-settings", json.dumps({"city": "Riyadh"}))
        if status != 200:
            sys.exit(f"prayer settings: {status} {body!r}")
        began = time.perf_counter()
        status, body = server.api.send("POST", "/api/v1/external-calendars", json.dumps({"url": host.url}))
        if status != 201:
            sys.exit(f"subscribe: {status} {body!r}")
        created = json.loads(body)
        subscription, calendar = created["id"], server.home + created["calendar"]["slug"] + "/"
        time.sleep(0.3)
        wait_drained(server)
        figures["first refresh s"] = time.perf_counter() - began
        status, body = server.api.send("GET", f"/api/v1/external-calendars/{subscription}")
        state = json.loads(body)["status"]
        if state["state"] != "ok" or state["objects"] != count:
            sys.exit(f"first refresh: {state}")

        _, token = sync_changes(server, calendar, None)
        figures["unchanged 304 ms"] = statistics.median(refresh_cpu(server, subscription) for _ in range(5)) * 1000
        host.etag = False
        figures["unchanged body ms"] = statistics.median(refresh_cpu(server, subscription) for _ in range(5)) * 1000
        reported, _ = sync_changes(server, calendar, token)
        if reported:
            sys.exit(f"unchanged refreshes changed {reported} objects")
        host.body = feed_text(count, changed=10).encode()
        figures["10 changed ms"] = refresh_cpu(server, subscription) * 1000
        figures["10 changed objects"], _ = sync_changes(server, calendar, token)

        # The same events imported as one file into the person's own calendar.
        _, body = server.api.send("GET", "/api/v1/calendars")
        personal = next(c["id"] for c in json.loads(body)["calendars"] if c["slug"] == "personal")
        began = time.perf_counter()
        status, body = server.api.send("POST", f"/api/v1/calendars/{personal}/import", feed_text(count), "text/calendar")
        if status != 200:
            sys.exit(f"import: {status} {body!r}")
        wait_drained(server)
        figures["import s"] = time.perf_counter() - began
    host.server.shutdown()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jadwal-binary", required=True)
    parser.add_argument("--counts", default="5000,20000")
    parser.add_argument("--database-url")
    args = parser.parse_args()
    engine = "PostgreSQL" if args.database_url else "SQLite"
    print(f"jadwal release, {engine}, default workers, feed host on loopback, {dt.date.today()}")
    for count in (int(part) for part in args.counts.split(",")):
        if args.database_url:
            with Database(args.database_url) as url:
                f = one_run(args.jadwal_binary, count, url)
        else:
            f = one_run(args.jadwal_binary, count, None)
        print(f"N={count:>6}: first refresh {f['first refresh s']:6.1f} s ({count / f['first refresh s']:5.0f} events/s end to end)   "
              f"import {f['import s']:6.1f} s ({count / f['import s']:5.0f} events/s)   "
              f"unchanged: 304 {f['unchanged 304 ms']:5.0f} ms CPU, same body {f['unchanged body ms']:5.0f} ms CPU   "
              f"10 changed: {f['10 changed ms']:5.0f} ms CPU, {int(f['10 changed objects'])} objects synced", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
