#!/usr/bin/env python3
"""Importing Apple Health's export: `jadwal tracker import-health` on a generated export.zip of
realistic shape (`make_export.py`), timed end to end with its peak memory.

  Benchmarks/health/bench.py --binary .build/release/jadwal [--mb 200] [--of zip|xml] [--export FILE] [--keep]

For each run: a fresh SQLite data directory, `jadwal user create`, then the export imported twice.
The first import stores every night and workout; the second must add nothing (importing is
idempotent). Each import is the whole command (process start, migrations, reading the zip,
inflating and parsing export.xml, writing the entries): wall time, CPU time, and the peak resident
memory of the process (`ru_maxrss`), which is what "memory bounded" means here: it must not grow
with the file. Issue 25's goal: a 200 MB export in under 30 s.

`--of zip` (the default) makes the zip 200 MB, which is what a person has in hand (its export.xml
is several times larger); `--of xml` makes export.xml itself that size. The export is written once
to /var/tmp (or `--export`) and reused by later runs with the same size.
"""
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent
EMAIL = "health@example.com"


def run(cmd, env):
    """Runs to the end; its output."""
    result = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit(f"failed ({result.returncode}): {' '.join(map(str, cmd))}\n{result.stdout}{result.stderr}")
    return result.stdout


def timed(cmd, env):
    """Like run, with the child's own CPU time and peak RSS from wait4."""
    start = time.perf_counter()
    process = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed ({status}): {' '.join(map(str, cmd))}\n{out}")
    return out, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--mb", type=float, default=200)
    parser.add_argument("--of", choices=["zip", "xml"], default="zip")
    parser.add_argument("--export", default=None)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    binary = str(pathlib.Path(args.binary).resolve())
    export = pathlib.Path(args.export or f"/var/tmp/jadwal-health-{args.of}-{args.mb:g}mb.zip")
    if not export.exists():
        print(f"writing {export} …", file=sys.stderr)
        started = time.perf_counter()
        subprocess.run([sys.executable, str(ROOT / "make_export.py"), str(export), "--mb", str(args.mb), "--of", args.of], check=True)
        print(f"written in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    zip_mib = export.stat().st_size / 1048576
    work = pathlib.Path(tempfile.mkdtemp(prefix="jadwal-health-bench-"))
    try:
        load = os.getloadavg()
        print(f"export {export.name}: zip {zip_mib:.1f} MiB; load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
        for index in range(args.runs):
            data = work / f"data-{index}"
            env = {k: v for k, v in os.environ.items() if not k.startswith("JADWAL_")}
            env["JADWAL_DATA_DIR"] = str(data)
            run([binary, "user", "create", EMAIL, "--name", "Huda", "--time-zone", "Asia/Riyadh"], env)
            for attempt in ("first", "again"):
                out, wall, cpu, rss = timed([binary, "tracker", "import-health", str(export), "--user", EMAIL], env)
                summary = out.splitlines()[0] if out else ""
                added = int(re.search(r"(\d+) added", summary).group(1))
                print(f"run {index + 1} {attempt}: {wall:.1f} s wall, {cpu:.1f} s CPU, peak RSS {rss:.0f} MiB — {summary.split(': ', 2)[-1]}")
                if attempt == "again" and added != 0:
                    sys.exit("the second import added entries: importing must be idempotent")
            shutil.rmtree(data, ignore_errors=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
