#!/usr/bin/env bash
# The policy-fetch record of issue 16, side by side in one run: the resolved policy (gzip, keep-alive, wrk -c32, server
# pinned to CPU 0 and wrk to CPU 1) from each given `prelude` binary, then the bare engine, nginx gzip_static and
# Hummingbird serving the bytes the first binary served; rounds interleaved. Per prelude binary also the same fetch
# with a different installId on every request (Benchmarks/wrk/installs.lua, 100,000 installs). Idle RSS after three
# requests and RSS after the load run, for every server (nginx: master + workers).
#
# Usage: BINS="before=/path/prelude after=.build/release/prelude" scripts/bench-policy-fetch.sh
# Settings: ROUNDS=3, DUR=5s, OTHERS="bare nginx-gzs hummingbird", OUT=/tmp/prelude-bench/policy-fetch,
#   PEERS_DIR (built peers, default /tmp/prelude-bench/peers: `scripts/bench.sh build` builds Hummingbird there).
# Needs wrk, nginx, taskset; the bare engine is Benchmarks' prelude-bench-server (release). Loopback only; every
# run bounded by -d. Not part of .ci/run (benchmarks never are).
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BINS=${BINS:-"after=$ROOT/.build/release/prelude"}
ROUNDS=${ROUNDS:-3}
DUR=${DUR:-5s}
OTHERS=${OTHERS:-"bare nginx-gzs hummingbird"}
OUT=${OUT:-/tmp/prelude-bench/policy-fetch}
PEERS_DIR=${PEERS_DIR:-/tmp/prelude-bench/peers}
PEERS_SRC=${PEERS_SRC:-$ROOT/../shared/bench/peers}
BARE_BIN=${BARE_BIN:-$ROOT/Benchmarks/.build/release/prelude-bench-server}
HUMMINGBIRD_BIN=${HUMMINGBIRD_BIN:-$PEERS_DIR/swift/peer-hummingbird/.build/release/peer-hummingbird}
rm -rf "$OUT"
mkdir -p "$OUT/fixture"
QUERY="platform=ios&os=17.4&appVersion=2.3.0&locale=fr-CA&installId=8C1F0A2E"

rss() { local total=0 p; for p in "$@"; do total=$((total + $(awk '/VmRSS/{print $2}' "/proc/$p/status"))); done; echo "$total"; }
wait_up() { local i; for i in $(seq 100); do curl -s -o /dev/null "$1" && return 0; sleep 0.1; done; echo "never up: $1" >&2; return 1; }
summary() { # label file
    awk -v l="$1" '/Requests\/sec/ {r=$2} / 50%/ {p50=$2} / 99%/ {p99=$2} /Non-2xx/ {e=$NF}
        END {printf "%s\treq/s %s\tp50 %s\tp99 %s\tnon-2xx %s\n", l, r, p50, p99, (e == "" ? 0 : e)}' "$2"
}
measure() { # label url [wrk args...]
    local label="$1" url="$2"; shift 2
    taskset -c 1 wrk -t1 -c32 -d2s -H 'Accept-Encoding: gzip' "$@" "$url" >/dev/null 2>&1
    taskset -c 1 wrk -t1 -c32 -d"$DUR" --latency -H 'Accept-Encoding: gzip' "$@" "$url" >"$OUT/$label.txt" 2>&1
    summary "$label" "$OUT/$label.txt"
}

# The starters set STARTED (the server's pid; for nginx its master's) and wait until the server answers.
start_prelude() { # binary port database
    rm -f "$3"*
    (cd "$ROOT" && env PRELUDE_PORT="$2" PRELUDE_DATABASE="$3" PRELUDE_DEMO_POLICY="$ROOT/config/demo-policy.json" \
        PRELUDE_LOG_LEVEL=warning taskset -c 0 "$1" serve) >>"$OUT/server.log" 2>&1 &
    STARTED=$!
    wait_up "http://127.0.0.1:$2/readyz"
}
capture_fixture() { # url: the bytes every other server serves, from the first prelude binary
    [[ -f "$OUT/fixture/policy.json.gz" ]] && return 0
    curl -s "$1" -o "$OUT/fixture/policy.json"
    curl -s -H 'Accept-Encoding: gzip' "$1" -o "$OUT/fixture/policy.json.gz"
}
start_other() { # name port (serves /v1/policy)
    case $1 in
        bare) taskset -c 0 "$BARE_BIN" --port "$2" --fixture "$OUT/fixture" >"$OUT/bare.log" 2>&1 &
            STARTED=$! ;;
        hummingbird) taskset -c 0 "$HUMMINGBIRD_BIN" --port "$2" --fixture "$OUT/fixture" >"$OUT/hb.log" 2>&1 &
            STARTED=$! ;;
        nginx-gzs)
            local run="$OUT/nginx-$2"
            mkdir -p "$run"
            sed -e "s|@PORT@|$2|g; s|@FIXTURE@|$OUT/fixture|g; s|@RUNDIR@|$run|g" \
                "$PEERS_SRC/nginx/nginx-gzip-static.conf.in" >"$run/nginx.conf"
            taskset -c 0 nginx -p "$run" -c "$run/nginx.conf" >"$run/log" 2>&1 &
            sleep 0.5
            STARTED=$(cat "$run"/*.pid 2>/dev/null || pgrep -f "nginx -p $run" | head -1) ;;
        *) echo "unknown server $1" >&2; return 1 ;;
    esac
    wait_up "http://127.0.0.1:$2/v1/policy"
}

# PASSES=N: every server (BINS and OTHERS) started once, each on its own port, then N passes of one short wrk run (DUR, default 3s
# here) per server in turn, and per server the median req/s and the median of its per-pass ratio to nginx gzip_static
# (the run next to it in time). For a machine whose speed drifts between runs (a VM sharing its host): neighbouring
# runs see the same drift, so the ratio is steadier than either rate.
if [[ -n "${PASSES:-}" ]]; then
    DUR=${DUR_PASS:-3s}
    declare -A URLS
    PIDS=()
    port=18300
    for entry in $BINS; do
        label=${entry%%=*}
        port=$((port + 1))
        db_setting="DB_$label"   # DB_<label>: another database, e.g. a postgres:// URL (scripts/bench-postgres.sh)
        start_prelude "${entry#*=}" $port "${!db_setting:-$OUT/$label.sqlite}" || exit 1
        PIDS+=("$STARTED")
        URLS[$label]="http://127.0.0.1:$port/v1/apps/demo/policy?$QUERY"
        capture_fixture "${URLS[$label]}"
    done
    start_other nginx-gzs 18300 || exit 1
    PIDS+=("$STARTED")
    URLS[nginx-gzs]=http://127.0.0.1:18300/v1/policy
    labels="nginx-gzs"
    for other in $OTHERS; do
        [[ $other == nginx-gzs ]] && continue
        port=$((port + 1))
        start_other "$other" $port || exit 1
        PIDS+=("$STARTED")
        URLS[$other]=http://127.0.0.1:$port/v1/policy
        labels="$labels $other"
    done
    for entry in $BINS; do labels="$labels ${entry%%=*}"; done
    for pass in $(seq "$PASSES"); do
        for label in $labels; do
            taskset -c 1 wrk -t1 -c32 -d"$DUR" -H 'Accept-Encoding: gzip' "${URLS[$label]}" >"$OUT/$label-p$pass.txt" 2>&1
            awk -v l="$label" -v p="$pass" '/Requests\/sec/ {printf "%s\tpass %s\treq/s %s\n", l, p, $2}' "$OUT/$label-p$pass.txt"
        done
    done | tee "$OUT/passes.tsv"
    echo "medians over $PASSES passes of $DUR (ratio: to nginx-gzs in the same pass)"
    python3 - "$OUT/passes.tsv" <<'PY'
import statistics, sys
rates = {}
for line in open(sys.argv[1]):
    label, _, rate = line.split("\t")
    rates.setdefault(label, []).append(float(rate.split()[1]))
nginx = rates["nginx-gzs"]
for label, values in rates.items():
    ratios = [v / n for v, n in zip(values, nginx)]
    print(f"{label}\tmedian {statistics.median(values):,.0f} req/s\tmedian ratio {statistics.median(ratios):.2f}"
          f"\t(min {min(values):,.0f}, max {max(values):,.0f})")
PY
    kill "${PIDS[@]}"
    wait 2>/dev/null
    exit 0
fi

for round in $(seq "$ROUNDS"); do
    for entry in $BINS; do
        label=${entry%%=*}
        start_prelude "${entry#*=}" 18193 "$OUT/db.sqlite" || exit 1
        pid=$STARTED
        url="http://127.0.0.1:18193/v1/apps/demo/policy?$QUERY"
        for _ in 1 2 3; do curl -s -o /dev/null -H 'Accept-Encoding: gzip' "$url"; done
        sleep 1
        echo -e "rss-idle-$label-r$round\t$(rss "$pid") kB"
        capture_fixture "$url"
        measure "$label-r$round" "$url"
        echo -e "rss-after-load-$label-r$round\t$(rss "$pid") kB"
        INSTALLS=100000 measure "$label-installs-r$round" "$url" -s "$ROOT/Benchmarks/wrk/installs.lua"
        kill "$pid"
        wait "$pid" 2>/dev/null
    done
    for other in $OTHERS; do
        start_other "$other" 18194 || exit 1
        main=$STARTED
        sleep 1
        # shellcheck disable=SC2046
        echo -e "rss-idle-$other-r$round\t$(rss "$main" $(pgrep -P "$main")) kB"
        measure "$other-r$round" http://127.0.0.1:18194/v1/policy
        # shellcheck disable=SC2046
        echo -e "rss-after-load-$other-r$round\t$(rss "$main" $(pgrep -P "$main")) kB"
        kill "$main"
        sleep 1
    done
done
