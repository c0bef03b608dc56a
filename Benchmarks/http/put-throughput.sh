#!/usr/bin/env bash
# CalDAV PUT throughput of the server itself: wrk (a C load generator, a second process) PUTs new
# events into one calendar over HTTP Basic with an app password, against a release build on
# SQLite. Benchmarks/caldav/bench.py measures the same with 8 Python clients beside Radicale and
# Xandikos; this one keeps the client's own cost out of the figure.
#
#   Benchmarks/http/put-throughput.sh [--duration 10] [--connections 8]
set -euo pipefail
cd "$(dirname "$0")/../.."

duration=10; connections=8
while [[ $# -gt 0 ]]; do
    case "$1" in
        --duration) duration=$2; shift ;;
        --connections) connections=$2; shift ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
build_path=${JADWAL_BUILD_PATH:-/var/tmp/jadwal-build}
swift build -c release --product jadwal --scratch-path "$build_path" >&2
binary="$build_path/release/jadwal"

work=$(mktemp -d /tmp/jadwal-put.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$binary" user create bench@example.com --data-dir "$work/data" >/dev/null
password=$("$binary" app-password create bench@example.com --name wrk --data-dir "$work/data" | sed -n 's/^password: *//p')
"$binary" serve --port "$port" --data-dir "$work/data" --workers 0 --log-level warning >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.1; done

auth="Basic $(printf '%s' "bench@example.com:$password" | base64 -w0)"
principal=$(curl -fs -X PROPFIND -H "Depth: 0" -H "Authorization: $auth" \
    -d '<d:propfind xmlns:d="DAV:"><d:prop><d:current-user-principal/></d:prop></d:propfind>' \
    "http://127.0.0.1:$port/dav/" | grep -o '/dav/principals/[^<]*')
calendar="/dav/calendars/$(basename "$principal")/personal/"

echo "jadwal release, SQLite, wrk $connections connections on the same 2 cores, ${duration}s, $(date -u +%F)"
CALENDAR="$calendar" AUTH="$auth" wrk -t 2 -c "$connections" -d "${duration}s" --latency -s Benchmarks/http/put-events.lua \
    "http://127.0.0.1:$port" | grep '^PUT '
count=$(curl -fs -X PROPFIND -H "Depth: 1" -H "Authorization: $auth" \
    -d '<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>' "http://127.0.0.1:$port$calendar" | grep -o '<d:getetag>' | wc -l)
echo "objects in the calendar afterwards: $count"
