#!/usr/bin/env python3
"""The server's memory as a calendar grows: resident set after each stage, split into what the
process allocated (anonymous) and the pages of its binary and libraries (file-backed).

  swift build -c release --product jadwal --scratch-path /var/tmp/jadwal-build
  Benchmarks/memory/bench.py --jadwal-binary /var/tmp/jadwal-build/release/jadwal [--events 5000,20000]
                             [--servers jadwal,radicale]

For each size and server: a fresh server (scripts/caldav/servers.py; Jadwal with its default two
job workers, so every PUT's conflict check runs as it would for a user), a calendar made with
MKCALENDAR, the CalDAV benchmark's data set (Benchmarks/caldav/bench.py `generate`: events over
2025-2026 in Asia/Riyadh, 10% recurring, 20% with alarms) PUT by 8 clients, and VmRSS, RssAnon
and RssFile read from /proc at each stage:

  started      ready, one account, nothing stored
  loaded       every PUT answered
  checked      Jadwal: its job queue empty (every conflict check the PUTs queued has run)
  queried      after 50 one-week calendar-queries, a sync-collection from scratch and a PROPFIND
               of the home (what a phone's sync does)
  idle         10 s later
  trimmed      (Jadwal, where gdb is installed) after gdb has the server call malloc_trim(0): what
               of the heap was freed but still held by malloc, as a diagnosis

File-backed pages are the binary's and libraries' code and read-only data as far as they have been
touched: shared, clean, and dropped first under memory pressure; RSS counts them all the same.
Radicale's figure includes its Python interpreter the same way. One run; figures in MiB.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts/caldav"))
sys.path.insert(0, str(ROOT / "Benchmarks/caldav"))
import servers  # noqa: E402
from bench import Client, discover_home, generate, make_calendar, put_all, sync_body, week_query  # noqa: E402


def memory(server) -> dict[str, float]:
    """VmRSS, RssAnon and RssFile of the server and its children, in MiB."""
    found = {"VmRSS": 0, "RssAnon": 0, "RssFile": 0}
    for pid in [server.pid] + servers._children(server.pid):
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                key = line.split(":", 1)[0]
                if key in found:
                    found[key] += int(line.split()[1])
        except (FileNotFoundError, ProcessLookupError):
            pass
    return {key: value / 1024 for key, value in found.items()}


def jobs_due(server) -> float | None:
    """Jadwal's due or running jobs from /metrics (open to loopback), or None for a peer."""
    if server.kind != "jadwal":
        return None
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/metrics", timeout=10) as response:
        for line in response.read().decode().splitlines():
            if line.startswith("jadwal_jobs_due "):
                return float(line.split()[1])
    return None


def run(kind: str, items: list[tuple[str, str]], binary: str | None) -> list[tuple[str, dict[str, float], str]]:
    stages: list[tuple[str, dict[str, float], str]] = []
    with servers.start_server(kind, jadwal_binary=binary, jadwal_workers=2) as server:
        client = Client(server)
        home = discover_home(client)
        calendar = make_calendar(client, home, "memory")
        stages.append(("started", memory(server), ""))
        began = time.perf_counter()
        rate, count, failures = put_all(server, calendar, items, 8, None)
        stages.append(("loaded", memory(server), f"{count} PUTs at {rate:.0f}/s, {failures} failed"))
        if kind == "jadwal":
            waited = time.perf_counter()
            due = jobs_due(server) or 0
            while due > 0 and time.perf_counter() - waited < 300:
                time.sleep(0.2)
                due = jobs_due(server) or 0
            state = "queue empty" if due == 0 else f"{due:.0f} jobs still due"
            stages.append(("checked", memory(server), f"{state} {time.perf_counter() - waited:.1f} s after the last PUT"))
        for _ in range(50):
            client.request("REPORT", calendar, week_query(), {"Depth": "1"})
        client.request("REPORT", calendar, sync_body(""), {"Depth": "0"})
        client.request("PROPFIND", home, '<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:allprop/></d:propfind>', {"Depth": "1"})
        stages.append(("queried", memory(server), ""))
        time.sleep(10)
        stages.append(("idle", memory(server), f"{time.perf_counter() - began:.0f} s after the first PUT"))
        if kind == "jadwal" and shutil.which("gdb"):
            # How much of it is memory freed but kept by malloc: gdb calls malloc_trim(0) in the
            # server (a diagnosis only; the server does not do this itself).
            subprocess.run(["gdb", "-p", str(server.pid), "-batch", "-ex", "call (int)malloc_trim(0)"], capture_output=True, timeout=120)
            stages.append(("trimmed", memory(server), "after malloc_trim(0), called from gdb"))
        client.close()
    return stages


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jadwal-binary")
    parser.add_argument("--servers", default="jadwal")
    parser.add_argument("--events", default="5000,20000")
    parser.add_argument("--seed", type=int, default=4791)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    results = {}
    for size in [int(n) for n in args.events.split(",")]:
        items = generate(size, args.seed)
        for kind in args.servers.split(","):
            print(f"== {kind}, {size:,} events ({sum(len(t) for _, t in items) / 1e6:.1f} MB of iCalendar)", flush=True)
            stages = run(kind, items, args.jadwal_binary)
            for name, figures, note in stages:
                print(f"  {name:<8} RSS {figures['VmRSS']:6.1f} MiB   anonymous {figures['RssAnon']:6.1f}   "
                      f"file-backed {figures['RssFile']:6.1f}   {note}", flush=True)
            results[f"{kind}-{size}"] = stages
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
