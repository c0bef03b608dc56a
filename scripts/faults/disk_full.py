#!/usr/bin/env python3
"""SQLite on a full filesystem (issue 22, "Faults"): `jadwal serve` with its data folder on a
small tmpfs, filled until writes are refused, then given room again, and checked.

  scripts/faults/disk_full.py --binary PATH [--size-mb 8] [--keep]

Needs to mount a tmpfs (root, or CAP_SYS_ADMIN); where it cannot, it says so and exits 0 with
SKIP (it has nothing to measure). One account with an app password (`jadwal user create`,
`jadwal app-password create`) on a fresh data folder inside the mount, signed in through the
magic link the server logs. A filler file takes all but about 1.5 MB of the mount; then CalDAV
PUTs and API object PUTs, each event carrying 16 KB of description, go on until five of each
have been refused. Checked, each printed PASS or FAIL with figures:

  - every refused write is answered 507 Insufficient Storage with a message a person can act on
    (CalDAV: plain text naming the disk; API: JSON `server_storage_full`), within 5 s; never a
    500, never a hang;
  - while the disk is full, reads go on: every acknowledged object answers GET with the ETag
    its PUT was given, and a REPORT (calendar-query) of the calendar answers 207;
  - the log does not flood: at most one error line per refused request plus two per job worker;
  - the filler is removed: writes succeed again by themselves within 10 s (the refused writes
    are sent again and all succeed), with no restart;
  - every acknowledged write is there with its ETag (nothing refused was half-written: a refused
    name answers 404 until it is sent again);
  - the server stops cleanly; `PRAGMA integrity_check` of the database says ok; a restart serves
    every acknowledged object again.

Exit 1 on any failed check. The mount is removed at the end (and the folder, unless `--keep`).
Standard library only.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crash_safety import Connection, Server, Session  # noqa: E402  (the folder's shared server, HTTP and sign-in)

EMAIL = "diskfull@example.com"
REFUSALS_WANTED = 5
ROOM_LEFT = 1_500_000
DESCRIPTION = "x" * 16_000

failures: list[str] = []


def check(ok: bool, what: str) -> None:
    if ok:
        print(f"  PASS {what}", flush=True)
    else:
        failures.append(what)
        print(f"  FAIL {what}", flush=True)


def event(uid: str, description: str = DESCRIPTION) -> bytes:
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Jadwal faults//EN\r\nBEGIN:VEVENT\r\n"
            f"UID:{uid}\r\nDTSTAMP:20261201T000000Z\r\nDTSTART:20261214T100000Z\r\nDTEND:20261214T110000Z\r\n"
            f"SUMMARY:{uid}\r\nDESCRIPTION:{description}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").encode()


def mount_tmpfs(at: Path, size_mb: int) -> str | None:
    """None when mounted; else why it could not be."""
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_mb}m,mode=0700", "tmpfs", str(at)], capture_output=True, text=True)
    return None if done.returncode == 0 else (done.stderr.strip() or f"mount exited {done.returncode}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--size-mb", type=int, default=8)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    binary = str(Path(args.binary).resolve())

    folder = Path(tempfile.mkdtemp(prefix="jadwal-diskfull-"))
    why = mount_tmpfs(folder, args.size_mb)
    if why is not None:
        print(f"SKIP disk full: cannot mount a {args.size_mb} MB tmpfs here ({why}); needs root or CAP_SYS_ADMIN")
        shutil.rmtree(folder, ignore_errors=True)
        return 0
    server = Server(binary, folder, None, EMAIL)
    filler = folder / "filler"
    try:
        run_checks(server, filler)
    except Exception as error:  # a broken step is a failed run, with what it said
        failures.append(f"the run stopped: {error}")
        print(f"  FAIL the run stopped: {error}", flush=True)
    finally:
        server.stop()
        keep = folder.with_name(folder.name + "-kept")
        if args.keep:
            shutil.copytree(folder, keep)
            print(f"kept: {keep}")
        if subprocess.run(["umount", str(folder)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(folder)], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
    print(f"disk full: {len(failures)} failed")
    return 1 if failures else 0


def run_checks(server: Server, filler: Path) -> None:
    password = server.create_account()
    server.start()
    session = Session(server, password)
    caldav = session.caldav()
    api = session.api()
    calendar_path = session.home + "personal/"
    _, _, body = api.send("GET", "/api/v1/calendars")
    listed = json.loads(body)
    listed = listed.get("calendars", listed) if isinstance(listed, dict) else listed
    calendar_id = next(c["id"] for c in listed if c.get("slug") == "personal")

    # Fill the mount but for ROOM_LEFT bytes.
    stats = os.statvfs(filler.parent)
    with filler.open("wb") as out:
        out.write(b"\0" * max(0, stats.f_bavail * stats.f_frsize - ROOM_LEFT))
    print(f"filled: {os.statvfs(filler.parent).f_bavail * os.statvfs(filler.parent).f_frsize // 1024} KB left", flush=True)

    acknowledged: dict[str, str] = {}     # CalDAV path -> ETag
    refused: list[tuple[str, str, bytes]] = []   # (door, path, body)
    answers: dict[str, dict[int, int]] = {"caldav": {}, "api": {}}
    slowest = 0.0
    bad_messages: list[str] = []
    for index in range(2000):
        caldav_done = sum(1 for door, _, _ in refused if door == "caldav") >= REFUSALS_WANTED
        api_done = sum(1 for door, _, _ in refused if door == "api") >= REFUSALS_WANTED
        if caldav_done and api_done:
            break
        door = "api" if (index % 2 and not api_done) or caldav_done else "caldav"
        name = f"{door}-{index}"
        path = calendar_path + name + ".ics"
        began = time.monotonic()
        if door == "caldav":
            status, headers, body = caldav.send("PUT", path, event(name), {"Content-Type": "text/calendar"})
        else:
            status, headers, body = api.send("PUT", f"/api/v1/calendars/{calendar_id}/objects/{name}.ics", event(name), {"Content-Type": "text/calendar"})
        slowest = max(slowest, time.monotonic() - began)
        answers[door][status] = answers[door].get(status, 0) + 1
        if status in (200, 201, 204):
            etag = headers.get("etag")
            if etag is None:
                _, got, _ = caldav.send("GET", path)
                etag = got.get("etag")
            acknowledged[path] = etag
        elif status == 507:
            refused.append((door, path, event(name)))
            text = body.decode(errors="replace")
            if door == "caldav" and "disk space" not in text:
                bad_messages.append(f"CalDAV: {text[:200]}")
            if door == "api" and json.loads(body).get("error", {}).get("code") != "server_storage_full":
                bad_messages.append(f"API: {text[:200]}")
        else:
            bad_messages.append(f"{door} PUT {path}: {status} {body[:200]!r}")
    print(f"answers while filling: CalDAV {answers['caldav']}, API {answers['api']}; slowest {slowest:.2f} s", flush=True)
    check(len(refused) >= 2 * REFUSALS_WANTED, f"the disk filled: {len(refused)} writes refused after {len(acknowledged)} acknowledged")
    check(not bad_messages, "every refusal is 507 with a message naming the disk" + ("" if not bad_messages else ": " + "; ".join(bad_messages[:5])))
    check(slowest < 5, f"every write answered within 5 s (slowest {slowest:.2f} s)")

    # Reads while full.
    wrong = [p for p, etag in acknowledged.items() if caldav.send("GET", p)[1].get("etag") != etag]
    check(not wrong, f"while full, every acknowledged object reads back with its ETag ({len(acknowledged)} objects)" + (f"; wrong: {wrong[:5]}" if wrong else ""))
    query = (b'<?xml version="1.0"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">'
             b'<d:prop><d:getetag/></d:prop><c:filter><c:comp-filter name="VCALENDAR"/></c:filter></c:calendar-query>')
    status, _, _ = caldav.send("REPORT", calendar_path, query, {"Content-Type": "application/xml", "Depth": "1"})
    check(status == 207, f"while full, a calendar-query answers 207 (got {status})")
    half = [p for _, p, _ in refused if caldav.send("GET", p)[0] != 404]
    check(not half, "nothing refused was kept: every refused name answers 404" + (f"; found: {half[:5]}" if half else ""))

    # Room again.
    filler.unlink()
    freed = time.monotonic()
    pending = list(refused)
    while pending and time.monotonic() - freed < 10:
        door, path, body = pending[0]
        status, headers, _ = caldav.send("PUT", path, body, {"Content-Type": "text/calendar"})
        if status in (200, 201, 204):
            acknowledged[path] = headers.get("etag") or caldav.send("GET", path)[1].get("etag")
            pending.pop(0)
        else:
            time.sleep(0.2)
    check(not pending, f"with room again, every refused write succeeds when sent again, by itself, in {time.monotonic() - freed:.2f} s"
          + (f"; still refused: {len(pending)}" if pending else ""))

    errors = [line for line in server.log_text().splitlines() if re.match(r"^\S+\s+(error|critical)\s", line)]
    limit = len(refused) + 2 * 3
    check(len(errors) <= limit, f"the log does not flood: {len(errors)} error lines (at most {limit})")

    missing = [p for p, etag in acknowledged.items() if caldav.send("GET", p)[1].get("etag") != etag]
    check(not missing, f"every acknowledged write is there with its ETag ({len(acknowledged)})" + (f"; missing: {missing[:5]}" if missing else ""))

    server.stop()
    check(server.process.returncode == 0, f"the server stops cleanly (exit {server.process.returncode})")
    database = server.data / "jadwal.sqlite"
    db = sqlite3.connect(database)
    try:
        verdict = db.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        db.close()
    check(verdict == "ok", f"PRAGMA integrity_check: {verdict}")
    server.start()
    session.refresh()
    caldav = session.caldav()
    missing = [p for p, etag in acknowledged.items() if caldav.send("GET", p)[1].get("etag") != etag]
    check(not missing, f"after a restart every acknowledged object is served with its ETag" + (f"; missing: {missing[:5]}" if missing else ""))


if __name__ == "__main__":
    sys.exit(main())
