#!/usr/bin/env bash
# Benchmark of PreludeHTTP against the peers in shared/bench/peers (nginx, nginx gzip_static, Hummingbird,
# FlyingFox with TCP_NODELAY, optionally Vapor), in the same run, with the peers' own harness (run.sh).
#
# Usage: scripts/bench.sh [all|throughput|latency|memory|quick|build|public|proxy|compare|serve-memory|ofrep|environments]
#   all         (default) throughput, then latency, then memory
#   throughput  PIN=split (server on CPU 0, wrk on CPU 1), c=32 and c=128, plain and gzip
#   latency     PIN=same (both on CPU 0), c=1, plain and gzip
#   memory      idle RSS and RSS with $IDLE_CONNECTIONS open keep-alive connections, per server
#   quick       one short round of throughput (DURATION=3s WARMUP=1s REPEATS=1), for iterating
#   build       build prelude-bench-server and the Swift peers, nothing else
#   public      the real `prelude` release binary: resolved policy (gzip, c=32) against Hummingbird and nginx serving
#               the same bytes; decide; events in batches of 100, open loop at 50,000 events/s and wrk at c=32,
#               one install and 100 installs per batch (count in vs count stored, via sqlite3);
#               policy-fetch cost as the policy grows (Benchmarks/make-large-policy.py)
#   proxy       the release `prelude` binary behind nginx with deploy/nginx (docs/scaling.md): the policy document
#               and the resolved policy (gzip, c=32), direct and through the proxy, rounds interleaved, with the
#               origin's request count for each run (from its /metrics) and so the proxy's hit rate
#   compare     two `prelude` binaries in the same run, rounds interleaved (BEFORE_BIN, AFTER_BIN; AFTER_BIN defaults
#               to this checkout's release build): decide at c=32 and events open loop at 50,000 events/s (one
#               install per batch, then 100) — the no-regression record for a change on the ingestion or decide path;
#               BEFORE_CONFIG: a config file the baseline understands (e.g. `git show OLD:config/prelude.json`)
#   ofrep       the release `prelude` binary: OFREP bulk evaluation (every demo feature, docs/openfeature.md) beside
#               decide with the same seven states and decide with two, c=32, rounds interleaved in the same run
#               (BEFORE_BIN: a baseline binary too, in the same rounds)
#   environments  the release `prelude` binary with production and staging holding different policies: the
#               resolved policy (gzip, c=32) through each environment's route and production's plain path, nginx
#               gzip_static serving staging's bytes, and decide per environment, rounds interleaved; medians and the
#               median ratio to nginx in the same round (RELEASE_BIN: a release binary built beforehand)
#   attributes  issue 38: the resolved policy with attributes and moments in the query (repeated, so the plain-query
#               memory answers), the same query without them, nginx gzip_static serving the bytes with them, and
#               decide with and without attributes and moments in the body; medians and ratios as above
#   serve-memory  idle RSS of the real `prelude serve` (demo policy, after 3 policy requests: gzip, identity, gzip)
#               beside nginx gzip_static with the peers' config serving the same bytes (master + workers summed),
#               $MEMORY_STARTS starts each (default 3), interleaved; prints the medians and keeps an smaps breakdown.
#               MEMORY_BIN: the binary (default: the container's build, `--static-swift-stdlib`, built in
#               .build-static); BEFORE_BIN: also a baseline binary, in the same rounds. Not part of .ci/run.
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
     '            $prefix "$BENCH_SERVER_BIN" --port "$port" --fixture "$FIXTURE" $extra >"$OUT/server-$peer.log" 2>&1 &\n'
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
     '        elif [[ "$peer" == prelude* ]]; then label=prelude; bin="$BENCH_SERVER_BIN"\n'
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
    BENCH_SERVER_BIN="$(swift build --package-path "$ROOT/Benchmarks" -c release --show-bin-path)/prelude-bench-server"
    export BENCH_SERVER_BIN
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

# ---------------------------------------------------------------- public endpoints (the real `prelude` binary)

PUBLIC_PORT="${PUBLIC_PORT:-18180}"
POLICY_QUERY="platform=ios&os=17.4&appVersion=2.3.0&locale=fr-CA&installId=8C1F0A2E"
PRELUDE_PID=""

# Starts the release `prelude serve` on CPU 0 with a fresh database seeded with policy $1; sets PRELUDE_PID.
start_prelude() {
    local policy="$1" db="$2"
    rm -f "$db" "$db-wal" "$db-shm"
    # SERVER_CONFIG: another config file (compare: the baseline binary may not know settings added since).
    ( cd "$ROOT" && if [[ -n "${SERVER_CONFIG:-}" ]]; then export PRELUDE_CONFIG="$SERVER_CONFIG"; fi
        PRELUDE_PORT="$PUBLIC_PORT" PRELUDE_DATABASE="$db" PRELUDE_DEMO_POLICY="$policy" \
        PRELUDE_LOG_LEVEL=warning exec taskset -c 0 "$PRELUDE_BIN" serve ) >>"$OUT/public/server.log" 2>&1 &
    PRELUDE_PID=$!
    local i
    for i in $(seq 1 100); do
        curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$PUBLIC_PORT/readyz" && return 0
        kill -0 "$PRELUDE_PID" 2>/dev/null || { log "prelude exited; see $OUT/public/server.log"; return 1; }
        sleep 0.1
    done
    log "prelude never became ready"; return 1
}
stop_prelude() {
    [[ -n "$PRELUDE_PID" ]] || return 0
    kill -TERM "$PRELUDE_PID" 2>/dev/null || true
    wait "$PRELUDE_PID" 2>/dev/null || true
    PRELUDE_PID=""
}
trap 'stop_nginx; stop_prelude' EXIT

# wrk on CPU 1 against prelude: $1 label, $2 connections, rest: wrk arguments. Warmup, then the measured run.
public_wrk() {
    local label="$1" conc="$2"; shift 2
    # The warmup gets its own RUN_ID, so the events it stores are not counted against the measured run.
    RUN_ID="warmup-${RUN_ID:-}" timeout 60 taskset -c 1 wrk -t1 -c"$conc" -d"$WARMUP" "$@" >/dev/null 2>&1 || true
    timeout 60 taskset -c 1 wrk -t1 -c"$conc" -d"$DURATION" --latency "$@" >"$OUT/public/$label.txt" 2>&1 || true
    awk -v l="$label" '/Requests\/sec/ {r=$2} / 50%/ {p50=$2} / 99%/ {p99=$2} /Non-2xx/ {e=$NF}
        END {printf "%s\treq/s %s\tp50 %s\tp99 %s\tnon-2xx %s\n", l, r, p50, p99, (e == "" ? 0 : e)}' \
        "$OUT/public/$label.txt" | tee -a "$OUT/public/summary.tsv"
}

public() {
    log "building prelude (release)"
    swift build --package-path "$ROOT" -c release --product prelude >&2
    PRELUDE_BIN="$(swift build --package-path "$ROOT" -c release --show-bin-path)/prelude"
    local dir="$OUT/public" db="$OUT/public/prelude.sqlite" round
    mkdir -p "$dir/fixture"
    : >"$dir/summary.tsv"
    local url="http://127.0.0.1:$PUBLIC_PORT/v1/apps/demo/policy?$POLICY_QUERY"

    # 1. Resolved policy, warm, gzip, c=32: prelude, then Hummingbird and nginx (gzip_static) serving the same
    #    bytes, captured from prelude once (run.sh's FIXTURE override), in the same run.
    start_prelude "$ROOT/config/demo-policy.json" "$db" || return 1
    curl -s "$url" -o "$dir/fixture/policy.json"
    curl -s -H 'Accept-Encoding: gzip' "$url" -o "$dir/fixture/policy.json.gz"
    gunzip -c "$dir/fixture/policy.json.gz" | cmp -s - "$dir/fixture/policy.json" \
        || { log "prelude's gzip body does not match its identity body"; return 1; }
    curl -s -D - -o /dev/null -H 'Accept-Encoding: gzip' "$url" >"$dir/policy-headers.txt"
    for round in $(seq 1 "$REPEATS"); do
        public_wrk "policy-gzip-c32-r$round" 32 -H 'Accept-Encoding: gzip' "$url"
    done
    # 2. Decide (target >= 20,000 req/s).
    for round in $(seq 1 "$REPEATS"); do
        public_wrk "decide-c32-r$round" 32 -s "$ROOT/Benchmarks/wrk/decide.lua" \
            "http://127.0.0.1:$PUBLIC_PORT/v1/apps/demo/decide"
    done
    # 3. Events, batches of 100 (target >= 50,000 events/s sustained, p99 < 50 ms, count in = count stored).
    #    Open loop first (Benchmarks/openloop.py: 500 batches/s offered on a fixed timetable for DURATION, latency
    #    from each batch's due time), then wrk's closed loop at c=32. Each twice: one install per batch (what the
    #    SDK sends) and 100 installs per batch (a relay mixing devices). Event ids are UUIDv7 as the SDK makes them
    #    (IDS=counter: the "<run>-<batch>-<index>" ids of before issue 16; with them a mixed batch dirties one
    #    dedupe-index page per install).
    local run_id mode installs seconds="${DURATION%s}"
    for round in $(seq 1 "$REPEATS"); do
        for mode in one:1 mixed:100; do
            installs="${mode#*:}" mode="${mode%%:*}"
            run_id="open$mode$round$(date +%s)"
            taskset -c 1 python3 "$ROOT/Benchmarks/openloop.py" --port "$PUBLIC_PORT" --rate 500 \
                --duration "$seconds" --installs-per-batch "$installs" --ids "${IDS:-uuid7}" --run-id "$run_id" >"$dir/events-open-$mode-r$round.json"
            sleep 1   # every batch is answered before openloop.py exits; this only lets the log settle
            printf 'events-open-%s-r%s\t%s\tstored %s\n' "$mode" "$round" "$(cat "$dir/events-open-$mode-r$round.json")" \
                "$(sqlite3 "$db" "SELECT count(*) FROM events WHERE install_id LIKE '$run_id-%'")" \
                | tee -a "$dir/summary.tsv"
            run_id="bench$mode$round$(date +%s)"
            RUN_ID="$run_id" BATCH=100 INSTALLS_PER_BATCH="$installs" IDS="${IDS:-uuid7}" public_wrk "events-$mode-c32-r$round" 32 \
                -s "$ROOT/Benchmarks/wrk/events.lua" "http://127.0.0.1:$PUBLIC_PORT/v1/apps/demo/events"
            sleep 1   # batches still in flight when wrk stopped are answered and stored
            printf 'events-%s-c32-r%s\t%s\tstored %s\n' "$mode" "$round" \
                "$(grep -h '^events generated' "$dir/events-$mode-c32-r$round.txt")" \
                "$(sqlite3 "$db" "SELECT count(*) FROM events WHERE install_id LIKE '$run_id-%'")" \
                | tee -a "$dir/summary.tsv"
        done
    done
    stop_prelude

    PEERS="hummingbird nginx-gzs" MODES=gzip CONCURRENCY=32 PIN=split FIXTURE="$dir/fixture" \
        OUT="$dir/peers" "$BENCH_DIR/peers/run.sh" bench >/dev/null
    cat "$dir/peers/summary.md" >>"$dir/peers-summary.md"

    # 4. Policy fetch cost as the policy grows (the catalogue caps features at 15; see make-large-policy.py).
    local size spec
    for spec in "demo:-" "15x5x3:5:3" "15x10x5:10:5" "15x20x10:20:10"; do
        size="${spec%%:*}"
        local policy="$ROOT/config/demo-policy.json"
        if [[ "$spec" != *":-" ]]; then
            local rest="${spec#*:}"
            policy="$dir/policy-$size.json"
            python3 "$ROOT/Benchmarks/make-large-policy.py" "$ROOT/config/demo-policy.json" "$policy" \
                "${rest%%:*}" "${rest##*:}"
        fi
        start_prelude "$policy" "$db" || return 1
        printf 'policy %s\tdocument %s B\tresolved gzip %s B\n' "$size" "$(stat -c %s "$policy")" \
            "$(curl -s -H 'Accept-Encoding: gzip' "$url" | wc -c)" | tee -a "$dir/summary.tsv"
        public_wrk "growth-$size-resolved-gzip-c32" 32 -H 'Accept-Encoding: gzip' "$url"
        public_wrk "growth-$size-resolved-distinct-installs-c32" 32 -H 'Accept-Encoding: gzip' \
            -s "$ROOT/Benchmarks/wrk/installs.lua" "$url"
        public_wrk "growth-$size-document-gzip-c32" 32 -H 'Accept-Encoding: gzip' \
            "http://127.0.0.1:$PUBLIC_PORT/v1/apps/demo/policy/document"
        stop_prelude
    done
    log "public: $dir/summary.tsv, peers: $dir/peers-summary.md"
}

# ---------------------------------------------------------------- the caching proxy (deploy/nginx) in front

PROXY_PORT="${PROXY_PORT:-18181}"
NGINX_PID=""

# nginx (one worker, CPU 0 like prelude: the server side gets one core, wrk the other) with deploy/nginx's two
# include files and the upstream, cache and listen lines a deployment writes; sets NGINX_PID.
start_nginx() {
    local dir="$1" name
    for name in cache client_body proxy fastcgi uwsgi scgi; do mkdir -p "$dir/nginx/$name"; done
    chmod -R 0777 "$dir/nginx"
    cat >"$dir/nginx/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $dir/nginx/nginx.pid;
error_log $dir/nginx/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $dir/nginx/client_body;
    proxy_temp_path $dir/nginx/proxy;
    fastcgi_temp_path $dir/nginx/fastcgi;
    uwsgi_temp_path $dir/nginx/uwsgi;
    scgi_temp_path $dir/nginx/scgi;
    keepalive_requests 1000000;
    include $ROOT/deploy/nginx/prelude-http.conf;
    upstream prelude_origin { server 127.0.0.1:$PUBLIC_PORT; keepalive 64; }
    proxy_cache_path $dir/nginx/cache levels=1:2 keys_zone=prelude_policy:10m max_size=64m inactive=1d use_temp_path=off;
    server {
        listen 127.0.0.1:$PROXY_PORT;
        include $ROOT/deploy/nginx/prelude-locations.conf;
    }
}
CONF
    taskset -c 0 "$(command -v nginx || echo /usr/sbin/nginx)" -p "$dir/nginx" -c "$dir/nginx/nginx.conf" \
        -e "$dir/nginx/error.log" >>"$dir/nginx/stderr.log" 2>&1 &
    NGINX_PID=$!
    local i
    for i in $(seq 1 100); do
        curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$PROXY_PORT/healthz" && return 0
        kill -0 "$NGINX_PID" 2>/dev/null || { log "nginx exited; see $dir/nginx/error.log"; return 1; }
        sleep 0.1
    done
    log "nginx never answered"; return 1
}
stop_nginx() {
    [[ -n "$NGINX_PID" ]] || return 0
    kill -TERM "$NGINX_PID" 2>/dev/null || true
    wait "$NGINX_PID" 2>/dev/null || true
    NGINX_PID=""
}

# Requests the origin has answered on route $1 (GET, every status), from its /metrics.
origin_requests() {
    curl -s "http://127.0.0.1:$PUBLIC_PORT/metrics" | awk -v route="$1" '
        index($0, "prelude_http_requests_total{route=\"" route "\",method=\"GET\"") == 1 {n += $NF}
        END {printf "%d", n}'
}

# public_wrk plus the origin's count for route $3 during the measured run: prints the run's line, then
# `origin N of M requests (hit rate H)`.
proxy_wrk() {
    local label="$1" conc="$2" route="$3"; shift 3
    RUN_ID="" timeout 60 taskset -c 1 wrk -t1 -c"$conc" -d"$WARMUP" "$@" >/dev/null 2>&1 || true
    local before after total
    before="$(origin_requests "$route")"
    timeout 60 taskset -c 1 wrk -t1 -c"$conc" -d"$DURATION" --latency "$@" >"$OUT/proxy/$label.txt" 2>&1 || true
    after="$(origin_requests "$route")"
    total="$(awk '/requests in/ {print $1}' "$OUT/proxy/$label.txt")"
    awk -v l="$label" -v o="$((after - before))" -v t="${total:-0}" \
        '/Requests\/sec/ {r=$2} / 50%/ {p50=$2} / 99%/ {p99=$2} /Non-2xx/ {e=$NF}
        END {printf "%s\treq/s %s\tp50 %s\tp99 %s\tnon-2xx %s\torigin %d of %d\thit rate %.4f\n", l, r, p50, p99,
            (e == "" ? 0 : e), o, t, (t > 0 && o < t ? 1 - o / t : 0)}' "$OUT/proxy/$label.txt" | tee -a "$OUT/proxy/summary.tsv"
}

proxy() {
    log "building prelude (release)"
    swift build --package-path "$ROOT" -c release --product prelude >&2
    PRELUDE_BIN="$(swift build --package-path "$ROOT" -c release --show-bin-path)/prelude"
    local dir="$OUT/proxy" round path
    mkdir -p "$dir" "$OUT/public"
    : >"$dir/summary.tsv"
    start_prelude "$ROOT/config/demo-policy.json" "$dir/prelude.sqlite" || return 1
    start_nginx "$dir" || { stop_prelude; return 1; }
    local doc="/v1/apps/demo/policy/document" resolved="/v1/apps/demo/policy?$POLICY_QUERY"
    # The proxy must give the origin's bytes before anything is measured.
    for path in "$doc" "$resolved"; do
        cmp -s <(curl -s -H 'Accept-Encoding: gzip' "http://127.0.0.1:$PUBLIC_PORT$path") \
            <(curl -s -H 'Accept-Encoding: gzip' "http://127.0.0.1:$PROXY_PORT$path") \
            || { log "nginx does not serve the origin's bytes for $path"; stop_nginx; stop_prelude; return 1; }
    done
    for round in $(seq 1 "$REPEATS"); do
        proxy_wrk "document-direct-r$round" 32 "/v1/apps/{app}/policy/document" -H 'Accept-Encoding: gzip' \
            "http://127.0.0.1:$PUBLIC_PORT$doc"
        proxy_wrk "document-nginx-r$round" 32 "/v1/apps/{app}/policy/document" -H 'Accept-Encoding: gzip' \
            "http://127.0.0.1:$PROXY_PORT$doc"
        proxy_wrk "resolved-direct-r$round" 32 "/v1/apps/{app}/policy" -H 'Accept-Encoding: gzip' \
            "http://127.0.0.1:$PUBLIC_PORT$resolved"
        proxy_wrk "resolved-nginx-r$round" 32 "/v1/apps/{app}/policy" -H 'Accept-Encoding: gzip' \
            "http://127.0.0.1:$PROXY_PORT$resolved"
    done
    stop_nginx
    stop_prelude
    log "proxy: $dir/summary.tsv"
}

# Two binaries, rounds interleaved (before, after, before, after, ...) so machine noise hits both alike.
compare() {
    [[ -x "${BEFORE_BIN:-}" ]] || { log "compare: set BEFORE_BIN to the baseline prelude binary"; return 1; }
    if [[ -z "${AFTER_BIN:-}" ]]; then
        swift build --package-path "$ROOT" -c release --product prelude >&2
        AFTER_BIN="$(swift build --package-path "$ROOT" -c release --show-bin-path)/prelude"
    fi
    local dir="$OUT/public" db="$OUT/public/prelude.sqlite" round side bin run_id mode installs seconds="${DURATION%s}"
    mkdir -p "$dir"
    : >"$dir/summary.tsv"
    for round in $(seq 1 "$REPEATS"); do
        for side in before after; do
            bin="$BEFORE_BIN" SERVER_CONFIG="${BEFORE_CONFIG:-}"
            [[ "$side" == after ]] && bin="$AFTER_BIN" SERVER_CONFIG=""
            PRELUDE_BIN="$bin"   # a plain shell variable: exported, the server would refuse it as an unknown setting
            start_prelude "$ROOT/config/demo-policy.json" "$db" || return 1
            public_wrk "decide-$side-c32-r$round" 32 -s "$ROOT/Benchmarks/wrk/decide.lua" \
                "http://127.0.0.1:$PUBLIC_PORT/v1/apps/demo/decide"
            for mode in one:1 mixed:100; do
                installs="${mode#*:}" mode="${mode%%:*}"
                run_id="open$side$mode$round$(date +%s)"
                taskset -c 1 python3 "$ROOT/Benchmarks/openloop.py" --port "$PUBLIC_PORT" --rate 500 \
                    --duration "$seconds" --installs-per-batch "$installs" --ids "${IDS:-uuid7}" --run-id "$run_id" \
                    >"$dir/events-open-$mode-$side-r$round.json"
                sleep 1
                printf 'events-open-%s-%s-r%s\t%s\tstored %s\n' "$mode" "$side" "$round" \
                    "$(cat "$dir/events-open-$mode-$side-r$round.json")" \
                    "$(sqlite3 "$db" "SELECT count(*) FROM events WHERE install_id LIKE '$run_id-%'")" \
                    | tee -a "$dir/summary.tsv"
            done
            stop_prelude
        done
    done
    log "compare: $dir/summary.tsv"
}

# VmRSS, RssAnon and RssFile (kB) of process $1, and its smaps summed per mapping into file $2 when given.
process_memory() {
    local pid="$1"
    awk '/^VmRSS/ {r=$2} /^RssAnon/ {a=$2} /^RssFile/ {f=$2} END {printf "%d\t%d\t%d", r, a, f}' "/proc/$pid/status"
    [[ -z "${2:-}" ]] && return 0
    awk '/^[0-9a-f]+-[0-9a-f]+ / {m = ($6 == "" ? "[anonymous]" : $6)} /^Rss:/ {r[m] += $2} /^Pss:/ {p[m] += $2}
        /^Anonymous:/ {a[m] += $2} /^(Private|Shared)_Dirty:/ {d[m] += $2}
        END {for (m in r) if (r[m] > 0) printf "%d\t%d\t%d\t%d\t%s\n", r[m], p[m], a[m], d[m], m}' \
        "/proc/$pid/smaps" | sort -rn | { printf 'rss_kb\tpss_kb\tanonymous_kb\tdirty_kb\tmapping\n'; cat; } >"$2"
}

# The idle RSS of `prelude serve` against nginx gzip_static serving the same bytes (issue 16's memory target).
serve_memory() {
    local dir="$OUT/serve-memory" db="$OUT/serve-memory/prelude.sqlite" round side bin pid i
    mkdir -p "$dir/fixture" "$OUT/public"
    # MEMORY_BIN, not PRELUDE_BIN: the server refuses unknown PRELUDE_* variables in its environment.
    PRELUDE_BIN="${MEMORY_BIN:-}"
    if [[ -z "$PRELUDE_BIN" ]]; then
        log "building prelude (release, --static-swift-stdlib, scratch path .build-static) as the Dockerfile does"
        swift build --package-path "$ROOT" -c release --static-swift-stdlib --scratch-path "$ROOT/.build-static" \
            --product prelude >&2
        PRELUDE_BIN="$(swift build --package-path "$ROOT" -c release --static-swift-stdlib \
            --scratch-path "$ROOT/.build-static" --show-bin-path)/prelude"
    fi
    local after_bin="$PRELUDE_BIN" url="http://127.0.0.1:$PUBLIC_PORT/v1/apps/demo/policy?$POLICY_QUERY"
    local sides="prelude"
    [[ -n "${BEFORE_BIN:-}" ]] && sides="before prelude"
    printf 'server\tround\tvmrss_kb\trss_anon_kb\trss_file_kb\tprocesses\n' >"$dir/rounds.tsv"
    for round in $(seq 1 "${MEMORY_STARTS:-3}"); do
        for side in $sides; do
            bin="$after_bin"; [[ "$side" == before ]] && bin="$BEFORE_BIN"
            PRELUDE_BIN="$bin"
            start_prelude "$ROOT/config/demo-policy.json" "$db" || return 1
            curl -s -o /dev/null -H 'Accept-Encoding: gzip' "$url"
            curl -s -o /dev/null "$url"
            curl -s -o /dev/null -H 'Accept-Encoding: gzip' "$url"
            if [[ ! -s "$dir/fixture/policy.json.gz" ]]; then
                curl -s "$url" -o "$dir/fixture/policy.json"
                curl -s -H 'Accept-Encoding: gzip' "$url" -o "$dir/fixture/policy.json.gz"
            fi
            sleep 1
            printf '%s\t%s\t%s\t1\n' "$side" "$round" "$(process_memory "$PRELUDE_PID" "$dir/smaps-$side.tsv")" \
                >>"$dir/rounds.tsv"
            stop_prelude
        done
        # nginx gzip_static with the peers' own config (2 workers), serving the bytes prelude served.
        local run="$dir/nginx" master total=0 anon=0 file=0 n=0 p fields
        mkdir -p "$run"
        sed -e "s|@PORT@|$PROXY_PORT|g; s|@FIXTURE@|$dir/fixture|g; s|@RUNDIR@|$run|g" \
            "$PEERS_SRC/nginx/nginx-gzip-static.conf.in" >"$run/nginx.conf"
        taskset -c 0 nginx -p "$run" -c "$run/nginx.conf" >"$run/log" 2>&1 &
        NGINX_PID=$!
        for i in $(seq 1 50); do curl -s -o /dev/null "http://127.0.0.1:$PROXY_PORT/v1/policy" && break; sleep 0.1; done
        curl -s -o /dev/null -H 'Accept-Encoding: gzip' "http://127.0.0.1:$PROXY_PORT/v1/policy"
        curl -s -o /dev/null "http://127.0.0.1:$PROXY_PORT/v1/policy"
        curl -s -o /dev/null -H 'Accept-Encoding: gzip' "http://127.0.0.1:$PROXY_PORT/v1/policy"
        sleep 1
        for p in "$NGINX_PID" $(pgrep -P "$NGINX_PID"); do
            IFS=$'\t' read -r -a fields <<<"$(process_memory "$p")"
            total=$((total + fields[0])) anon=$((anon + fields[1])) file=$((file + fields[2])) n=$((n + 1))
        done
        printf 'nginx-gzip-static\t%s\t%s\t%s\t%s\t%s\n' "$round" "$total" "$anon" "$file" "$n" >>"$dir/rounds.tsv"
        stop_nginx
    done
    python3 - "$dir/rounds.tsv" <<'PY' | tee "$dir/summary.tsv"
import statistics, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])][1:]
print("server\tmedian_vmrss_kb\trss_anon_kb\trss_file_kb\tall_starts_kb")
for server in dict.fromkeys(r[0] for r in rows):
    mine = [r for r in rows if r[0] == server]
    median = sorted(mine, key=lambda r: int(r[2]))[len(mine) // 2]
    print(f"{server}\t{int(statistics.median(int(r[2]) for r in mine))}\t{median[3]}\t{median[4]}\t"
          + " ".join(r[2] for r in mine))
PY
    log "serve-memory: $dir/summary.tsv (smaps of the last start: $dir/smaps-*.tsv)"
}

mkdir -p "$OUT"
# OFREP bulk next to decide, same server, rounds interleaved (BENCHMARKS.md, "OpenFeature (OFREP)"). With
# BEFORE_BIN, the baseline binary's server too, in the same rounds (before, after, before, ...; AFTER_BIN defaults
# to this checkout's release build).
ofrep() {
    if [[ -z "${AFTER_BIN:-}" ]]; then
        log "building prelude (release)"
        swift build --package-path "$ROOT" -c release --product prelude >&2
        AFTER_BIN="$(swift build --package-path "$ROOT" -c release --show-bin-path)/prelude"
    fi
    local dir="$OUT/public" round side tag sides="after" base="http://127.0.0.1:$PUBLIC_PORT/v1/apps/demo"
    [[ -n "${BEFORE_BIN:-}" ]] && sides="before after"
    mkdir -p "$dir"
    : >"$dir/summary.tsv"
    for round in $(seq 1 "$REPEATS"); do
        for side in $sides; do
            PRELUDE_BIN="$AFTER_BIN" tag=""
            [[ "$side" == before ]] && PRELUDE_BIN="$BEFORE_BIN"
            [[ -n "${BEFORE_BIN:-}" ]] && tag="-$side"
            start_prelude "$ROOT/config/demo-policy.json" "$dir/prelude.sqlite" || return 1
            public_wrk "ofrep-bulk$tag-c32-r$round" 32 -s "$ROOT/Benchmarks/wrk/ofrep-bulk.lua" \
                "$base/ofrep/v1/evaluate/flags"
            public_wrk "decide-7$tag-c32-r$round" 32 -s "$ROOT/Benchmarks/wrk/decide-all.lua" "$base/decide"
            public_wrk "decide-2$tag-c32-r$round" 32 -s "$ROOT/Benchmarks/wrk/decide.lua" "$base/decide"
            stop_prelude
        done
    done
}

# ---------------------------------------------------------------- environments (issue 25)

# The public routes of an app with two environments holding different policies (production: the demo policy;
# staging: a copy with its own French camera copy, so its resolved bytes differ), in one run, rounds interleaved:
# the resolved policy (gzip, c=32) through /v1/apps/demo/environments/{env}/policy for both environments and
# through production's environment-less path, nginx gzip_static serving staging's resolved bytes (captured from
# prelude: the same bytes), and decide through each environment's route. Prints per label the median req/s over
# the rounds and the median of its ratio to nginx in the same round.
environments() {
    # RELEASE_BIN: a release binary built beforehand (e.g. through the build lock); else built here. (Not PRELUDE_*:
    # the server refuses environment variables of that prefix it does not know.)
    PRELUDE_BIN="${RELEASE_BIN:-}"
    if [[ -z "$PRELUDE_BIN" ]]; then
        log "building prelude (release)"
        swift build --package-path "$ROOT" -c release --product prelude >&2
        PRELUDE_BIN="$(swift build --package-path "$ROOT" -c release --show-bin-path)/prelude"
    fi
    local dir="$OUT/public" round token base="http://127.0.0.1:$PUBLIC_PORT"
    mkdir -p "$dir/fixture"
    : >"$dir/summary.tsv"
    token="bench_$(od -An -tx1 -N24 /dev/urandom | tr -d ' \n')"
    PRELUDE_ADMIN_TOKEN="$token" start_prelude "$ROOT/config/demo-policy.json" "$dir/prelude.sqlite" || return 1
    local admin="$base/v1/admin/apps/demo/environments"
    curl -fsS -o /dev/null -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
        -d '{"name": "staging", "copyFrom": "production"}' "$admin" || { log "creating staging failed"; return 1; }
    local etag
    etag="$(curl -fsS -o /dev/null -D - -H "Authorization: Bearer $token" "$admin/staging/policy" | tr -d '\r' |
        awk 'tolower($1)=="etag:"{print $2}')"
    curl -fsS -o /dev/null -X PATCH -H "Authorization: Bearer $token" -H "If-Match: $etag" \
        -H 'Content-Type: application/merge-patch+json' \
        -d '{"copy": {"fr": {"prime": {"title": "Numérisez vos documents (préproduction)."}}}}' \
        "$admin/staging/features/camera" || { log "changing staging failed"; return 1; }
    local staging="$base/v1/apps/demo/environments/staging/policy?$POLICY_QUERY"
    local production="$base/v1/apps/demo/environments/production/policy?$POLICY_QUERY"
    local plain="$base/v1/apps/demo/policy?$POLICY_QUERY"
    curl -fsS "$staging" -o "$dir/fixture/policy.json"
    curl -fsS -H 'Accept-Encoding: gzip' "$staging" -o "$dir/fixture/policy.json.gz"
    gunzip -c "$dir/fixture/policy.json.gz" | cmp -s - "$dir/fixture/policy.json" \
        || { log "staging's gzip body does not match its identity body"; return 1; }
    grep -q 'préproduction' "$dir/fixture/policy.json" || { log "staging does not serve its own copy"; return 1; }
    curl -fsS -H 'Accept-Encoding: gzip' "$production" | cmp -s - "$dir/fixture/policy.json.gz" \
        && { log "production serves staging's bytes"; return 1; }
    curl -fsS -D "$dir/staging-headers.txt" -o /dev/null -H 'Accept-Encoding: gzip' "$staging"
    # nginx gzip_static with the peers' configuration (run.sh's), serving staging's bytes, on CPU 0 like prelude.
    local run="$dir/nginx" nginx_port=$((PUBLIC_PORT + 1))
    mkdir -p "$run"
    sed -e "s|@PORT@|$nginx_port|g; s|@FIXTURE@|$dir/fixture|g; s|@RUNDIR@|$run|g" \
        "$PEERS_SRC/nginx/nginx-gzip-static.conf.in" >"$run/nginx.conf"
    taskset -c 0 nginx -p "$run" -c "$run/nginx.conf" >"$run/log" 2>&1 &
    NGINX_PID=$!
    local i
    for i in $(seq 1 50); do curl -fsS -o /dev/null "http://127.0.0.1:$nginx_port/v1/policy" && break; sleep 0.1; done
    curl -fsS -H 'Accept-Encoding: gzip' "http://127.0.0.1:$nginx_port/v1/policy" | cmp -s - "$dir/fixture/policy.json.gz" \
        || { log "nginx does not serve staging's bytes"; return 1; }
    for round in $(seq 1 "$REPEATS"); do
        public_wrk "nginx-gzs-r$round" 32 -H 'Accept-Encoding: gzip' "http://127.0.0.1:$nginx_port/v1/policy"
        public_wrk "staging-policy-r$round" 32 -H 'Accept-Encoding: gzip' "$staging"
        public_wrk "production-policy-r$round" 32 -H 'Accept-Encoding: gzip' "$production"
        public_wrk "plain-policy-r$round" 32 -H 'Accept-Encoding: gzip' "$plain"
        public_wrk "staging-decide-r$round" 32 -s "$ROOT/Benchmarks/wrk/decide.lua" \
            "$base/v1/apps/demo/environments/staging/decide"
        public_wrk "production-decide-r$round" 32 -s "$ROOT/Benchmarks/wrk/decide.lua" \
            "$base/v1/apps/demo/environments/production/decide"
        public_wrk "plain-decide-r$round" 32 -s "$ROOT/Benchmarks/wrk/decide.lua" "$base/v1/apps/demo/decide"
    done
    stop_nginx
    stop_prelude
    python3 - "$dir/summary.tsv" <<'PY' | tee "$dir/medians.tsv"
import re, statistics, sys
rates = {}
for line in open(sys.argv[1]):
    label, rate = line.split("\t")[:2]
    name, round_ = re.match(r"(.*)-r(\d+)$", label).groups()
    rates.setdefault(name, {})[round_] = float(rate.split()[1])
nginx = rates["nginx-gzs"]
for name, by_round in rates.items():
    ratios = [rate / nginx[r] for r, rate in by_round.items()]
    print(f"{name}\tmedian {statistics.median(by_round.values()):,.0f} req/s\tmedian ratio to nginx "
          f"{statistics.median(ratios):.2f}\t(min {min(by_round.values()):,.0f}, max {max(by_round.values()):,.0f})")
PY
}

# Issue 38: the resolved policy fetched with attributes and moments in the query (a repeated query: the plain-query
# memory answers it), against the same query without them and nginx gzip_static serving the bytes with them; decide
# with attributes and moments in the body against decide without (Benchmarks/wrk/decide-attributes.lua).
attributes() {
    PRELUDE_BIN="${RELEASE_BIN:-}"
    if [[ -z "$PRELUDE_BIN" ]]; then
        log "building prelude (release)"
        swift build --package-path "$ROOT" -c release --product prelude >&2
        PRELUDE_BIN="$(swift build --package-path "$ROOT" -c release --show-bin-path)/prelude"
    fi
    local dir="$OUT/public" round base="http://127.0.0.1:$PUBLIC_PORT"
    mkdir -p "$dir/fixture"
    : >"$dir/summary.tsv"
    start_prelude "$ROOT/config/demo-policy.json" "$dir/prelude.sqlite" || return 1
    local with="$base/v1/apps/demo/policy?$POLICY_QUERY&attr.sessionCount=4&attr.plan=pro&moment.notePinned=1"
    local without="$base/v1/apps/demo/policy?$POLICY_QUERY"
    curl -fsS "$with" -o "$dir/fixture/policy.json"
    curl -fsS -H 'Accept-Encoding: gzip' "$with" -o "$dir/fixture/policy.json.gz"
    gunzip -c "$dir/fixture/policy.json.gz" | cmp -s - "$dir/fixture/policy.json" \
        || { log "the gzip body does not match the identity body"; return 1; }
    local run="$dir/nginx" nginx_port=$((PUBLIC_PORT + 1))
    mkdir -p "$run"
    sed -e "s|@PORT@|$nginx_port|g; s|@FIXTURE@|$dir/fixture|g; s|@RUNDIR@|$run|g" \
        "$PEERS_SRC/nginx/nginx-gzip-static.conf.in" >"$run/nginx.conf"
    taskset -c 0 nginx -p "$run" -c "$run/nginx.conf" >"$run/log" 2>&1 &
    NGINX_PID=$!
    local i
    for i in $(seq 1 50); do curl -fsS -o /dev/null "http://127.0.0.1:$nginx_port/v1/policy" && break; sleep 0.1; done
    curl -fsS -H 'Accept-Encoding: gzip' "http://127.0.0.1:$nginx_port/v1/policy" | cmp -s - "$dir/fixture/policy.json.gz" \
        || { log "nginx does not serve prelude's bytes"; return 1; }
    for round in $(seq 1 "$REPEATS"); do
        public_wrk "nginx-gzs-r$round" 32 -H 'Accept-Encoding: gzip' "http://127.0.0.1:$nginx_port/v1/policy"
        public_wrk "policy-attributes-r$round" 32 -H 'Accept-Encoding: gzip' "$with"
        public_wrk "policy-plain-r$round" 32 -H 'Accept-Encoding: gzip' "$without"
        public_wrk "decide-attributes-r$round" 32 -s "$ROOT/Benchmarks/wrk/decide-attributes.lua" \
            "$base/v1/apps/demo/decide"
        public_wrk "decide-plain-r$round" 32 -s "$ROOT/Benchmarks/wrk/decide.lua" "$base/v1/apps/demo/decide"
    done
    stop_nginx
    stop_prelude
    python3 - "$dir/summary.tsv" <<'PY' | tee "$dir/medians.tsv"
import re, statistics, sys
rates = {}
for line in open(sys.argv[1]):
    label, rate = line.split("\t")[:2]
    name, round_ = re.match(r"(.*)-r(\d+)$", label).groups()
    rates.setdefault(name, {})[round_] = float(rate.split()[1])
nginx = rates["nginx-gzs"]
for name, by_round in rates.items():
    ratios = [rate / nginx[r] for r, rate in by_round.items()]
    print(f"{name}\tmedian {statistics.median(by_round.values()):,.0f} req/s\tmedian ratio to nginx "
          f"{statistics.median(ratios):.2f}\t(min {min(by_round.values()):,.0f}, max {max(by_round.values()):,.0f})")
PY
}

case "$ACTION" in
    build) build ;;
    throughput) build; throughput ;;
    latency) build; latency ;;
    memory) build; memory ;;
    quick) build; REPEATS=1 DURATION=3s WARMUP=1s run_harness quick PIN=split CONCURRENCY="32 128" ;;
    all) build; throughput; latency; memory ;;
    public) build; public ;;
    compare) compare ;;
    proxy) proxy ;;
    serve-memory) serve_memory ;;
    ofrep) ofrep ;;
    environments) environments ;;
    attributes) attributes ;;
    *) echo "bench.sh: unknown action '$ACTION' (all|throughput|latency|memory|quick|build|public|compare|proxy|serve-memory|ofrep|environments|attributes)" >&2; exit 1 ;;
esac
log "results in $OUT"
