#!/usr/bin/env python3
"""Importing a WhatsApp export end to end: `jadwal import-chat` (parse, store encrypted, track,
extract, write the agreed events) on SQLite and PostgreSQL, and once over HTTP.

  Benchmarks/chat-import/bench.py [--lines 100000] [--runs 5] [--engines sqlite,postgres] [--no-http]
                                  [--unresolved] [--binary PATH] [--keep]

Builds the release binary (`swift build -c release --product jadwal`, scratch path
`$JADWAL_BUILD_PATH` or /var/tmp/jadwal-import-build) unless `--binary` is given, writes the
export with `make_export.py` (deterministic), and for each engine and run starts from nothing: a
fresh data directory (SQLite) or a fresh database in a throwaway cluster (`scripts/postgres.sh`),
`jadwal user create`, then times
  - the first `jadwal import-chat` of the file (everything new), and
  - a second import of the same file, which must add nothing (every message a duplicate, no event).
Each time is the whole command, process start and migrations included: wall time, and the CPU
time of the `jadwal` process (user + system; PostgreSQL's own work is not in it). The machine is
shared, so the wall time depends on what else runs; the load average is printed with them. Prints
every run and the medians. Issue 6's goal: under 10 s for 100,000 lines.

The export settles (plans agreed), so the conversation's text is not kept. `--unresolved` writes
one that never settles: every message's text is sealed and stored, the most an import stores.

With HTTP (the default), one more fresh SQLite data directory: `jadwal serve`, a sign-in through
the emailed link (printed to the log), and one timed `POST /api/v1/chats/import` of the file
(wall time, and the server's CPU time during the request).
"""
import argparse
import json
import os
import pathlib
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
EMAIL = "bench@example.com"
# A fixed chat key: every run seals with the same key, nothing is written beside the data.
CHAT_KEY = "YmVuY2htYXJrLWNoYXQta2V5LTMyLWJ5dGVzLWxvbmc="


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(cmd, env):
    """Runs a command to its end; returns its standard output, wall seconds and CPU seconds
    (user + system, from the children's resource usage before and after)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        sys.exit(f"failed ({result.returncode}): {' '.join(map(str, cmd))}\n{result.stdout}{result.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return result.stdout, wall, cpu


class Postgres:
    """A throwaway cluster; each run gets a database of its own in it."""

    def __init__(self, folder):
        self.folder = folder
        url = subprocess.run([str(ROOT / "scripts" / "postgres.sh"), "start", folder], stdout=subprocess.PIPE, text=True, check=True).stdout.strip()
        match = re.fullmatch(r"postgres://jadwal:jadwal@127\.0\.0\.1:(\d+)/jadwal", url)
        if not match:
            sys.exit(f"unexpected database URL from scripts/postgres.sh: {url!r}")
        self.port = match.group(1)
        self.count = 0

    def fresh_database(self):
        self.count += 1
        name = f"bench{self.count}"
        env = dict(os.environ, PGPASSWORD="jadwal")
        subprocess.run(["psql", "-q", "-h", "127.0.0.1", "-p", self.port, "-U", "jadwal", "-d", "jadwal", "-c", f"CREATE DATABASE {name}"],
                       env=env, check=True)
        return f"postgres://jadwal:jadwal@127.0.0.1:{self.port}/{name}"

    def stop(self):
        subprocess.run([str(ROOT / "scripts" / "postgres.sh"), "stop", self.folder], check=False)


def summary_line(output):
    """The import's first line: '<file>: N messages in the file; N new, N already imported, …'."""
    first = output.splitlines()[0] if output else ""
    return first.split(": ", 1)[-1]


def counts(output):
    new = int(re.search(r"(\d+) new", output).group(1))
    duplicates = int(re.search(r"(\d+) already imported", output).group(1))
    events = len([line for line in output.splitlines() if line.startswith("event ")])
    return new, duplicates, events


def one_run(binary, export, workdir, index, database_url):
    """A fresh account, then the export imported twice: [(wall, cpu) of each import], the first's output."""
    data = workdir / f"data-{index}"
    env = dict(os.environ, JADWAL_CHAT_KEY=CHAT_KEY, JADWAL_DATA_DIR=str(data))
    env.pop("JADWAL_DATABASE_URL", None)
    if database_url:
        env["JADWAL_DATABASE_URL"] = database_url
    run([binary, "user", "create", EMAIL, "--name", "Omar", "--time-zone", "Asia/Riyadh"], env)
    timings = []
    outputs = []
    for _ in range(2):
        output, wall, cpu = run([binary, "import-chat", str(export), "--user", EMAIL, "--me", "Omar"], env)
        timings.append((wall, cpu))
        outputs.append(output)
    first_new, _, _ = counts(outputs[0])
    second_new, second_duplicates, second_events = counts(outputs[1])
    if first_new == 0 or second_new != 0 or second_events != 0 or second_duplicates != first_new:
        sys.exit(f"the second import was not a no-op:\nfirst: {outputs[0]}\nsecond: {outputs[1]}")
    shutil.rmtree(data, ignore_errors=True)
    return timings, outputs[0]


def http_run(binary, export, workdir):
    data = workdir / "data-http"
    env = dict(os.environ, JADWAL_CHAT_KEY=CHAT_KEY, JADWAL_DATA_DIR=str(data))
    env.pop("JADWAL_DATABASE_URL", None)
    run([binary, "user", "create", EMAIL, "--name", "Omar", "--time-zone", "Asia/Riyadh"], env)
    port = free_port()
    log = (workdir / "server.log").open("w")
    server = subprocess.Popen([binary, "serve", "--port", str(port), "--log-level", "notice"], env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(base + "/readyz", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        post(base + "/api/v1/auth/email", {"email": EMAIL})
        token = None
        for _ in range(100):
            found = re.search(r"auth/magic\?token=([A-Za-z0-9_-]+)", (workdir / "server.log").read_text())
            if found:
                token = found.group(1)
                break
            time.sleep(0.1)
        if not token:
            sys.exit("no sign-in link in the server log")
        access = post(base + "/api/v1/auth/magic", {"token": token})["accessToken"]
        body = export.read_bytes()
        request = urllib.request.Request(base + "/api/v1/chats/import?me=Omar", data=body, method="POST",
                                         headers={"Authorization": f"Bearer {access}", "Content-Type": "text/plain; charset=utf-8"})
        cpu_before = process_cpu(server.pid)
        start = time.perf_counter()
        with urllib.request.urlopen(request, timeout=600) as response:
            answer = json.load(response)
        elapsed = time.perf_counter() - start
        return elapsed, process_cpu(server.pid) - cpu_before, answer
    finally:
        server.terminate()
        server.wait()
        log.close()


def process_cpu(pid):
    """CPU seconds (user + system) a running process has used so far."""
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def median(timings, field):
    return statistics.median(t[field] for t in timings)


def post(url, payload):
    request = urllib.request.Request(url, data=json.dumps(payload).encode(), method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read()
        return json.loads(text) if text else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--engines", default="sqlite,postgres")
    parser.add_argument("--no-http", action="store_true")
    parser.add_argument("--unresolved", action="store_true", help="an export whose conversation never settles (make_export.py --unresolved)")
    parser.add_argument("--binary")
    parser.add_argument("--keep", action="store_true", help="keep the work folder (the export, data, logs)")
    args = parser.parse_args()

    binary = args.binary
    if not binary:
        build = os.environ.get("JADWAL_BUILD_PATH", "/var/tmp/jadwal-import-build")
        subprocess.run(["swift", "build", "-c", "release", "--product", "jadwal", "--scratch-path", build], cwd=ROOT, check=True,
                       stdout=sys.stderr)
        binary = f"{build}/release/jadwal"

    workdir = pathlib.Path(tempfile.mkdtemp(prefix="jadwal-import-bench."))
    # PostgreSQL runs as its own user and needs to reach its cluster folder inside.
    workdir.chmod(0o755)
    export = workdir / "export.txt"
    make = [sys.executable, str(pathlib.Path(__file__).with_name("make_export.py")), str(export), "--lines", str(args.lines)]
    subprocess.run(make + (["--unresolved"] if args.unresolved else []), check=True)
    # The machine is shared: the load says how far the wall times are from the CPU times.
    print(f"export: {args.lines:,} lines, {export.stat().st_size / 2**20:.1f} MiB; binary: {binary}; runs: {args.runs}; "
          f"cores: {os.cpu_count()}; load average at start: {os.getloadavg()[0]:.1f}")

    try:
        for engine in args.engines.split(","):
            postgres = Postgres(str(workdir / "pg")) if engine == "postgres" else None
            try:
                first, second = [], []
                report = ""
                for index in range(args.runs):
                    url = postgres.fresh_database() if postgres else None
                    (a, b), report = one_run(binary, export, workdir, index, url)
                    first.append(a)
                    second.append(b)
                    print(f"  {engine:8} run {index + 1}: first import {a[0]:6.2f} s (cpu {a[1]:5.2f} s)   "
                          f"second import, adds nothing {b[0]:6.2f} s (cpu {b[1]:5.2f} s)", flush=True)
                _, _, events = counts(report)
                print(f"{engine}: {summary_line(report)}; {events} events written")
                print(f"{engine}: median of {args.runs}: first import {median(first, 0):.2f} s wall, {median(first, 1):.2f} s cpu; "
                      f"second import {median(second, 0):.2f} s wall, {median(second, 1):.2f} s cpu", flush=True)
            finally:
                if postgres:
                    postgres.stop()
        print(f"load average at the end: {os.getloadavg()[0]:.1f}")
        if not args.no_http:
            elapsed, cpu, answer = http_run(binary, export, workdir)
            messages = answer["messages"]
            print(f"http (sqlite): POST /api/v1/chats/import {elapsed:.2f} s wall, server cpu {cpu:.2f} s (one run): "
                  f"{messages['new']} new, {len(answer['events'])} events")
    finally:
        if args.keep:
            print(f"kept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
