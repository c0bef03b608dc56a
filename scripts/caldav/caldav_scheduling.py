#!/usr/bin/env python3
"""Run python caldav's own RFC 6638 scheduling tests against Jadwal with three accounts.

python caldav ships its integration tests in its source distribution, not in the wheel the venv
installs. This script fetches the source distribution of the very version installed (with pip,
once; cached in $JADWAL_CALDAV_SDIST_DIR, default /var/tmp/jadwal-caldav-sdist), starts Jadwal
(servers.py) with alice@, bob@ and carol@example.com, describes that server to the test suite as
an external test server with `scheduling_users` (the suite's own way to run its scheduling tests
against a server), and runs `pytest tests/test_caldav.py -k TestSchedulingForServer` with the
embedded and Docker test servers turned off.

The features declared for the server are the ones caldav-server-tester observes on Jadwal
(scheduling, mailboxes, inbox delivery, automatic scheduling, busy-time queries, Schedule-Tag,
a Schedule-Tag kept across an answer); a test the suite skips for another reason is listed.

  caldav_scheduling.py --jadwal-binary .build/debug/jadwal

Ends with `caldav-scheduling: N passed, M skipped, K failed`; exit 1 when a test failed, when
none passed, or when fewer than --min-passed passed.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import re
import subprocess
import sys
import tarfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import servers  # noqa: E402

FEATURES = {
    "scheduling": {"support": "full"},
    "scheduling.mailbox": {"support": "full"},
    "scheduling.calendar-user-address-set": {"support": "full"},
    "scheduling.mailbox.inbox-delivery": {"support": "full"},
    "scheduling.auto-schedule": {"support": "full"},
    "scheduling.freebusy-query": {"support": "full"},
    "scheduling.schedule-tag": {"support": "full"},
    "scheduling.schedule-tag.stable-partstat": {"support": "full"},
}


def source_tree(cache: Path) -> Path:
    """The unpacked source distribution of the installed caldav, fetched once."""
    version = importlib.metadata.version("caldav")
    tree = cache / f"caldav-{version}"
    if (tree / "tests" / "test_caldav.py").exists():
        return tree
    cache.mkdir(parents=True, exist_ok=True)
    archive = cache / f"caldav-{version}.tar.gz"
    if not archive.exists():
        result = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:", f"caldav=={version}", "-d", str(cache)],
            capture_output=True, text=True, timeout=300)
        if result.returncode != 0 or not archive.exists():
            raise SystemExit(f"caldav-scheduling: could not fetch the caldav {version} source distribution:\n{result.stdout}{result.stderr}")
    with tarfile.open(archive) as tar:
        tar.extractall(cache, filter="data")
    return tree


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jadwal-binary", required=True)
    parser.add_argument("--min-passed", type=int, default=6, help="fewer passing tests than this fails the run")
    parser.add_argument("--timeout", type=float, default=900)
    args = parser.parse_args(argv)

    tree = source_tree(Path(os.environ.get("JADWAL_CALDAV_SDIST_DIR", "/var/tmp/jadwal-caldav-sdist")))
    with servers.start_server("jadwal", jadwal_binary=args.jadwal_binary, extra_users=2) as server:
        users = [(server.username, server.password)] + server.extra_users
        accounts = [{"url": server.base_url, "username": name, "password": password, "features": FEATURES} for name, password in users]
        config = {"test-servers": {"jadwal": {
            "type": "external", "enabled": True, "name": "Jadwal", "url": server.base_url, "username": server.username,
            "password": server.password, "features": FEATURES, "scheduling_users": accounts,
        }}}
        # The suite reads tests/caldav_test_servers.json from the directory it runs in.
        (tree / "tests" / "caldav_test_servers.json").write_text(json.dumps(config, indent=2))
        env = dict(os.environ, PYTHON_CALDAV_TEST_EMBEDDED="0", PYTHON_CALDAV_TEST_DOCKER="0", PYTHON_CALDAV_TEST_EXTERNAL="1")
        env.pop("CALDAV_CONFIG_FILE", None)
        cmd = [sys.executable, "-m", "pytest", "tests/test_caldav.py", "-k", "TestSchedulingForServer", "-p", "no:cacheprovider",
               "-q", "-rA", "--no-header", "-o", "addopts=",
               # The suite's pytest settings turn warnings into errors; pytest-asyncio warns when this is unset.
               "-o", "asyncio_default_fixture_loop_scope=function"]
        print(f"caldav-scheduling: python caldav {importlib.metadata.version('caldav')}'s scheduling tests against {server.base_url} "
              f"({', '.join(name for name, _ in users)})", flush=True)
        try:
            result = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            print(f"caldav-scheduling: the tests did not finish within {args.timeout:.0f} s", file=sys.stderr)
            return 1
        output = result.stdout + result.stderr
        if result.returncode not in (0, 1):
            print(output[-4000:])
            print(f"caldav-scheduling: pytest exited {result.returncode}; server log tail:\n{server.log_tail(20)}", file=sys.stderr)
            return 1
    for line in output.splitlines():
        if line.startswith(("PASSED", "FAILED", "SKIPPED", "ERROR")):
            print("  " + line)
    counts = {word: int(number) for number, word in re.findall(r"(\d+) (passed|failed|skipped|errors?)", output.splitlines()[-1] if output else "")}
    passed, failed = counts.get("passed", 0), counts.get("failed", 0) + counts.get("error", 0) + counts.get("errors", 0)
    skipped = counts.get("skipped", 0)
    if failed:
        print(output[-6000:])
    print(f"caldav-scheduling: {passed} passed, {skipped} skipped, {failed} failed")
    return 1 if failed or passed == 0 or passed < args.min_passed else 0


if __name__ == "__main__":
    sys.exit(main())
