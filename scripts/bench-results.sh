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

python3 - "$DB" "$INSTALLS" "$EVENTS_PER_INSTALL" config/demo-policy.json <<'PY'
import hashlib, sqlite3, sys, time
db, installs, per_install, policy = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
c = sqlite3.connect(db, isolation_level=None)
c.execute("PRAGMA journal_mode=WAL")
c.execute("PRAGMA synchronous=OFF")  # populating only; the server runs with FULL
document = open(policy, encoding="utf-8").read()
etag = '"' + hashlib.sha256(document.encode()).hexdigest() + '"'
started = time.time()
c.execute("BEGIN")
# Migration 0011: the live revision is the production environment's.
c.execute("INSERT INTO apps (id, name, created_at, updated_at) VALUES ('demo', 'Demo', 0, 0)")
c.execute("INSERT INTO policy_revisions (app_id, number, document, etag, created_at, author) VALUES ('demo', 1, ?, ?, 0, 'bench')",
          (document, etag))
c.execute("INSERT INTO environments (app_id, name, live_revision, created_at, updated_at) VALUES ('demo', 'production', 1, 0, 0)")
# Per install: a variant (half each), then a flow of `per_install` events; about 40 % / 45 % end granted.
c.execute("""
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1),
     k(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM k WHERE j < ? - 1)
INSERT INTO events (app_id, install_id, client_event_id, type, feature, experiment, variant, occurred_at, received_at)
SELECT 'demo', 'install-' || i, 'e' || j, 
       CASE j WHEN 0 THEN 'primeShown'
              WHEN 1 THEN CASE WHEN (i * 7919) % 100 < 70 THEN 'primeAccepted' ELSE 'primeDismissed' END
              WHEN 2 THEN CASE WHEN (i * 7919) % 100 < CASE i % 2 WHEN 0 THEN 40 ELSE 45 END
                               THEN 'systemGranted' ELSE 'systemDenied' END
              ELSE CASE WHEN (i * 104729) % 100 < 20 THEN 'settingsOpened' ELSE 'settingsShown' END END,
       'camera', 'camera-prime-copy', CASE i % 2 WHEN 0 THEN 'control' ELSE 'short-copy' END,
       1700000000000 + i, 1700000000000 + i
FROM n, k
""", (installs, per_install))
print(f"events: {c.execute('SELECT count(*) FROM events').fetchone()[0]} in {time.time() - started:.0f} s", file=sys.stderr)
started = time.time()
# FunnelSteps bits: 1 exposed, 2 primeShown, 4 primeContinued, 8 primeDismissed, 16 systemGranted, 32 systemDenied,
# 64 settingsOpened, 128 returnedGranted. SUM(DISTINCT bit) over an install's events is their OR.
c.execute("""
INSERT INTO experiment_install_steps (app_id, environment, experiment_key, feature, variant, install_id, steps,
    first_seen_at)
SELECT app_id, 'production', experiment, feature, variant, install_id,
       1 + sum(DISTINCT CASE type WHEN 'primeShown' THEN 2 WHEN 'primeAccepted' THEN 4 WHEN 'primeDismissed' THEN 8
                                  WHEN 'systemGranted' THEN 16 WHEN 'systemDenied' THEN 32 WHEN 'settingsOpened' THEN 64
                                  WHEN 'returnedGranted' THEN 128 ELSE 0 END),
       min(received_at)
FROM events WHERE experiment IS NOT NULL AND variant IS NOT NULL
GROUP BY app_id, experiment, feature, variant, install_id
""")
c.execute("""
INSERT INTO experiment_funnel_counts (app_id, environment, experiment_key, feature, variant, exposed, prime_shown,
    prime_continued, prime_dismissed, system_granted, system_denied, settings_opened, returned_granted, granted,
    first_event_at, last_event_at)
SELECT app_id, 'production', experiment_key, feature, variant, count(*),
       sum(steps >> 1 & 1), sum(steps >> 2 & 1), sum(steps >> 3 & 1), sum(steps >> 4 & 1), sum(steps >> 5 & 1),
       sum(steps >> 6 & 1), sum(steps >> 7 & 1), sum((steps & 144) != 0), min(first_seen_at), max(first_seen_at)
FROM experiment_install_steps GROUP BY app_id, experiment_key, feature, variant
""")
c.execute("COMMIT")
c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
print(f"aggregates: {c.execute('SELECT count(*) FROM experiment_install_steps').fetchone()[0]} installs in "
      f"{time.time() - started:.0f} s", file=sys.stderr)
PY
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
