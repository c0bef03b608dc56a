#!/usr/bin/env python3
"""Notification fan-out: N notifications to L live streams (Server-Sent Events) of one person.

  swift build -c release --product jadwal --scratch-path /var/tmp/jadwal-build
  Benchmarks/notifications/fanout.py --jadwal-binary /var/tmp/jadwal-build/release/jadwal [--listeners 100 --notifications 1000]

A release `jadwal serve` (SQLite, two job workers) and one person who asked to hear of conflicts
from their phone, with quiet hours and email off so nothing is held or mailed. L streams are open
on /api/v1/notifications/stream (raw sockets, asyncio). A daily "Office" 08:00–20:00 series is
put first; then N events are PUT over CalDAV (4 clients), each in its own half hour inside one
Office instance, so each check finds one conflict and posts one notification. Every stream must
receive all N, in order.

  deliveries   L × N events received, checked in order, no gaps or repeats
  all in       from the first PUT until the last stream has the last notification (the conflict
               checks are the slow part: each reads the person's busy time)
  spread       per notification, from the first stream to receive it to the last, p50 / p99 / max:
               the cost of the fan-out itself (the API's timestamps are whole seconds, too coarse
               to time a single delivery against)
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from jadwal_server import Connection, JadwalServer  # noqa: E402


def ics(uid: str, start: dt.datetime, minutes: int, summary: str, rrule: str | None = None) -> str:
    end = start + dt.timedelta(minutes=minutes)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Bench//EN", "BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20261101T000000Z",
             f"DTSTART;TZID=Asia/Riyadh:{start:%Y%m%dT%H%M%S}", f"DTEND;TZID=Asia/Riyadh:{end:%Y%m%dT%H%M%S}", f"SUMMARY:{summary}"]
    if rrule:
        lines.append(f"RRULE:{rrule}")
    return "\r\n".join(lines + ["END:VEVENT", "END:VCALENDAR"]) + "\r\n"


class Listener:
    def __init__(self, index: int, expected: int):
        self.index = index
        self.expected = expected
        self.sequences: list[int] = []
        self.received: dict[int, float] = {}

    async def run(self, port: int, token: str) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write((f"GET /api/v1/notifications/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
                      "Accept: text/event-stream\r\n\r\n").encode())
        await writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"stream {self.index}: {status!r}")
        while (await reader.readline()) not in (b"\r\n", b"\n", b""):
            pass  # headers
        event_name, data = None, ""
        # The body is chunked: read chunk sizes and payloads, then split the payload into lines.
        buffer = b""
        while len(self.sequences) < self.expected:
            size_line = await reader.readline()
            if not size_line:
                raise RuntimeError(f"stream {self.index} ended")
            size = int(size_line.strip() or b"0", 16)
            payload = await reader.readexactly(size + 2)
            buffer += payload[:-2]
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                text = line.decode()
                if text.startswith("event: "):
                    event_name = text[7:]
                elif text.startswith("data: "):
                    data += text[6:]
                elif text == "":
                    if event_name == "notification":
                        item = json.loads(data)
                        self.received[item["sequence"]] = time.perf_counter()
                        self.sequences.append(item["sequence"])
                    event_name, data = None, ""
        writer.close()


def put_events(server: JadwalServer, items: list[tuple[str, str]]) -> None:
    queue = list(items)
    lock = threading.Lock()

    def writer() -> None:
        connection = Connection(server.port, server.basic)
        while True:
            with lock:
                if not queue:
                    return
                name, text = queue.pop(0)
            status, body = connection.send("PUT", server.home + "personal/" + name, text, "text/calendar; charset=utf-8")
            if status not in (201, 204):
                raise SystemExit(f"PUT {name}: {status} {body[:200]!r}")

    threads = [threading.Thread(target=writer) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


async def measure(server: JadwalServer, listeners_count: int, count: int) -> int:
    api = server.api
    for path, body in [("/api/v1/conflicts/settings", {"notifySources": ["caldav"]}),
                       ("/api/v1/notifications/settings", {"email": [], "push": [], "quietDuringSleep": False, "quietDuringPrayer": False})]:
        status, answer = api.send("PUT", path, json.dumps(body))
        if status != 200:
            sys.exit(f"{path}: {status} {answer!r}")
    first_day = dt.date.today() + dt.timedelta(days=2)
    office = ics("office", dt.datetime.combine(first_day, dt.time(8)), 12 * 60, "Office", "FREQ=DAILY;COUNT=80")
    status, _ = Connection(server.port, server.basic).send("PUT", server.home + "personal/office.ics", office, "text/calendar; charset=utf-8")
    server.wait_for_jobs()
    slots = [(day, half) for day in range(80) for half in range(24)]  # 24 half hours from 08:00 to 20:00
    items = []
    for index in range(count):
        day, half = slots[(index * 37) % len(slots)]  # spread over the days, each slot once
        start = dt.datetime.combine(first_day + dt.timedelta(days=day), dt.time(8)) + dt.timedelta(minutes=30 * half)
        items.append((f"n{index:04d}.ics", ics(f"n{index}", start, 30, f"Meeting {index}")))

    listeners = [Listener(i, count) for i in range(listeners_count)]
    tasks = [asyncio.create_task(listener.run(server.port, server.access_token)) for listener in listeners]
    await asyncio.sleep(1.0)  # every stream connected and waiting
    began = time.perf_counter()
    await asyncio.get_running_loop().run_in_executor(None, put_events, server, items)
    put_seconds = time.perf_counter() - began
    try:
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=600)
    except asyncio.TimeoutError:
        got = sorted(len(listener.sequences) for listener in listeners)
        sys.exit(f"timed out: streams got {got[0]}…{got[-1]} of {count}")
    all_in = time.perf_counter() - began

    expected = list(range(1, count + 1))
    ordered = all(listener.sequences == expected for listener in listeners)
    spreads = sorted(max(l.received[seq] for l in listeners) - min(l.received[seq] for l in listeners) for seq in expected)
    p = lambda q: spreads[min(len(spreads) - 1, int(q * (len(spreads) - 1)))] * 1000  # noqa: E731
    deliveries = count * listeners_count
    print(f"{count} notifications × {listeners_count} streams = {deliveries} deliveries, every stream in order without gaps: {ordered}")
    print(f"PUT {count} events: {put_seconds:.2f} s; the last stream had the last notification {all_in:.2f} s after the first PUT")
    print(f"fan-out spread, first stream to last: p50 {p(0.5):.1f} ms   p99 {p(0.99):.1f} ms   max {spreads[-1] * 1000:.1f} ms")
    return 0 if ordered else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jadwal-binary", required=True)
    parser.add_argument("--listeners", type=int, default=100)
    parser.add_argument("--notifications", type=int, default=1000)
    args = parser.parse_args()
    with JadwalServer(args.jadwal_binary) as server:
        return asyncio.run(measure(server, args.listeners, args.notifications))


if __name__ == "__main__":
    sys.exit(main())
