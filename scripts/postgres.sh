#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on a loopback port, for the storage tests.
#   scripts/postgres.sh start DIR   initdb + start in DIR; prints the database URL
#   scripts/postgres.sh stop DIR    stop it and delete DIR
#   scripts/postgres.sh pause DIR   stop it (pg_ctl stop -m fast) and keep DIR: the database goes away
#   scripts/postgres.sh resume DIR  start it again on the same port (kept in DIR/port)
# Installs Debian's postgresql package when it is missing.
set -euo pipefail

cmd=${1:-}; dir=${2:-}
[[ -n "$cmd" && -n "$dir" ]] || { echo "usage: $0 start|stop|pause|resume DIR" >&2; exit 2; }

pgbin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }
as_pg() { if [[ "$(id -u)" == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }
# Starts the cluster in $dir on port $1 (start, and resume on the port start chose).
pg_start() {
    as_pg "$PGBIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-p $1 -k $dir -c listen_addresses=127.0.0.1 -c max_connections=600 -c fsync=off -c synchronous_commit=off" start >&2 \
        || { cat "$dir/server.log" >&2; exit 1; }
}

case "$cmd" in
start)
    PGBIN=$(pgbin)
    if [[ ! -x "$PGBIN/initdb" ]]; then
        echo "installing postgresql from Debian's packages…" >&2
        apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
        PGBIN=$(pgbin)
    fi
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    mkdir -p "$dir"
    [[ "$(id -u)" == 0 ]] && chown postgres:postgres "$dir"
    as_pg "$PGBIN/initdb" -D "$dir/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    echo "$port" >"$dir/port"
    # Many tests run at once, each with its own database and connection pool.
    pg_start "$port"
    as_pg "$PGBIN/psql" -q -h "$dir" -p "$port" -U postgres \
        -c "CREATE ROLE jadwal LOGIN CREATEDB PASSWORD 'jadwal'" -c "CREATE DATABASE jadwal OWNER jadwal" >&2
    echo "postgres://jadwal:jadwal@127.0.0.1:$port/jadwal"
    ;;
stop)
    PGBIN=$(pgbin)
    if [[ -d "$dir/data" ]]; then
        as_pg "$PGBIN/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
pause)
    PGBIN=$(pgbin)
    [[ -f "$dir/port" && -d "$dir/data" ]] || { echo "$dir: no cluster made by '$0 start'" >&2; exit 1; }
    as_pg "$PGBIN/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >&2
    ;;
resume)
    PGBIN=$(pgbin)
    [[ -f "$dir/port" && -d "$dir/data" ]] || { echo "$dir: no cluster made by '$0 start'" >&2; exit 1; }
    pg_start "$(cat "$dir/port")"
    ;;
*)
    echo "usage: $0 start|stop|pause|resume DIR" >&2; exit 2 ;;
esac
