#!/usr/bin/env bash
# Experiment results latency with 10 million events' worth of aggregates (issue 8: under 100 ms).
#
# Builds a database holding INSTALLS installs × EVENTS_PER_INSTALL raw events (default 2.5 M × 4 = 10 M) for the demo
# app's camera-prime-copy experiment, and its aggregates. The aggregates are computed from those raw events with
# one SQL pass (the same definitions as ExperimentAggregator: steps = OR of FunnelSteps bits per install, counters
# = unique installs per bit), NOT through HTTP ingestion, which would take hours here. Then it starts
# `prelude serve` on it and times GET /v1/admin/apps/demo/experiments/camera-prime-copy/results over one
# keep-alive connection, and times `prelude results` (a whole process: start, open, query, print).
#
# Usage: scripts/bench-results.sh            (release build, 10 M events; about 5 minutes plus the build)
#        INSTALLS=25000 scripts/bench-results.sh   (quick check)
#        BENCH_BIN=.build/release/prelude scripts/bench-results.sh   (skip the build)
set -euo pipefail
cd "$(dirname "$0")/.."

INSTALLS=${INSTALLS:-2500000}
EVENTS_PER_INSTALL=4
REQUESTS=${REQUESTS:-500}
if [[ -z "${BENCH_BIN:-}" ]]; then
    swift build -c release --product prelude >&2
    BENCH_BIN=.build/release/prelude
fi
WORK=$(mktemp -d)
SERVER_PID=
cleanup() {
    [[ -n "$SERVER_PID" ]] && kill -TERM "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
DB="$WORK/bench.sqlite"
TOKEN="bench-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"

"$BENCH_BIN" migrate --database "$DB" >&2

python3 Benchmarks/results_database.py "$DB" "$INSTALLS" "$EVENTS_PER_INSTALL" config/demo-policy.json
ls -l "$DB" >&2

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
PRELUDE_ADMIN_TOKEN="$TOKEN" "$BENCH_BIN" serve --database "$DB" --port "$PORT" --log-level warning &
SERVER_PID=$!

python3 - "$PORT" "$TOKEN" "$REQUESTS" <<'PY'
import http.client, json, sys, time
port, token, requests = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
for _ in range(100):
    try:
        probe = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        probe.request("GET", "/readyz")
        if probe.getresponse().status == 200:
            break
    except OSError:
        pass
    time.sleep(0.1)
path = "/v1/admin/apps/demo/experiments/camera-prime-copy/results"
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
headers = {"Authorization": "Bearer " + token}
def get():
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    body = response.read()
    if response.status != 200:
        sys.exit(f"GET {path}: {response.status} {body[:300]!r}")
    return body
report = json.loads(get())
for _ in range(20):
    get()
times = []
for _ in range(requests):
    started = time.perf_counter()
    get()
    times.append((time.perf_counter() - started) * 1000)
times.sort()
pick = lambda q: times[min(len(times) - 1, int(q * len(times)))]
print(f"results over HTTP ({report['totalExposed']} installs exposed, {requests} sequential keep-alive requests): "
      f"p50 {pick(0.5):.2f} ms, p90 {pick(0.9):.2f} ms, p99 {pick(0.99):.2f} ms, max {times[-1]:.2f} ms")
print("variants:", [(v["name"], v["funnel"]["exposed"], v["funnel"]["granted"], v["verdict"]) for v in report["variants"]])
PY

kill -TERM "$SERVER_PID"; wait "$SERVER_PID" || true; SERVER_PID=
python3 - "$BENCH_BIN" "$DB" <<'PY'
import subprocess, sys, time
binary, db = sys.argv[1], sys.argv[2]
times = []
for _ in range(10):
    started = time.perf_counter()
    subprocess.run([binary, "results", "demo", "camera-prime-copy", "--database", db], check=True, capture_output=True)
    times.append((time.perf_counter() - started) * 1000)
times.sort()
print(f"prelude results (whole process, 10 runs): median {times[5]:.1f} ms, max {times[-1]:.1f} ms")
PY
