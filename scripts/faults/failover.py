#!/usr/bin/env python3
"""A PostgreSQL failover under a busy `jadwal serve` (issue 22, "Several instances"): a real
Patroni cluster, a planned switchover and the loss of the primary, and what Jadwal's clients saw.

  scripts/faults/failover.py --binary PATH [--short] [--ttl 10] [--instances 1] [--keep]

What it starts, all on 127.0.0.1, all ended when it stops (Debian's packages; `patroni`,
`etcd-server` and `haproxy` are installed with apt-get when missing, and it says so):

  etcd         one member: Patroni's store for who leads (its leader key lives `--ttl` seconds)
  pg1, pg2     two PostgreSQL 15 nodes, each run by its own Patroni (as the postgres user), with
               `synchronous_mode: true`: a COMMIT returns only once the standby has the WAL, so
               an acknowledged write is on both nodes
  HAProxy      the address Jadwal is given: TCP to whichever node answers 200 on Patroni's REST
               `/primary` (checked every second; sessions to a node marked down are cut), the
               shape docs/deploy.md describes
  Jadwal       `jadwal serve --workers 2` on `postgres://…@HAProxy/jadwal`, one account, and
               clients: CalDAV clients PUT and GET their own objects, an API client reads and
               writes (database_down.py's clients); `--instances N` starts N instances on the
               one database (the same data folder, so the same keys) and spreads the clients

Then, under that traffic:

  1  switchover  `patronictl switchover` from the leader to the standby (planned maintenance)
  2  failover    SIGKILL of the leader's Patroni and its PostgreSQL together (a lost machine); the
                 standby takes over once the leader key has expired
  3  (not --short) the killed node is started again, rejoins as the standby (pg_rewind), and a
                 switchover back to it is done under traffic as in 1

Checked, each printed PASS or FAIL with figures:

  - the cluster: a leader and a synchronous standby before each step, the other node leads after it
  - what clients saw from the step to the first success after it: answers only 2xx or 503 (a
    PUT in flight at the moment of the kill may also fail otherwise: whether its COMMIT took
    cannot be known, and the write check below allows for it), no request hung 15 s or more,
    and every client answered 2xx again within `--ttl` + 20 s of the step; the time to recover
    is printed (median over clients and the slowest)
  - Jadwal kept running the whole time (never restarted) and /readyz answers 200 after each step
  - the job workers found the new primary: two overlapping events written after the last step
    make a conflict that the API lists within 30 s
  - every write acknowledged before, during and after the steps is there with the ETag its PUT was
    answered with; a PUT answered 503 changed nothing (database_down.py's check)

Exit 1 on any failed check. `--short` (the test command's form) runs steps 1 and 2 with a few
seconds of traffic around each (about 1.5 minutes with a debug build on 2 shared cores).
"""
from __future__ import annotations

import argparse
import collections
import copy
import datetime
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import database_down as dd  # noqa: E402  (its server, sign-in, clients and write check)
from database_down import Client, Connection, Server, Session, check, check_writes, free_port, info, readyz  # noqa: E402

EMAIL = dd.EMAIL
HANG_SECONDS = 15
SUPERUSER_PASSWORD = "failover-superuser"
REPLICATION_PASSWORD = "failover-replication"


def pgbin() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))
    if not found:
        raise RuntimeError("no PostgreSQL in /usr/lib/postgresql (scripts/postgres.sh installs it)")
    return found[-1]


def ensure_packages() -> None:
    missing = [package for package, command in (("patroni", "patroni"), ("etcd-server", "etcd"), ("haproxy", "haproxy"),
                                                ("postgresql", None))
               if (command and shutil.which(command) is None and not Path(f"/usr/sbin/{command}").exists())
               or (command is None and not list(Path("/usr/lib/postgresql").glob("*/bin/postgres")))]
    if not missing:
        return
    print(f"installing {', '.join(missing)} from Debian's packages…", flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env, capture_output=True)
    subprocess.run(["apt-get", "install", "-y", "-qq", *missing], check=True, env=env, capture_output=True)


def as_postgres(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.getuid() == 0 else cmd


class Node:
    def __init__(self, name: str, folder: Path):
        self.name = name
        self.data = folder / name / "data"
        self.pg_port, self.rest_port = free_port(), free_port()
        self.config = folder / f"{name}.yml"
        self.log = folder / f"{name}.log"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with self.log.open("a") as log:
            self.process = subprocess.Popen(as_postgres(["patroni", str(self.config)]), stdout=log, stderr=subprocess.STDOUT,
                                            start_new_session=True)

    def kill(self) -> None:
        """Patroni and the PostgreSQL it runs, together: the machine is gone."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)
        # PostgreSQL's postmaster stays in Patroni's session; anything left of it goes too.
        subprocess.run(["pkill", "-KILL", "-f", f"postgres.*{self.data}"], capture_output=True)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
        self.kill()  # whatever did not stop, and any PostgreSQL left behind

    def leads(self) -> bool:
        """Patroni's REST API answers 200 on /primary (HAProxy's check) only on the leader."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.rest_port}/primary", timeout=2) as answer:
                return answer.status == 200
        except Exception:
            return False


class Cluster:
    """etcd, two Patroni nodes and HAProxy in front of them."""

    def __init__(self, folder: Path, ttl: int):
        self.folder, self.ttl = folder, ttl
        self.etcd_port, self.etcd_peer = free_port(), free_port()
        self.proxy_port = free_port()
        self.nodes = [Node("pg1", folder), Node("pg2", folder)]
        self.etcd: subprocess.Popen | None = None
        self.proxy: subprocess.Popen | None = None

    @property
    def database_url(self) -> str:
        return f"postgres://jadwal:jadwal@127.0.0.1:{self.proxy_port}/jadwal"

    def node_config(self, node: Node) -> dict:
        return {
            "scope": "jadwal-failover",
            "name": node.name,
            "restapi": {"listen": f"127.0.0.1:{node.rest_port}", "connect_address": f"127.0.0.1:{node.rest_port}"},
            "etcd3": {"hosts": f"127.0.0.1:{self.etcd_port}"},
            "bootstrap": {
                "dcs": {
                    "ttl": self.ttl, "loop_wait": 1, "retry_timeout": max(2, self.ttl // 3),
                    "maximum_lag_on_failover": 1048576,
                    "synchronous_mode": True,
                    "postgresql": {"use_pg_rewind": True, "parameters": {
                        "max_connections": 200, "wal_level": "replica", "hot_standby": "on", "wal_log_hints": "on",
                        "max_wal_senders": 10, "max_replication_slots": 10, "wal_keep_size": "128MB"}},
                },
                "initdb": [{"encoding": "UTF8"}, {"locale": "C.UTF-8"}],
            },
            "postgresql": {
                "listen": f"127.0.0.1:{node.pg_port}",
                "connect_address": f"127.0.0.1:{node.pg_port}",
                "data_dir": str(node.data),
                "bin_dir": str(pgbin()),
                "pgpass": str(self.folder / node.name / "pgpass"),
                "authentication": {
                    "superuser": {"username": "postgres", "password": SUPERUSER_PASSWORD},
                    "replication": {"username": "replicator", "password": REPLICATION_PASSWORD},
                    "rewind": {"username": "postgres", "password": SUPERUSER_PASSWORD},
                },
                "parameters": {"unix_socket_directories": str(self.folder / node.name)},
                "pg_hba": ["local all all trust",
                           "host replication replicator 127.0.0.1/32 scram-sha-256",
                           "host all all 127.0.0.1/32 scram-sha-256"],
            },
        }

    def proxy_config(self) -> str:
        servers = "\n".join(f"    server {n.name} 127.0.0.1:{n.pg_port} check port {n.rest_port}" for n in self.nodes)
        return f"""global
    maxconn 400
    stats socket {self.folder / "haproxy.sock"} mode 600 level user
defaults
    mode tcp
    timeout connect 2s
    timeout client 30m
    timeout server 30m
    timeout check 2s
listen primary
    bind 127.0.0.1:{self.proxy_port}
    option httpchk OPTIONS /primary
    http-check expect status 200
    default-server inter 1s fall 2 rise 2 on-marked-down shutdown-sessions
{servers}
"""

    def start(self) -> float:
        began = time.monotonic()
        if os.getuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        with (self.folder / "etcd.log").open("w") as log:
            self.etcd = subprocess.Popen(
                ["etcd", "--name", "e1", "--data-dir", str(self.folder / "etcd"),
                 "--listen-client-urls", f"http://127.0.0.1:{self.etcd_port}",
                 "--advertise-client-urls", f"http://127.0.0.1:{self.etcd_port}",
                 "--listen-peer-urls", f"http://127.0.0.1:{self.etcd_peer}",
                 "--initial-advertise-peer-urls", f"http://127.0.0.1:{self.etcd_peer}",
                 "--initial-cluster", f"e1=http://127.0.0.1:{self.etcd_peer}"],
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self.wait(lambda: self.etcd_ready(), 30, "etcd answers")
        for node in self.nodes:
            # JSON is YAML: Patroni reads it as its configuration file.
            node.config.write_text(json.dumps(self.node_config(node), indent=1))
            (self.folder / node.name).mkdir()
            if os.getuid() == 0:
                shutil.chown(self.folder / node.name, "postgres", "postgres")
                shutil.chown(node.config, "postgres", "postgres")
        self.nodes[0].start()
        self.wait(lambda: self.nodes[0].leads(), 90, "pg1 leads")
        self.nodes[1].start()
        self.wait(lambda: self.synchronous(), 120, "pg2 streams from pg1 as its synchronous standby")
        (self.folder / "haproxy.cfg").write_text(self.proxy_config())
        with (self.folder / "haproxy.log").open("w") as log:
            self.proxy = subprocess.Popen(["haproxy", "-db", "-f", str(self.folder / "haproxy.cfg")],
                                          stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        leader = self.leader()
        self.psql(leader, "CREATE ROLE jadwal LOGIN PASSWORD 'jadwal'", "CREATE DATABASE jadwal OWNER jadwal")
        # HAProxy counts every server up until its checks say otherwise: wait until only the
        # leader is, or a first write may land on the standby.
        self.wait(lambda: self.proxy_servers_up() == [leader.name] and self.through_proxy(), 30, "HAProxy sends to the leader only")
        return time.monotonic() - began

    def proxy_servers_up(self) -> list[str]:
        """The servers HAProxy's stats socket reports UP, by name."""
        try:
            with socket.socket(socket.AF_UNIX) as control:
                control.settimeout(2)
                control.connect(str(self.folder / "haproxy.sock"))
                control.sendall(b"show stat\n")
                answer = b""
                while chunk := control.recv(65536):
                    answer += chunk
        except OSError:
            return []
        rows = [line.split(",") for line in answer.decode(errors="replace").splitlines() if line.startswith("primary,")]
        return sorted(row[1] for row in rows if len(row) > 17 and row[1] in {n.name for n in self.nodes} and row[17].startswith("UP"))

    def etcd_ready(self) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.etcd_port}/health", timeout=2) as answer:
                return json.load(answer).get("health") in ("true", True)
        except Exception:
            return False

    def psql(self, node: Node, *commands: str) -> str:
        args = [str(pgbin() / "psql"), "-X", "-q", "-At", "-h", str(self.folder / node.name), "-p", str(node.pg_port), "-U", "postgres",
                "-d", "postgres"]
        for command in commands:
            args += ["-c", command]
        done = subprocess.run(as_postgres(args), capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(f"psql on {node.name}: {done.stderr.strip()}")
        return done.stdout

    def through_proxy(self) -> bool:
        done = subprocess.run([str(pgbin() / "psql"), "-X", "-At", self.database_url, "-c", "SELECT pg_is_in_recovery()"],
                              capture_output=True, text=True, timeout=10)
        return done.returncode == 0 and done.stdout.strip() == "f"

    def members(self) -> list[dict]:
        for node in self.nodes:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{node.rest_port}/cluster", timeout=2) as answer:
                    return json.load(answer).get("members", [])
            except Exception:
                continue
        return []

    def leader(self) -> Node:
        names = [m["name"] for m in self.members() if m.get("role") == "leader"]
        return next(n for n in self.nodes if names and n.name == names[0])

    def standby(self) -> Node:
        leader = self.leader()
        return next(n for n in self.nodes if n is not leader)

    def synchronous(self) -> bool:
        members = self.members()
        roles = sorted(m.get("role", "") for m in members)
        return roles == ["leader", "sync_standby"] and all(m.get("state") in ("running", "streaming") for m in members)

    def describe(self) -> str:
        return ", ".join(f"{m['name']} {m.get('role')} {m.get('state')}" for m in self.members()) or "no member answers"

    def switchover(self, to: Node) -> None:
        leader = self.leader()
        done = subprocess.run(["patronictl", "-c", str(leader.config), "switchover", "--leader", leader.name,
                               "--candidate", to.name, "--force"], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"patronictl switchover: {done.stdout}{done.stderr}")

    @staticmethod
    def wait(condition, limit: float, what: str) -> float:
        began = time.monotonic()
        while time.monotonic() - began < limit:
            if condition():
                return time.monotonic() - began
            time.sleep(0.2)
        raise RuntimeError(f"not within {limit:.0f} s: {what}")

    def stop(self) -> None:
        if self.proxy and self.proxy.poll() is None:
            self.proxy.kill()
        for node in self.nodes:
            node.stop()
        if self.etcd and self.etcd.poll() is None:
            self.etcd.kill()


def step_report(name: str, step_began: float, clients: list[Client], limit: float, servers: list[Server],
                already_unknown: int) -> None:
    """What clients saw from the step's start on: answers, hangs, and when each was served again."""
    during = [r for c in clients for r in c.requests if (r.answered or 1e18) >= step_began]
    counts = collections.Counter(r.outcome() if r.answered is not None else "in flight" for r in during)
    print(f"{name}: {len(during)} requests from the step on: "
          + ", ".join(f"{k} ×{v}" for k, v in sorted(counts.items())), flush=True)
    odd = [r for r in during if r.status is not None and not (200 <= r.status < 300 or r.status == 503)]
    # A PUT whose COMMIT was cut off with its connection cannot know whether it took, and says so
    # with a 500 (the server logs "COMMIT failed, the outcome is unknown" for each); the write
    # check at the end allows for either outcome. Anything else, and any read, is 2xx or 503.
    unknown = sum(one.log_text().count("COMMIT failed, the outcome is unknown") for one in servers) - already_unknown
    cut = [r for r in odd if r.method == "PUT" and r.status == 500][:max(0, unknown)]
    # A request still in flight now is the hang check's; one that failed without an answer is not.
    unexpected = [r for r in odd if r not in cut] + [r for r in during if r.status is None and r.error is not None]
    check(not unexpected, f"{name}: every answer is 2xx or 503, but {len(cut)} PUT(s) whose COMMIT was cut off with the "
                          f"connection (500, logged as of unknown outcome)"
          + "".join(f"\n      {r.kind} {r.method} {r.path}: {r.outcome()} after {r.seconds:.1f} s" for r in unexpected[:6]))
    slowest = max((r.seconds for r in during), default=0.0)
    check(slowest < HANG_SECONDS, f"{name}: no request waited {HANG_SECONDS} s or more (slowest {slowest:.1f} s)")
    recovered = []
    for client in clients:
        failed_after = [r.answered for r in client.requests if r.answered and r.answered >= step_began and not r.ok]
        last_failure = max(failed_after, default=step_began)
        good = [r.answered for r in client.requests if r.ok and r.answered and r.answered >= last_failure]
        recovered.append((min(good) - step_began) if good else None)
    ok = all(t is not None and t <= limit for t in recovered)
    shown = [f"{t:.1f}" if t is not None else "never" for t in recovered]
    check(ok, f"{name}: every client is served again within {limit:.0f} s of the step "
              f"(seconds per client: {', '.join(shown)}"
              + (f"; median {statistics.median(t for t in recovered if t is not None):.1f}" if any(t is not None for t in recovered) else "")
              + ")")


def conflict_appears(session: Session, calendar: str) -> None:
    """Two overlapping events written now: the conflict check they queue runs on the new primary."""
    connection = Connection(session.server.port, session.basic)
    # Within the conflict check's horizon (90 days ahead).
    start = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=3)).strftime("%Y%m%dT100000Z")
    for name in ("overlap-a", "overlap-b"):
        body = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Jadwal//failover//EN\r\nBEGIN:VEVENT\r\n"
                f"UID:failover-{name}\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:{start}\r\nDURATION:PT1H\r\n"
                f"SUMMARY:Failover {name}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").encode()
        status, _, _ = connection.send("PUT", calendar + name + ".ics", body, {"Content-Type": "text/calendar; charset=utf-8"})
        if status not in (201, 204):
            check(False, f"PUT {name} after the failover answered {status}")
            return
    connection.close()
    began = time.monotonic()
    found = False
    while time.monotonic() - began < 30 and not found:
        status, _, data = Connection(session.server.port, session.bearer).send("GET", "/api/v1/conflicts")
        if status == 401:
            session.refresh()
        elif status == 200:
            found = b"failover-overlap-a" in data or b"Failover overlap" in data
        if not found:
            time.sleep(0.5)
    check(found, f"the job workers use the new primary: a conflict between two events written after the failover is listed "
                 f"({time.monotonic() - began:.1f} s)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.environ.get("JADWAL_BINARY", "/var/tmp/jadwal-build/debug/jadwal"))
    parser.add_argument("--ttl", type=int, default=10, help="Patroni's leader key lifetime in seconds (default 10)")
    parser.add_argument("--clients", type=int, default=3, help="one API client and the rest CalDAV (default 3)")
    parser.add_argument("--instances", type=int, default=1,
                        help="jadwal serve instances on the one database, the clients spread over them (default 1)")
    parser.add_argument("--short", action="store_true", help="switchover and failover only, a few seconds of traffic around each")
    parser.add_argument("--keep", action="store_true", help="keep the folder (logs, data) at the end")
    args = parser.parse_args()
    args.binary = str(Path(args.binary).resolve())
    if not os.access(args.binary, os.X_OK):
        print(f"no jadwal binary at {args.binary}", file=sys.stderr)
        return 2
    settle = 3.0 if args.short else 8.0
    limit = args.ttl + 20.0
    began = time.monotonic()
    ensure_packages()
    folder = Path(tempfile.mkdtemp(prefix="jadwal-failover-"))
    cluster = Cluster(folder, args.ttl)
    servers: list[Server] = []
    clients: list[Client] = []
    stop = threading.Event()
    try:
        print(f"failover: etcd, two Patroni nodes (ttl {args.ttl} s, synchronous mode) and HAProxy in {folder}", flush=True)
        took = cluster.start()
        check(cluster.synchronous(), f"the cluster is up in {took:.1f} s: {cluster.describe()}")
        (folder / "jadwal").mkdir()
        # One data folder for every instance: they share its key files (docs/deploy.md).
        servers = [Server(args.binary, folder / "jadwal", cluster.database_url, "info", name=f"jadwal-{chr(97 + i)}")
                   for i in range(max(1, args.instances))]
        server = servers[0]
        server.cli("user", "create", EMAIL, "--name", "Dana", "--time-zone", "Asia/Riyadh")
        created = server.cli("app-password", "create", EMAIL, "--name", "failover")
        password = next(line.split(":", 1)[1].strip() for line in created.splitlines() if line.lower().startswith("password:"))
        for one in servers:
            print(f"{one.log_path.stem} ready in {one.start():.1f} s on port {one.port}, database through HAProxy at "
                  f"127.0.0.1:{cluster.proxy_port}", flush=True)
        session = Session(server, password)
        # The other instances take the same app password (Basic) and the same account; the
        # sign-in link goes out through whichever instance's worker runs the mail job, so the
        # one session is not signed in again there. Only the API client (on the first) refreshes.
        sessions = [session] + [copy.copy(session) for _ in servers[1:]]
        for other, one in zip(sessions[1:], servers[1:]):
            other.server = one
        calendar, calendar_id = dd.make_calendar(session, "Failover")
        # Client i talks to instance i mod N: with several, every instance has traffic of its own.
        clients = [Client("api", "api", session, calendar, calendar_id, stop)] + [
            Client(f"dav{i}", "caldav", sessions[i % len(sessions)], calendar, calendar_id, stop)
            for i in range(1, max(2, args.clients))]
        for client in clients:
            client.start()
        time.sleep(settle)
        before = [r for c in clients for r in c.requests if r.answered is not None]
        check(bool(before) and all(r.ok for r in before), f"before the first step every request succeeds ({len(before)} requests)")
        pids = [one.process.pid for one in servers]

        steps = [("switchover", "switchover"), ("failover", "kill")]
        if not args.short:
            steps.append(("switchover back to the rejoined node", "switchover"))
        for name, how in steps:
            if not cluster.synchronous():
                Cluster.wait(cluster.synchronous, 60, f"a leader and a synchronous standby before the {name}")
            leader, standby = cluster.leader(), cluster.standby()
            if session.refresh() != 200:
                info("a token refresh before the step failed")
            already_unknown = sum(one.log_text().count("COMMIT failed, the outcome is unknown") for one in servers)
            step_began = time.monotonic()
            if how == "switchover":
                cluster.switchover(standby)
                print(f"{name}: patronictl switched {leader.name} → {standby.name} in {time.monotonic() - step_began:.1f} s", flush=True)
            else:
                leader.kill()
                print(f"{name}: SIGKILL of {leader.name} (Patroni and PostgreSQL), the leader; {standby.name} is the synchronous standby",
                      flush=True)
            promoted = Cluster.wait(lambda: standby.leads(), limit, f"{standby.name} leads after the {name}")
            serving = Cluster.wait(lambda: cluster.proxy_servers_up() == [standby.name] and cluster.through_proxy(), limit,
                                   "HAProxy sends to the new primary only")
            print(f"{name}: {standby.name} is primary {promoted:.1f} s after the step; HAProxy reaches it after {serving:.1f} s more",
                  flush=True)
            time.sleep(settle + 2)
            step_report(name, step_began, clients, limit, servers, already_unknown)
            check(all(one.alive() for one in servers) and [one.process.pid for one in servers] == pids,
                  f"{name}: every jadwal instance kept running (the same processes)")
            ready = [readyz(one.port) for one in servers]
            check(all(r == 200 for r in ready), f"{name}: /readyz after it: {', '.join(map(str, ready))}")
            if how == "kill" and not args.short:
                leader.start()
                rejoined = Cluster.wait(cluster.synchronous, 120, f"{leader.name} rejoins as the synchronous standby")
                print(f"{leader.name} started again and rejoined as the synchronous standby in {rejoined:.1f} s: {cluster.describe()}",
                      flush=True)
        stop.set()
        for client in clients:
            client.join(timeout=dd.REQUEST_TIMEOUT + 10)
        print(f"traffic: {sum(len(c.requests) for c in clients)} requests, "
              f"{sum(1 for c in clients for w in c.writes if w.etag)} acknowledged writes", flush=True)
        for client in clients:
            for problem in client.problems:
                check(False, f"client {client.label}: {problem}")
        session.refresh()
        conflict_appears(session, calendar)
        check_writes(clients, session, calendar)
        took = [one.stop() for one in servers]
        check(all(t is not None for t in took), "jadwal stops on SIGTERM within 30 s: "
              + ", ".join(f"{t:.1f} s" if t is not None else "killed" for t in took))
    except Exception as error:  # a setup step failed: say which
        check(False, f"{type(error).__name__}: {error}")
        for one in servers:
            print(f"--- {one.log_path.stem}\n{one.log_tail()}", flush=True)
        for node in cluster.nodes:
            if node.log.exists():
                print(f"--- {node.name}\n" + "\n".join(node.log.read_text(errors="replace").splitlines()[-15:]), flush=True)
    finally:
        stop.set()
        for client in clients:
            client.join(timeout=dd.REQUEST_TIMEOUT + 10)
        for one in servers:
            one.kill()
        cluster.stop()
        if args.keep:
            print(f"kept: {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    print(f"failover: {len(dd.failures)} failed check(s) in {time.monotonic() - began:.1f} s", flush=True)
    return 1 if dd.failures else 0


if __name__ == "__main__":
    sys.exit(main())
