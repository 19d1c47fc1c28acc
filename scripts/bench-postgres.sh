#!/usr/bin/env bash
# Issue 36's figures for BENCHMARKS.md: the same release binary on SQLite and on PostgreSQL 15 (a throwaway cluster
# on loopback, scripts/postgres/throwaway.sh), in one run:
#   1. admin writes (scripts/bench-admin-write.sh): PUT of the demo policy and a stale If-Match (412);
#   2. policy fetch (scripts/bench-policy-fetch.sh, PASSES mode): each engine's server against nginx gzip_static,
#      interleaved, so the ratio of the two engines is read from neighbouring runs;
#   3. events (scripts/bench-events.sh, tagged batches of 100): per pass, SQLite then PostgreSQL, each at every count
#      of EVENT_CONNECTIONS (wrk is a closed loop: the connection count is the load knob); the highest rate whose p99
#      is under 50 ms, per engine and pass, then the medians over passes and their ratio;
#   4. start-up with 1,000 apps (scripts/bench-apps.sh with PG_URL: the SQLite database moved with `prelude copy`);
#   5. idle RSS (scripts/bench-idle-rss.sh), SQLite and PostgreSQL alternating, a new database each time.
# usage: scripts/bench-postgres.sh [BINARY]   (default .build/release/prelude). Not part of .ci/run.
# Settings: PARTS="admin fetch events apps rss", ADMIN_PASSES=1 (RUNS each), EVENT_PASSES=3,
# EVENT_CONNECTIONS_sqlite="1 2 4 8 16 32", EVENT_CONNECTIONS_postgres="1 2 4 8", EVENT_DURATION=8, APP_PASSES=3,
# RSS_PASSES=5.
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

PARTS=${PARTS:-admin fetch events apps rss}
part() { [[ " $PARTS " == *" $1 "* ]]; }

if part admin; then
    for pass in $(seq "${ADMIN_PASSES:-1}"); do
        echo "== admin writes (RUNS=${RUNS:-60}, pass $pass)"
        DB_postgres=$(database "admin_$pass") "$here/scripts/bench-admin-write.sh" "sqlite=$binary" "postgres=$binary"
    done
fi

if part fetch; then
    echo "== policy fetch (PASSES=${PASSES:-5}, against nginx gzip_static)"
    DB_postgres=$(database policy_fetch) PASSES=${PASSES:-5} OTHERS="nginx-gzs" BINS="sqlite=$binary postgres=$binary" \
        "$here/scripts/bench-policy-fetch.sh"
fi

if part events; then
    declare -A connections=([sqlite]="${EVENT_CONNECTIONS_sqlite:-1 2 4 8 16 32}" [postgres]="${EVENT_CONNECTIONS_postgres:-1 2 4 8}")
    echo "== events (tagged, EVENT_PASSES=${EVENT_PASSES:-3}, connections: SQLite ${connections[sqlite]}," \
        "PostgreSQL ${connections[postgres]}; ${EVENT_DURATION:-8} s each)"
    rows=$cluster/events.md
    for pass in $(seq "${EVENT_PASSES:-3}"); do
        for engine in sqlite postgres; do
            pg=""; [[ $engine == postgres ]] && pg=$url
            PG_URL=$pg BENCH_BIN=$binary MODES=tagged CONNECTIONS="${connections[$engine]}" \
                DURATION=${EVENT_DURATION:-8} "$here/scripts/bench-events.sh" | sed "s/^| $engine |/| $pass | $engine |/" \
                | grep "^| $pass |" | tee -a "$rows"
        done
    done
    python3 - "$rows" <<'PY'
import statistics, sys
# Rows: | pass | engine | mode | connections | seconds | batches | events/s | p50 | p90 | p99 | max | cpu | sent | stored | check |
best, runs = {}, set()
for line in open(sys.argv[1]):
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    run, engine, connections, rate, p99 = cells[0], cells[1], int(cells[3]), float(cells[6].replace(",", "")), float(cells[9])
    runs.add(run)
    if p99 < 50 and rate > best.get((engine, run), (0, 0))[0]:
        best[(engine, run)] = (rate, connections)
medians = {}
for engine in ("sqlite", "postgres"):
    # A pass where no connection count kept p99 under 50 ms counts as 0 events/s.
    picks = [best.get((engine, run), (0, 0)) for run in sorted(runs)]
    print(f"{engine}: highest events/s with p99 < 50 ms per pass: "
          + ", ".join(f"{rate:,.0f} (-c{c})" if c else "none" for rate, c in picks))
    medians[engine] = statistics.median(rate for rate, _ in picks)
    print(f"{engine}: median {medians[engine]:,.0f} events/s")
if medians["sqlite"]:
    print(f"postgres / sqlite: {medians['postgres'] / medians['sqlite']:.2f}")
PY
fi

if part apps; then
    for pass in $(seq "${APP_PASSES:-3}"); do
        echo "== start-up with 1,000 apps (pass $pass)"
        APPS=1000 PG_URL=$url OUT=$cluster/apps "$here/scripts/bench-apps.sh" "$binary" 2>/dev/null
    done
fi

if part rss; then
    echo "== idle RSS (kB) and libcurl/libssl mappings, SQLite and PostgreSQL alternating"
    for pass in $(seq "${RSS_PASSES:-5}"); do
        echo "pass $pass sqlite $("$here/scripts/bench-idle-rss.sh" "$binary")"
        echo "pass $pass postgres $("$here/scripts/bench-idle-rss.sh" "$binary" "$(database "rss_$pass")")"
    done
fi
