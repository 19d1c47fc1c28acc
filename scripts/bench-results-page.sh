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

python3 - "$DB" "$INSTALLS" "$DAYS" config/demo-policy.json <<'PY'
import hashlib, sqlite3, sys, time
db, installs, days, policy = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
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
# Install i arrives on day i % days; four events each; about 40 % / 45 % end granted.
c.execute("""
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1),
     k(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM k WHERE j < 3)
INSERT INTO events (app_id, install_id, client_event_id, type, feature, experiment, variant, occurred_at, received_at)
SELECT 'demo', 'install-' || i, 'e' || j,
       CASE j WHEN 0 THEN 'primeShown'
              WHEN 1 THEN CASE WHEN (i * 7919) % 100 < 70 THEN 'primeAccepted' ELSE 'primeDismissed' END
              WHEN 2 THEN CASE WHEN (i * 7919) % 100 < CASE i % 2 WHEN 0 THEN 40 ELSE 45 END
                               THEN 'systemGranted' ELSE 'systemDenied' END
              ELSE CASE WHEN (i * 104729) % 100 < 20 THEN 'settingsOpened' ELSE 'settingsShown' END END,
       'camera', 'camera-prime-copy', CASE i % 2 WHEN 0 THEN 'control' ELSE 'short-copy' END,
       1764115200000 + (i % ?) * 86400000, 1764115200000 + (i % ?) * 86400000
FROM n, k
""", (installs, days, days))
print(f"events: {c.execute('SELECT count(*) FROM events').fetchone()[0]} in {time.time() - started:.0f} s", file=sys.stderr)
started = time.time()
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
# Every install's events arrive on one day, so its increments all count on that day.
c.execute("""
INSERT INTO experiment_daily_counts (app_id, environment, experiment_key, feature, variant, day, exposed,
    prime_shown, prime_continued, prime_dismissed, system_granted, system_denied, settings_opened, returned_granted,
    granted)
SELECT app_id, 'production', experiment_key, feature, variant, first_seen_at / 86400000, count(*),
       sum(steps >> 1 & 1), sum(steps >> 2 & 1), sum(steps >> 3 & 1), sum(steps >> 4 & 1), sum(steps >> 5 & 1),
       sum(steps >> 6 & 1), sum(steps >> 7 & 1), sum((steps & 144) != 0)
FROM experiment_install_steps GROUP BY 1, 2, 3, 4, 5, 6
""")
c.execute("""
INSERT INTO experiment_daily_events (app_id, environment, experiment_key, feature, variant, day, events)
SELECT app_id, 'production', experiment, feature, variant, received_at / 86400000, count(*) FROM events
GROUP BY 1, 2, 3, 4, 5, 6
""")
c.execute("COMMIT")
c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
print(f"aggregates: {c.execute('SELECT count(*) FROM experiment_install_steps').fetchone()[0]} installs, "
      f"{c.execute('SELECT count(*) FROM experiment_daily_counts').fetchone()[0]} daily rows in "
      f"{time.time() - started:.0f} s", file=sys.stderr)
PY
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
