#!/usr/bin/env bash
# Benchmark of PreludeHTTP against the peers in shared/bench/peers (nginx, nginx gzip_static, Hummingbird,
# FlyingFox with TCP_NODELAY, optionally Vapor), in the same run, with the peers' own harness (run.sh).
#
# Usage: scripts/bench.sh [all|throughput|latency|memory|quick|build]
#   all         (default) throughput, then latency, then memory
#   throughput  PIN=split (server on CPU 0, wrk on CPU 1), c=32 and c=128, plain and gzip
#   latency     PIN=same (both on CPU 0), c=1, plain and gzip
#   memory      idle RSS and RSS with $IDLE_CONNECTIONS open keep-alive connections, per server
#   quick       one short round of throughput (DURATION=3s WARMUP=1s REPEATS=1), for iterating
#   build       build prelude-bench-server and the Swift peers, nothing else
#
# Settings (environment): REPEATS=3, DURATION=10s, WARMUP=3s, PEERS (default below; add vapor if built),
#   PEERS_SRC (default ../shared/bench/peers beside the repository), BENCH_DIR=/tmp/prelude-bench (the peers are
#   copied and built there: shared/ stays read-only), OUT=$BENCH_DIR/results/<time>, IDLE_CONNECTIONS=1000.
#
# How it reuses run.sh: the peers' directory is copied to $BENCH_DIR/peers and its run.sh gets three
# small, checked edits: a `prelude` peer (our benchmark server started like the Swift peers, with
# --port and --fixture) and `prelude-pool` (the same with the handler on the worker pool), and
# FIXTURE / URL_PATH overridable from the environment. Everything else (checks of status, Content-Type,
# body bytes and keep-alive before loading, wrk -t1 warmup + measured run, medians over interleaved rounds,
# the summary table) is run.sh's own. Loopback only; every wrk run is bounded by -d and `timeout`.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ACTION="${1:-all}"
PEERS_SRC="${PEERS_SRC:-}"
if [[ -z "$PEERS_SRC" ]]; then
    for candidate in "$ROOT/../shared/bench/peers" "$ROOT/shared/bench/peers" /work/shared/bench/peers; do
        [[ -f "$candidate/run.sh" ]] && { PEERS_SRC="$(cd "$candidate" && pwd)"; break; }
    done
fi
[[ -n "$PEERS_SRC" && -f "$PEERS_SRC/run.sh" ]] || { echo "bench.sh: peers harness not found; set PEERS_SRC" >&2; exit 1; }
BENCH_DIR="${BENCH_DIR:-/tmp/prelude-bench}"
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
OUT="${OUT:-$BENCH_DIR/results/$STAMP}"
export PEERS="${PEERS:-prelude nginx nginx-gzs hummingbird flyingfox-nodelay}"
export REPEATS="${REPEATS:-3}" DURATION="${DURATION:-10s}" WARMUP="${WARMUP:-3s}"
IDLE_CONNECTIONS="${IDLE_CONNECTIONS:-1000}"
export SWIFT_BACKTRACE=enable=no

log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

# Copies the harness (keeping previously built peers and timestamps) and applies the edits.
prepare_peers() {
    local dst="$BENCH_DIR/peers" d
    mkdir -p "$dst/swift"
    rm -rf "$dst/fixture" "$dst/nginx"
    cp -rp "$PEERS_SRC/fixture" "$PEERS_SRC/nginx" "$dst/"
    for d in "$PEERS_SRC"/swift/peer-*; do
        local name; name="$(basename "$d")"
        mkdir -p "$dst/swift/$name"
        rm -rf "$dst/swift/$name/Sources"
        cp -rp "$d/Package.swift" "$d/Sources" "$dst/swift/$name/"
    done
    chmod -R u+w "$dst"
    python3 - "$PEERS_SRC/run.sh" "$dst/run.sh" <<'PY'
import sys
src, dst = sys.argv[1:]
s = open(src).read()
edits = [
    ('FIXTURE="$HERE/fixture"', 'FIXTURE="${FIXTURE:-$HERE/fixture}"'),
    ('URL_PATH="/v1/policy"', 'URL_PATH="${URL_PATH:-/v1/policy}"'),
    ('        *) die "unknown peer $peer" ;;',
     '        prelude|prelude-pool)\n'
     '            local extra=""; [[ "$peer" == prelude-pool ]] && extra="--worker-pool"\n'
     '            $prefix "$PRELUDE_BENCH_BIN" --port "$port" --fixture "$FIXTURE" $extra >"$OUT/server-$peer.log" 2>&1 &\n'
     '            ;;\n'
     '        *) die "unknown peer $peer" ;;'),
    ('    sizes) sizes; column',
     '    memory)\n'
     '        require_tools\n'
     '        printf "peer\\tidle_rss_kb\\trss_with_connections_kb\\tconnections_open\\n" >"$OUT/memory.tsv"\n'
     '        idx=0\n'
     '        for peer in $PEERS; do\n'
     '            port=$(( BASE_PORT + idx )); idx=$(( idx + 1 ))\n'
     '            start_peer "$peer" "$port" || continue\n'
     '            sleep 1\n'
     '            idle="$(proc_sum_kb VmRSS)"\n'
     '            held="$(python3 "$HOLD_SCRIPT" "$port" "$URL_PATH" "$IDLE_CONNECTIONS" $SERVER_PID $SERVER_CHILDREN)"\n'
     '            printf "%s\\t%s\\t%s\\n" "$peer" "$idle" "$held" >>"$OUT/memory.tsv"\n'
     '            stop_peer\n'
     '        done\n'
     '        column -t -s $\'\\t\' "$OUT/memory.tsv" ;;\n'
     '    sizes) sizes; column'),
    ('        else label=nginx; bin="$(command -v nginx)"; fi',
     '        elif [[ "$peer" == prelude* ]]; then label=prelude; bin="$PRELUDE_BENCH_BIN"\n'
     '        else label=nginx; bin="$(command -v nginx)"; fi'),
]
for old, new in edits:
    if s.count(old) != 1:
        sys.exit(f"bench.sh: run.sh changed; cannot apply the edit for: {old!r}")
    s = s.replace(old, new)
open(dst, "w").write(s)
PY
    chmod +x "$dst/run.sh"
}

build() {
    log "building prelude-bench-server (release)"
    swift build --package-path "$ROOT/Benchmarks" -c release >&2
    PRELUDE_BENCH_BIN="$(swift build --package-path "$ROOT/Benchmarks" -c release --show-bin-path)/prelude-bench-server"
    export PRELUDE_BENCH_BIN
    prepare_peers
    local swift_peers=""
    for p in $PEERS; do case "$p" in hummingbird|flyingfox*|vapor) swift_peers+="$p " ;; esac; done
    if [[ -n "$swift_peers" ]]; then
        log "building Swift peers if missing or stale: $swift_peers(Hummingbird takes ~4 min cold on 2 cores)"
        PEERS="$swift_peers" OUT="$OUT/build" "$BENCH_DIR/peers/run.sh" build
    fi
}

run_harness() { # $1: label; rest: env assignments
    local label="$1"; shift
    log "$label -> $OUT/$label"
    env "$@" OUT="$OUT/$label" "$BENCH_DIR/peers/run.sh" bench
}

throughput() { run_harness throughput PIN=split CONCURRENCY="32 128"; }
latency() { run_harness latency PIN=same CONCURRENCY=1; }

# RSS of each server idle (after start-up and a check request) and while $IDLE_CONNECTIONS keep-alive
# connections are open, each having made one request (so the server holds its per-connection state).
# Runs as the `memory` action added to the copied run.sh, which starts and stops the servers its usual way.
memory() {
    log "memory -> $OUT/memory"
    PIN=0 OUT="$OUT/memory" IDLE_CONNECTIONS="$IDLE_CONNECTIONS" HOLD_SCRIPT="$ROOT/Benchmarks/hold-connections.py" \
        "$BENCH_DIR/peers/run.sh" memory
}

mkdir -p "$OUT"
case "$ACTION" in
    build) build ;;
    throughput) build; throughput ;;
    latency) build; latency ;;
    memory) build; memory ;;
    quick) build; REPEATS=1 DURATION=3s WARMUP=1s run_harness quick PIN=split CONCURRENCY="32 128" ;;
    all) build; throughput; latency; memory ;;
    *) echo "bench.sh: unknown action '$ACTION' (all|throughput|latency|memory|quick|build)" >&2; exit 1 ;;
esac
log "results in $OUT"
