#!/usr/bin/env bash
# User-space instructions per resolved-policy fetch, deterministic (issue 16's measure, kept as a script): the server
# runs under `valgrind --tool=callgrind`; one keep-alive client sends 200 warm-up fetches (gzip), the counters are
# zeroed (`callgrind_control -z`), then FETCHES more, then dumped; Ir of the dump ÷ FETCHES.
#
# Usage: scripts/callgrind-fetch.sh [binary ...]   (default .build/release/prelude; several binaries run in turn; a
# binary may be a wrapper script that sets its own environment and execs prelude: valgrind follows the exec)
# Settings: FETCHES=2000, OUT=/tmp/prelude-bench/callgrind, PORT=18451, READY_TIMEOUT=180 (seconds to wait for
# /readyz under valgrind). Needs valgrind. Loopback only.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
FETCHES=${FETCHES:-2000}
OUT=${OUT:-/tmp/prelude-bench/callgrind}
PORT=${PORT:-18451}
READY_TIMEOUT=${READY_TIMEOUT:-180}
URL_PATH="/v1/apps/demo/policy?platform=ios&os=17.4&appVersion=2.3.0&locale=fr-CA&installId=8C1F0A2E"
mkdir -p "$OUT"
[[ $# -gt 0 ]] || set -- "$ROOT/.build/release/prelude"

fetch() { # count
    python3 - "$PORT" "$1" "$URL_PATH" <<'PY'
import http.client, sys
port, count, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
for _ in range(count):
    connection.request("GET", path, headers={"Accept-Encoding": "gzip"})
    response = connection.getresponse()
    response.read()
    assert response.status == 200, response.status
PY
}

for bin in "$@"; do
    name=$(basename "$(dirname "$bin")")-$(basename "$bin")
    db="$OUT/$name.sqlite"
    rm -f "$db" "$db-wal" "$db-shm" "$OUT/$name.callgrind".*
    (cd "$ROOT" && env PRELUDE_PORT=$PORT PRELUDE_DATABASE="$db" PRELUDE_DEMO_POLICY="$ROOT/config/demo-policy.json" \
        PRELUDE_LOG_LEVEL=warning valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$OUT/$name.callgrind.%p" \
        "$bin" serve) >"$OUT/$name.log" 2>&1 &
    pid=$!
    # Bounded: each try gives up after 2 s (a server slowed by valgrind may accept and not answer yet), the whole
    # wait after READY_TIMEOUT seconds, and a server that exited (valgrind missing, port taken) ends it at once.
    waited=0
    until curl -fs --max-time 2 -o /dev/null "http://127.0.0.1:$PORT/readyz"; do
        if ! kill -0 $pid 2>/dev/null; then
            echo "$bin: the server exited before it was ready; its log:" >&2
            tail -n 20 "$OUT/$name.log" >&2
            exit 1
        fi
        if (( waited >= READY_TIMEOUT * 5 )); then
            echo "$bin: not ready after ${READY_TIMEOUT} s under valgrind; stopping it" >&2
            kill $pid 2>/dev/null || true
            wait $pid 2>/dev/null || true
            exit 1
        fi
        sleep 0.2
        waited=$((waited + 1))
    done
    fetch 200
    callgrind_control -z $pid >/dev/null
    fetch "$FETCHES"
    callgrind_control -d $pid >/dev/null
    kill $pid
    wait $pid 2>/dev/null || true
    dump=$(ls "$OUT/$name.callgrind".*.1)  # the dump of `callgrind_control -d` (counts since the zeroing)
    total=$(awk '/^(summary|totals):/ { print $2; exit }' "$dump")
    echo "$bin: $((total / FETCHES)) instructions per fetch ($total Ir over $FETCHES fetches; $dump)"
done
