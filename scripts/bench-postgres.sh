#!/usr/bin/env bash
# Issue 36's figures for BENCHMARKS.md: the same release binary on SQLite and on PostgreSQL 15 (a throwaway cluster
# on loopback, scripts/postgres/throwaway.sh), in one run:
#   1. admin writes (scripts/bench-admin-write.sh): PUT of the demo policy and a stale If-Match (412);
#   2. policy fetch (scripts/bench-policy-fetch.sh, PASSES mode): each engine's server against nginx gzip_static,
#      interleaved, so the ratio of the two engines is read from neighbouring runs.
# usage: scripts/bench-postgres.sh [BINARY]   (default .build/release/prelude). Not part of .ci/run.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-$here/.build/release/prelude}
cluster=$(mktemp -d)
chmod 755 "$cluster"
trap '"$here/scripts/postgres/throwaway.sh" stop "$cluster/pg" >/dev/null 2>&1 || true; rm -rf "$cluster"' EXIT
url=$("$here/scripts/postgres/throwaway.sh" start "$cluster/pg")
database() {  # a new empty database of the cluster, by name
    psql "$url" -v ON_ERROR_STOP=1 -qc "CREATE DATABASE $1"
    echo "${url%/*}/$1"
}

echo "== admin writes (RUNS=${RUNS:-60})"
DB_postgres=$(database admin) "$here/scripts/bench-admin-write.sh" "sqlite=$binary" "postgres=$binary"

echo "== policy fetch (PASSES=${PASSES:-5}, against nginx gzip_static)"
DB_postgres=$(database policy_fetch) PASSES=${PASSES:-5} OTHERS="nginx-gzs" BINS="sqlite=$binary postgres=$binary" \
    "$here/scripts/bench-policy-fetch.sh"
