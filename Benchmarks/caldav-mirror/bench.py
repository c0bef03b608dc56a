#!/usr/bin/env python3
"""Initial mirror of a CalDAV calendar: Jadwal's connected account beside vdirsyncer, same
Radicale calendar on loopback, same run.

  Benchmarks/caldav-mirror/bench.py --jadwal-binary /var/tmp/jb/release/jadwal
  Benchmarks/caldav-mirror/bench.py --jadwal-binary … --events 5000 --rounds 2

A Radicale (scripts/caldav/servers.py, plain-text htpasswd) gets one calendar of --events events
(Benchmarks/caldav/bench.py's deterministic data set: Asia/Riyadh with a VTIMEZONE, 10% recurring,
20% with an alarm), written straight into its storage. Then, alternating for --rounds rounds:

  jadwal      a fresh release `jadwal serve` (SQLite, --allow-private-fetch, one job worker);
              `POST /api/v1/external-calendars {"kind": "caldav", …}` with the calendar's URL.
              Timed from the POST until the account's first sync has put every event into the
              mirrored calendar (the sync job done, the count checked over CalDAV): "mirror".
              "settled" also waits for the conflict checks and reminders the new events queue.
              The server's CPU time (user + system, from /proc) is taken at both points.
  vdirsyncer  a fresh folder; `vdirsyncer discover` then `vdirsyncer sync` of the same
              collection into a filesystem storage (.ics files): the sync is timed (discover is
              shown apart), with its CPU time (the child's rusage).

Both read the same collection over the same loopback HTTP. The ratio is vdirsyncer/jadwal for
the mirror (above 1: Jadwal is faster). Radicale's own CPU is not counted for either.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "caldav"))
sys.path.insert(0, str(HERE.parents[1] / "scripts" / "caldav"))

import bench as caldav_bench  # noqa: E402  Benchmarks/caldav/bench.py: the data set and the Radicale helpers
import servers  # noqa: E402
from jadwal_server import JadwalServer  # noqa: E402


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process so far, from /proc/<pid>/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def remote_calendar(events: int, seed: int) -> tuple[servers.Server, str]:
    server = servers.start_server("radicale", radicale_auth="plain")
    client = caldav_bench.Client(server)
    home = caldav_bench.discover_home(client)
    calendar = caldav_bench.make_calendar(client, home, "mirror")
    caldav_bench.preload(server, calendar, caldav_bench.generate(events, seed))
    client.close()
    return server, server.base_url.rstrip("/") + calendar


def count_objects(jadwal: JadwalServer, calendar_path: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", jadwal.port, timeout=120)
    connection.request("PROPFIND", calendar_path, body=b'<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>',
                       headers={"Authorization": jadwal.basic, "Depth": "1", "Content-Type": "application/xml"})
    response = connection.getresponse()
    status, body = response.status, response.read()
    connection.close()
    if status != 207:
        sys.exit(f"PROPFIND {calendar_path} -> {status}")
    return caldav_bench.count_responses(body) - 1  # the collection itself answers too


def time_jadwal(binary: str, remote: servers.Server, url: str, events: int) -> dict:
    with JadwalServer(binary, extra_args=["--allow-private-fetch", "--workers", "1"]) as jadwal:
        cpu0 = cpu_seconds(jadwal.process.pid)
        started = time.perf_counter()
        status, body = jadwal.api.send("POST", "/api/v1/external-calendars", json.dumps(
            {"kind": "caldav", "url": url, "username": remote.username, "password": remote.password}))
        if status != 201:
            sys.exit(f"connecting failed: {status} {body[:300]!r}")
        connected = time.perf_counter() - started
        account = json.loads(body)
        slug = next(r["calendar"]["slug"] for r in account["remoteCalendars"] if r["mirrored"])
        calendar_path = f"{jadwal.home}{slug}/"
        while True:
            status, body = jadwal.api.send("GET", f"/api/v1/external-calendars/{account['id']}")
            state = json.loads(body)["status"]
            if state["state"] == "failing":
                sys.exit(f"the mirror failed: {state}")
            if state["state"] == "ok":
                break
            time.sleep(0.05)
        mirrored = time.perf_counter() - started
        cpu_mirror = cpu_seconds(jadwal.process.pid) - cpu0
        found = count_objects(jadwal, calendar_path)
        if found != events:
            sys.exit(f"Jadwal mirrored {found} of {events} events")
        jadwal.wait_for_jobs()
        settled = time.perf_counter() - started
        cpu_settled = cpu_seconds(jadwal.process.pid) - cpu0
    return {"connect": connected, "mirror": mirrored, "cpu_mirror": cpu_mirror, "settled": settled, "cpu_settled": cpu_settled}


def time_vdirsyncer(remote: servers.Server, url: str, events: int) -> dict:
    tool = shutil.which("vdirsyncer") or str(Path(sys.executable).parent / "vdirsyncer")
    folder = Path(tempfile.mkdtemp(prefix="vdirsyncer-bench-"))
    try:
        (folder / "local").mkdir()
        config = folder / "config"
        config.write_text(f"""[general]
status_path = "{folder}/status/"

[pair bench]
a = "remote"
b = "local"
collections = null
conflict_resolution = "a wins"

[storage remote]
type = "caldav"
url = "{url}"
username = "{remote.username}"
password = "{remote.password}"

[storage local]
type = "filesystem"
path = "{folder}/local/"
fileext = ".ics"
""")
        env = {**os.environ, "VDIRSYNCER_CONFIG": str(config)}

        def timed(args: list[str]) -> tuple[float, float]:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            done = subprocess.run([tool, *args], env=env, input="y\n" * 4, capture_output=True, text=True)
            took = time.perf_counter() - started
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if done.returncode != 0:
                sys.exit(f"vdirsyncer {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
            return took, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

        discover, _ = timed(["discover", "bench"])
        sync, cpu = timed(["sync", "bench"])
        found = len(list((folder / "local").glob("*.ics")))
        if found != events:
            sys.exit(f"vdirsyncer synced {found} of {events} events")
        return {"discover": discover, "sync": sync, "cpu_sync": cpu}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jadwal-binary", required=True)
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    remote, url = remote_calendar(args.events, args.seed)
    results: dict[str, list[dict]] = {"jadwal": [], "vdirsyncer": []}
    try:
        for round_ in range(args.rounds):
            # Alternate who goes first, so a warm Radicale favours neither.
            order = ["jadwal", "vdirsyncer"] if round_ % 2 == 0 else ["vdirsyncer", "jadwal"]
            for who in order:
                result = time_jadwal(args.jadwal_binary, remote, url, args.events) if who == "jadwal" else time_vdirsyncer(remote, url, args.events)
                results[who].append(result)
                print(f"round {round_ + 1} {who}: " + ", ".join(f"{k} {v:.2f} s" for k, v in result.items()), flush=True)
    finally:
        remote.stop()
    best_jadwal = min(r["mirror"] for r in results["jadwal"])
    best_vdir = min(r["sync"] for r in results["vdirsyncer"])
    print(f"\n{args.events} events from Radicale on loopback, best of {args.rounds}:")
    print(f"| | wall | CPU |\n|---|---:|---:|")
    jadwal = min(results["jadwal"], key=lambda r: r["mirror"])
    vdir = min(results["vdirsyncer"], key=lambda r: r["sync"])
    print(f"| Jadwal: mirror (first sync done) | {jadwal['mirror']:.2f} s | {jadwal['cpu_mirror']:.2f} s |")
    print(f"| Jadwal: settled (conflict checks and reminders done too) | {jadwal['settled']:.2f} s | {jadwal['cpu_settled']:.2f} s |")
    print(f"| vdirsyncer: sync (discover {vdir['discover']:.2f} s apart) | {vdir['sync']:.2f} s | {vdir['cpu_sync']:.2f} s |")
    print(f"\nvdirsyncer / Jadwal (mirror): {best_vdir / best_jadwal:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
