#!/usr/bin/env python3
"""Real-world calendars written by others, read the way a subscription reads a feed.

Downloads the source distributions of four Python calendar projects from PyPI (pinned by
version and SHA-256), takes every .ics file their test suites ship, and reads each one with
`jadwal ics feed` and with Python's icalendar. Prints how many files and components each
takes, and exits 1 when Jadwal fails a whole file that Python's icalendar reads. Components
Jadwal leaves out of a file it reads (an event with no DTSTART, a second master with the same
UID, an RSCALE rule) are counted, and listed with their reasons by --list.

    scripts/ical/feed_corpus.py --binary .build/debug/jadwal [--cache DIR] [--list]
"""
import argparse
import hashlib
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import urllib.parse
import urllib.request

SDISTS = [
    ("icalendar", "7.3.2", "f15380927aed4318860e001c03b543c48578c73aec46e2d384c5d0802082b808"),
    ("vobject", "0.9.9", "ac44e5d7e2079d84c1d52c50a615b9bec4b1ba958608c4c7fe40cbf33247b38e"),
    ("recurring-ical-events", "3.8.2", "e731af31d0b7dec5cd47a1defacd8549e2f36fab1c1995e8b9f042822a0acf8e"),
    ("khal", "0.14.1", None),
]
ITEM_KINDS = ("VEVENT", "VTODO", "VJOURNAL")


def sdist(name, version, sha256, cache):
    path = os.path.join(cache, f"{name}-{version}.tar.gz")
    if not os.path.exists(path):
        meta_url = f"https://pypi.org/pypi/{name}/json"
        with urllib.request.urlopen(meta_url, timeout=60) as response:
            meta = json.load(response)
        files = meta.get("releases", {}).get(version) or (meta["urls"] if meta["info"]["version"] == version else [])
        entry = next(u for u in files if u["packagetype"] == "sdist")
        url = urllib.parse.urljoin(meta_url, entry["url"])
        expected = sha256 or entry["digests"]["sha256"]
        with urllib.request.urlopen(url, timeout=120) as response:
            data = response.read()
        if hashlib.sha256(data).hexdigest() != expected:
            sys.exit(f"{name} {version}: the download does not match its SHA-256")
        with open(path, "wb") as out:
            out.write(data)
    return path


def calendars(archive, into):
    found = []
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.lower().endswith(".ics"):
                target = os.path.join(into, member.name.replace("/", "__"))
                with open(target, "wb") as out:
                    out.write(tar.extractfile(member).read())
                found.append(target)
    return sorted(found)


def python_reading(path):
    """(parsed, item components) by Python's icalendar; None components when it fails."""
    import icalendar
    data = open(path, "rb").read()
    try:
        items = 0
        for calendar in icalendar.Calendar.from_ical(data, multiple=True):
            items += sum(1 for c in calendar.walk() if c.name in ITEM_KINDS)
        return True, items
    except Exception:
        return False, None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/debug/jadwal")
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "jadwal-feed-corpus"))
    parser.add_argument("--list", action="store_true", help="print every file's line")
    args = parser.parse_args()
    os.makedirs(args.cache, exist_ok=True)
    work = tempfile.mkdtemp(prefix="jadwal-feeds-")
    files = []
    for name, version, sha256 in SDISTS:
        files += [(name, f) for f in calendars(sdist(name, version, sha256, args.cache), work)]

    result = subprocess.run([args.binary, "ics", "feed"] + [f for _, f in files], capture_output=True, text=True, check=True)
    jadwal = {line["file"]: line for line in map(json.loads, result.stdout.splitlines())}

    totals = {"files": 0, "python_files": 0, "jadwal_files": 0, "components": 0, "python_components": 0,
              "jadwal_objects": 0, "jadwal_skipped": 0, "jadwal_mended": 0}
    behind = []
    left_out = []
    per_project = {}
    for project, path in files:
        ours = jadwal[path]
        parsed, python_items = python_reading(path)
        totals["files"] += 1
        totals["python_files"] += parsed
        totals["jadwal_files"] += ours.get("error") is None
        totals["components"] += ours["components"]
        totals["python_components"] += python_items or 0
        totals["jadwal_objects"] += ours["objects"]
        totals["jadwal_skipped"] += ours["skipped"]
        totals["jadwal_mended"] += ours["mended"]
        row = per_project.setdefault(project, [0, 0, 0])
        row[0] += 1
        row[1] += parsed
        row[2] += ours.get("error") is None
        if parsed and ours.get("error") is not None and python_items:
            behind.append(f"{os.path.basename(path)}: Python's icalendar reads it, Jadwal says {ours['error']}")
        elif parsed and python_items and ours["skipped"] > 0:
            left_out.append(f"{os.path.basename(path)}: " + "; ".join(p for p in ours["problems"] if "skipped" in p or "not valid" in p)[:300])
        if args.list:
            print(f"{os.path.basename(path)}: python={'ok' if parsed else 'fails'} ({python_items}) jadwal={json.dumps(ours)}")

    print("| project | .ics files | Python icalendar reads | Jadwal reads |")
    print("|---|---:|---:|---:|")
    for project, (count, python_ok, ours_ok) in per_project.items():
        print(f"| {project} | {count} | {python_ok} | {ours_ok} |")
    print(f"| all | {totals['files']} | {totals['python_files']} | {totals['jadwal_files']} |")
    print(f"\ncomponents (VEVENT/VTODO/VJOURNAL) in the files Jadwal reads: {totals['components']}; "
          f"stored as {totals['jadwal_objects']} objects (one per UID); left out {totals['jadwal_skipped']}, mended {totals['jadwal_mended']}; "
          f"Python's icalendar reads {totals['python_components']} components")
    if args.list:
        for line in left_out:
            print("left out: " + line)
    for line in behind:
        print("behind: " + line)
    return 1 if behind else 0


if __name__ == "__main__":
    sys.exit(main())
