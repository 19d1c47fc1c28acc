#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for tests and benchmarks: initdb in a temporary directory, a free port on
# 127.0.0.1, trust authentication for the local user, fsync on (durability tests need it).
#
#   scripts/postgres/throwaway.sh start DIR   # prints the URL: postgres://prelude@127.0.0.1:PORT/prelude
#   scripts/postgres/throwaway.sh stop DIR    # stops the server and removes DIR
#   scripts/postgres/throwaway.sh crash DIR   # stops the server at once (as a crash: -m immediate), keeps DIR
#   scripts/postgres/throwaway.sh resume DIR  # starts the crashed server again on the same port
#
# The server refuses to run as root, so as root it runs as the `postgres` user (DIR is handed to it).
set -euo pipefail

bin="${PG_BIN:-/usr/lib/postgresql/15/bin}"
command="${1:?usage: throwaway.sh start|stop|crash|resume DIR}"
dir="${2:?usage: throwaway.sh start|stop DIR}"

# The server must not keep the caller's descriptors: a caller that waits for a pipe's end, or (Foundation's Process
# on Linux) for a descriptor to close to learn that this script exited, would wait as long as the cluster runs.
close_inherited_descriptors() {
    local fd
    for fd in $(ls /proc/$$/fd); do
        if ((fd > 2)); then eval "exec $fd>&-" 2>/dev/null || true; fi
    done
}

as_owner() {
    if [[ "$(id -u)" == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

case "$command" in
start | resume) close_inherited_descriptors ;;
esac

case "$command" in
start)
    if [[ ! -x "$bin/initdb" ]]; then
        echo "throwaway.sh: PostgreSQL 15 is not installed ($bin/initdb); apt-get install postgresql-15" >&2
        exit 69
    fi
    mkdir -p "$dir"
    if [[ "$(id -u)" == 0 ]]; then chown postgres "$dir"; fi
    as_owner "$bin/initdb" -D "$dir/data" -U prelude --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    port="$(free_port)"
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=on" start >/dev/null \
        || { cat "$dir/server.log" >&2; exit 1; }
    as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U prelude prelude
    echo "$port" >"$dir/port"
    echo "postgres://prelude@127.0.0.1:$port/prelude"
    ;;
crash)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null
    ;;
resume)
    port="$(cat "$dir/port")"
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=on" start >/dev/null \
        || { cat "$dir/server.log" >&2; exit 1; }
    ;;
stop)
    if [[ -d "$dir/data" ]]; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: throwaway.sh start|stop|crash|resume DIR" >&2
    exit 64
    ;;
esac
