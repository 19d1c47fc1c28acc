#!/usr/bin/env bash
# Event ingestion with and without an active guarded rollout (issue 26: events at 50,000/s still p99 < 20 ms with
# an active rollout; the guard is evaluated after every group commit of ingested events, docs/rollouts.md).
#
# Starts the release `prelude serve` on a fresh database in a temporary directory (loopback), offers 500 batches of
# 100 events per second with Benchmarks/openloop.py (open loop: latency from each batch's due time) for DURATION
# seconds (batches alternate camera and microphone, each with the Prelude-OS-Major and Prelude-Locale headers the
# client sends), then creates and starts a rollout on the microphone (held a day, so it stays at its first step), offers
# the same load again (the microphone's events now tagged with the rollout's experiment and the arm each install draws
# under the live policy, computed as the server does, so they count in their arms and the guard's counts move), and
# prints both results with the number of guard evaluations the server made (prelude_rollout_evaluations_total), the
# server's CPU time per run and, with the rollout, the events the server found mislabelled (0 when the labels are
# right). ROUNDS repeats the pair.
#
# Usage: scripts/bench-rollout.sh                       (release build, 10 s per run, 3 rounds)
#        BENCH_BIN=.build/release/prelude DURATION=5 ROUNDS=2 scripts/bench-rollout.sh
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10}
ROUNDS=${ROUNDS:-3}
PORT=${PORT:-18931}
if [[ -z "${BENCH_BIN:-}" ]]; then
    swift build -c release --product prelude >&2
    BENCH_BIN=.build/release/prelude
fi
WORK=$(mktemp -d)
SERVER_PID=
TOKEN="bench-rollout-token-0123456789abcdefghijklmnopqrstuvwxyzABCDEF"
cleanup() {
    if [[ -n "$SERVER_PID" ]]; then kill -TERM "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

start_server() {
    PRELUDE_PORT="$PORT" PRELUDE_DATABASE="$WORK/prelude.sqlite" PRELUDE_DEMO_POLICY=config/demo-policy.json \
        PRELUDE_ADMIN_TOKEN="$TOKEN" PRELUDE_LOG_LEVEL=warning "$BENCH_BIN" serve >>"$WORK/server.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 1 100); do
        curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$PORT/readyz" && return 0
        sleep 0.1
    done
    echo "the server did not start; see $WORK/server.log" >&2
    exit 1
}

cpu_ms() { awk '{print ($14 + $15) * 10}' "/proc/$SERVER_PID/stat"; }
evaluations() {
    curl -s "http://127.0.0.1:$PORT/metrics" | awk '$1 == "prelude_rollout_evaluations_total" {print $2}'
}
run() {
    local label=$1 before after evals_before evals_after
    shift
    before=$(cpu_ms)
    evals_before=$(evaluations)
    python3 Benchmarks/openloop.py --port "$PORT" --rate 500 --duration "$DURATION" --run-id "$label$(date +%s)" \
        --features camera,microphone --segments "$@" >"$WORK/$label.json"
    after=$(cpu_ms)
    evals_after=$(evaluations)
    printf '%s\t%s\tserver CPU ms %s\tguard evaluations %s\n' "$label" "$(cat "$WORK/$label.json")" \
        "$((after - before))" "$((${evals_after%.*} - ${evals_before%.*}))"
}

start_server
rollout=
for round in $(seq 1 "$ROUNDS"); do
    if [[ -n "$rollout" ]]; then
        curl -s -o /dev/null -X POST -H "Authorization: Bearer $TOKEN" \
            "http://127.0.0.1:$PORT/v1/admin/apps/demo/rollouts/$rollout/abort"
    fi
    run "without-rollout-r$round"
    rollout=$(curl -s -X POST -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
        "http://127.0.0.1:$PORT/v1/admin/apps/demo/rollouts" \
        -d '{"feature": "microphone", "key": "bench-'"$round"'", "set": {"copy": {"en": {"prime": {"title": "Talk to us"}}}},
             "steps": [{"percent": 10, "minimumHoldSeconds": 86400}, {"percent": 100}], "start": true}' \
        | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')
    run "with-rollout-r$round" --experiment "bench-$round"
    curl -s -H "Authorization: Bearer $TOKEN" \
        "http://127.0.0.1:$PORT/v1/admin/apps/demo/experiments/bench-$round/results" |
        python3 -c 'import json, sys; print("mislabelled events", json.load(sys.stdin)["mislabelled"]["events"])'
done
