#!/usr/bin/env bash
# Authenticated GET /api/v1/me on loopback: latency percentiles and requests/s, measured by wrk
# (a second process) against a release build of jadwal on SQLite (or PostgreSQL with
# --database-url). /healthz is measured in the same run as the no-database baseline.
#
#   Benchmarks/http/me-latency.sh [--debug] [--duration 20] [--connections 32] [--database-url URL]
#
# Each /me request verifies the HS256 access token and reads the session and account from the
# database (so a signed-out session is refused at once).
set -euo pipefail
cd "$(dirname "$0")/../.."

config=release; duration=20; connections=32; database_url=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --debug) config=debug ;;
        --duration) duration=$2; shift ;;
        --connections) connections=$2; shift ;;
        --database-url) database_url=$2; shift ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
build_path=${JADWAL_BUILD_PATH:-/var/tmp/jadwal-build}
swift build -c "$config" --product jadwal --scratch-path "$build_path" >&2
binary="$build_path/$config/jadwal"

work=$(mktemp -d /tmp/jadwal-bench.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
args=(serve --port "$port" --data-dir "$work/data" --log-level notice)
[[ -n "$database_url" ]] && args+=(--database-url "$database_url")
"$binary" "${args[@]}" >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.1; done

curl -fs -X POST -H 'Content-Type: application/json' -d '{"email": "bench@example.com"}' "http://127.0.0.1:$port/api/v1/auth/email" >/dev/null
token=""
for _ in $(seq 100); do
    token=$(grep -o 'auth/magic?token=[A-Za-z0-9_-]*' "$work/server.log" | head -1 | cut -d= -f2 || true)
    [[ -n "$token" ]] && break; sleep 0.1
done
[[ -n "$token" ]] || { echo "no sign-in link in the server log" >&2; cat "$work/server.log" >&2; exit 1; }
access=$(curl -fs -X POST -H 'Content-Type: application/json' -d "{\"token\": \"$token\"}" "http://127.0.0.1:$port/api/v1/auth/magic" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])')
curl -fs -H "Authorization: Bearer $access" "http://127.0.0.1:$port/api/v1/me" >/dev/null

measure() {
    local name=$1 conns=$2; shift 2
    local out threads=2
    [[ "$conns" -lt 2 ]] && threads=1
    out=$(wrk -t"$threads" -c"$conns" -d"${duration}s" --latency "$@")
    local rps p50 p99 errors
    rps=$(awk '/^Requests\/sec/ {print $2}' <<<"$out")
    p50=$(awk '$1=="50%" {print $2}' <<<"$out")
    p99=$(awk '$1=="99%" {print $2}' <<<"$out")
    errors=$(grep -E 'Non-2xx|Socket errors' <<<"$out" || true)
    printf '%-22s %3s conn  %10s req/s   p50 %8s   p99 %8s   %s\n' "$name" "$conns" "$rps" "$p50" "$p99" "$errors"
}

engine=${database_url:+PostgreSQL}; engine=${engine:-SQLite}
echo "jadwal $config build, $engine, wrk on the same $(nproc) cores, ${duration}s per row, $(date -u +%Y-%m-%d)"
for conns in 1 "$connections"; do
    measure "GET /healthz" "$conns" "http://127.0.0.1:$port/healthz"
    measure "GET /api/v1/me (auth)" "$conns" -H "Authorization: Bearer $access" "http://127.0.0.1:$port/api/v1/me"
done
