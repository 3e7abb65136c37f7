#!/usr/bin/env bash
# A throwaway PostgreSQL server on loopback for the session-store tests and benchmarks, from
# Debian's postgresql package (installed here when missing and apt-get can).
#
#   eval "$(scripts/test-postgres.sh start [PORT])"   # exports STROKEKIT_TEST_POSTGRES=postgres://...
#   scripts/test-postgres.sh stop [PORT]
#
# The cluster lives in /tmp/strokekit-postgres-PORT (trust authentication, 127.0.0.1 only)
# and is deleted by stop. Prints a message on stderr and exits 1 when PostgreSQL cannot run.
set -euo pipefail
action=${1:-start}
port=${2:-55432}
data=/tmp/strokekit-postgres-$port

as_owner() {
    # postgres refuses to run as root: use Debian's postgres user then.
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

bin_dir() {
    ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1
}

case "$action" in
start)
    if [ -z "$(bin_dir)" ]; then
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; } >/dev/null 2>&1 \
            || { echo "test-postgres: postgresql is not installed and could not be installed" >&2; exit 1; }
    fi
    bin=$(bin_dir)
    if [ ! -f "$data/PG_VERSION" ]; then
        rm -rf "$data"
        mkdir -p "$data"
        [ "$(id -u)" = 0 ] && chown postgres "$data"
        as_owner "$bin/initdb" -D "$data" -A trust -U strokekit >"$data.initdb.log" 2>&1 \
            || { echo "test-postgres: initdb failed (see $data.initdb.log)" >&2; exit 1; }
    fi
    if ! as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
        as_owner "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w \
            -o "-p $port -k $data -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null \
            || { echo "test-postgres: the server did not start (see $data/server.log)" >&2; exit 1; }
    fi
    echo "export STROKEKIT_TEST_POSTGRES=postgres://strokekit@127.0.0.1:$port/postgres"
    ;;
stop)
    bin=$(bin_dir)
    if [ -n "$bin" ] && [ -d "$data" ]; then
        as_owner "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$data" "$data.initdb.log"
    ;;
*)
    echo "usage: $0 start|stop [PORT]" >&2
    exit 2
    ;;
esac
