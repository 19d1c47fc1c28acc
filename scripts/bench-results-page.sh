#!/usr/bin/env bash
# Results page render time with 1 million events (issue 26): the HTML answer of
# GET /v1/admin/apps/demo/experiments/camera-prime-copy/results (Accept: text/html) and `prelude results --html`.
#
# Builds a database holding INSTALLS installs x 4 raw events (default 250,000 x 4 = 1 M) for the demo's
# camera-prime-copy experiment, spread over DAYS days of arrival, and the aggregates ExperimentAggregator would
# have written for them (install steps, counters, daily counts and daily events: migration 0009), computed with SQL
# from those raw events, not through HTTP. Then it times the page over one keep-alive connection (REQUESTS
# requests after 20 warm-ups) and `prelude results --html` as a whole process.
#
# Usage: scripts/bench-results-page.sh                      (release build, 1 M events)
#        BENCH_BIN=.build/release/prelude scripts/bench-results-page.sh   (skip the build)
set -euo pipefail
cd "$(dirname "$0")/.."

INSTALLS=${INSTALLS:-250000}
DAYS=${DAYS:-30}
REQUESTS=${REQUESTS:-200}
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

python3 Benchmarks/results_database.py "$DB" "$INSTALLS" 4 config/demo-policy.json --days "$DAYS"
ls -l "$DB" >&2

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
PRELUDE_ADMIN_TOKEN="$TOKEN" "$BENCH_BIN" serve --database "$DB" --port "$PORT" --log-level warning &
SERVER_PID=$!

python3 - "$PORT" "$TOKEN" "$REQUESTS" <<'PY'
import http.client, sys, time
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
headers = {"Authorization": "Bearer " + token, "Accept": "text/html"}
def get():
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    body = response.read()
    if response.status != 200 or not response.getheader("Content-Type", "").startswith("text/html"):
        sys.exit(f"GET {path}: {response.status} {body[:300]!r}")
    return body
page = get()
assert b'id="chart-exposures"' in page and page.count(b'<tr data-variant="') == 2 * page.count(b'<table class="arms '), "the page lacks its arms or charts"
for _ in range(20):
    get()
times = []
for _ in range(requests):
    started = time.perf_counter()
    get()
    times.append((time.perf_counter() - started) * 1000)
times.sort()
def pct(p):
    return times[min(len(times) - 1, int(p / 100 * len(times)))]
print(f"GET results page ({len(page)} bytes, {requests} requests): p50 {pct(50):.2f} ms, p90 {pct(90):.2f} ms, "
      f"p99 {pct(99):.2f} ms, max {times[-1]:.2f} ms")
PY

runs=()
for _ in 1 2 3 4 5 6 7 8 9 10 11; do
    started=$(date +%s%N)
    "$BENCH_BIN" results demo camera-prime-copy --database "$DB" --html "$WORK/page.html" >/dev/null
    runs+=($(( ($(date +%s%N) - started) / 1000000 )))
done
sorted=$(printf '%s\n' "${runs[@]}" | sort -n)
echo "prelude results --html (whole process, 11 runs): median $(echo "$sorted" | sed -n 6p) ms, max $(echo "$sorted" | tail -1) ms"
