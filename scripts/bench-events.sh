#!/usr/bin/env bash
# Event ingestion throughput (issue 6: at least 50,000 events/s in batches of 100, p99 under 50 ms, nothing lost).
#
# Starts the release `prelude serve` on a fresh database in a temporary directory, loopback only, and drives
# POST /v1/apps/demo/events with wrk (keep-alive, CONNECTIONS connections, DURATION seconds). A Lua script builds
# every request body from a template with install ids unique to the request, so no event is a duplicate. After the
# run the server is stopped with SIGTERM (it finishes what is in flight) and the database is checked:
#   - events stored == events sent (every request wrk wrote, answered or cut off at the end) and ≥ events
#     acknowledged (sum of "accepted" in the 202 answers): nothing lost, nothing invented;
#   - every tagged event is counted once: in its arm (experiment_daily_events) or as mislabelled (the bench's labels
#     alternate by install; about half disagree with the demo experiment's assignment and are kept out of the arms);
#   - no arm's counter (experiment_funnel_counts) exceeds an independent COUNT(DISTINCT install_id) recount. The
#     experiment (camera-prime-copy) is not in the demo policy, so its variant labels are trusted, not checked against
#     the assignment (with the demo's camera-prime-copy about half would be mislabelled and kept out of the arms).
#
# Modes (MODES, space separated):
#   untagged  100 events: 10 installs × 10 events, no experiment (aggregator does nothing)
#   tagged    100 events: 20 installs × 5 funnel steps, every event tagged (experiment + variant), each a new step
#   spread    100 events: 100 installs × 1 event (primeShown), every event tagged: worst case for grouping
#
# Engines (issue 36): PG_URL=postgres://… (a cluster URL, e.g. of scripts/postgres/throwaway.sh) runs the server on
# PostgreSQL instead: every run gets a new database of that cluster (CREATE DATABASE with psql), and the end-of-run
# checks read it with psql. Without PG_URL every run gets a new SQLite file.
#
# CONNECTIONS may be a list ("1 2 4 8"): one run (fresh server, fresh database) per count, in order. wrk is a closed
# loop (each connection sends its next batch when the last is answered), so the connection count is the load knob:
# the rate a count sustains is the events/s column, and its p99 is read from wrk's latency histogram.
#
# Usage: scripts/bench-events.sh                      (release build, all modes, 8 connections, 20 s each)
#        CONNECTIONS=32 DURATION=30 MODES=tagged scripts/bench-events.sh
#        BENCH_BIN=.build/release/prelude scripts/bench-events.sh   (skip the build)
#        PG_URL=postgres://prelude@127.0.0.1:5432/prelude CONNECTIONS="1 2 4 8" MODES=tagged scripts/bench-events.sh
set -euo pipefail
cd "$(dirname "$0")/.."

CONNECTIONS=${CONNECTIONS:-8}
THREADS=${THREADS:-2}
DURATION=${DURATION:-20}
MODES=${MODES:-untagged tagged spread}
command -v wrk >/dev/null || { echo "wrk is required (apt-get install wrk)" >&2; exit 2; }
if [[ -z "${BENCH_BIN:-}" ]]; then
    swift build -c release --product prelude >&2
    BENCH_BIN=.build/release/prelude
fi
WORK=$(mktemp -d)
SERVER_PID=
cleanup() {
    if [[ -n "$SERVER_PID" ]]; then kill -TERM "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

cat >"$WORK/events.lua" <<'LUA'
-- Arguments: mode, run prefix. Each thread numbers its requests; "@" in the template becomes thread-request.
local threads = {}
local next_id = 0
function setup(thread)
    thread:set("tid", next_id)
    next_id = next_id + 1
    table.insert(threads, thread)
end

local function event(id, install, type, tagged, variant, now)
    local tag = ""
    if tagged then tag = '"experiment":"camera-prime-copy","variant":"' .. variant .. '",' end
    return '{"id":"' .. id .. '","installId":"@-' .. install .. '","type":"' .. type .. '","feature":"camera",'
        .. tag .. '"occurredAt":' .. now .. '}'
end

function init(args)
    local mode, run = args[1], args[2]
    local now = string.format("%d", os.time() * 1000)
    local parts = {}
    if mode == "untagged" then
        local types = { "primeShown", "primeAccepted", "systemGranted", "systemDenied", "settingsShown",
                        "settingsOpened", "returnedGranted", "primeDismissed", "deniedShown", "buttonShown" }
        for i = 0, 9 do for k = 1, 10 do table.insert(parts, event("e" .. k, i, types[k], false, nil, now)) end end
    elseif mode == "tagged" then
        local steps = { "primeShown", "primeAccepted", "systemDenied", "settingsOpened", "returnedGranted" }
        for i = 0, 19 do
            local variant = (i % 2 == 0) and "control" or "short-copy"
            for k = 1, 5 do table.insert(parts, event("e" .. k, i, steps[k], true, variant, now)) end
        end
    elseif mode == "spread" then
        for i = 0, 99 do
            table.insert(parts, event("e1", i, "primeShown", true, (i % 2 == 0) and "control" or "short-copy", now))
        end
    else
        error("unknown mode " .. mode)
    end
    template = '{"events":[' .. table.concat(parts, ",") .. ']}'
    prefix = run .. "-" .. tid .. "-"
    sent, acked, accepted, failed = 0, 0, 0, 0
    headers = { ["Content-Type"] = "application/json" }
end

function request()
    sent = sent + 1
    local body = template:gsub("@", prefix .. sent)
    return wrk.format("POST", "/v1/apps/demo/events", headers, body)
end

function response(status, headers, body)
    if status == 202 then
        acked = acked + 1
        accepted = accepted + tonumber(body:match('"accepted":(%d+)'))
    else
        failed = failed + 1
        if failed <= 3 then io.stderr:write("status " .. status .. ": " .. body:sub(1, 300) .. "\n") end
    end
end

function done(summary, latency, requests)
    local s, a, acc, f = 0, 0, 0, 0
    for _, t in ipairs(threads) do
        s = s + t:get("sent"); a = a + t:get("acked"); acc = acc + t:get("accepted"); f = f + t:get("failed")
    end
    io.write(string.format("RESULT sent=%d acked=%d accepted=%d failed=%d seconds=%.3f p50=%.2f p90=%.2f p99=%.2f max=%.2f\n",
        s, a, acc, f, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(90) / 1000,
        latency:percentile(99) / 1000, latency.max / 1000))
end
LUA

printf '| engine | mode | connections | seconds | batches answered | events/s (acknowledged) | p50 ms | p90 ms | p99 ms | max ms | server CPU µs/event | sent | stored | check |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
STATUS=0
ENGINE=sqlite; [[ -n "${PG_URL:-}" ]] && ENGINE=postgres
for MODE in $MODES; do
for CONN in $CONNECTIONS; do
    if [[ -n "${PG_URL:-}" ]]; then
        NAME="events_${MODE}_${CONN}_$(date +%s%N)"
        psql "$PG_URL" -v ON_ERROR_STOP=1 -qc "CREATE DATABASE $NAME"
        DB="${PG_URL%/*}/$NAME"
    else
        DB="$WORK/$MODE-$CONN.sqlite"
    fi
    PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "$BENCH_BIN" serve --host 127.0.0.1 --database "$DB" --port "$PORT" --log-level error >"$WORK/server.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 100); do
        curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break
        sleep 0.1
    done
    RUN="r$(date +%s%N)"
    CPU_BEFORE=$(awk '{print $14 + $15}' "/proc/$SERVER_PID/stat")
    OUT=$(wrk -t "$(( THREADS < CONN ? THREADS : CONN ))" -c "$CONN" -d "${DURATION}s" --timeout 10s -s "$WORK/events.lua" \
        "http://127.0.0.1:$PORT/" -- "$MODE" "$RUN")
    # Server CPU time (user + system, clock ticks) during the run: CPU per event does not depend much on what else
    # the machine is doing, unlike events/s on a shared machine.
    CPU_TICKS=$(( $(awk '{print $14 + $15}' "/proc/$SERVER_PID/stat") - CPU_BEFORE ))
    # How many batches shared a group commit (docs/storage.md, "Group commit"), from the server's own counters.
    GROUPING=$(curl -fs "http://127.0.0.1:$PORT/metrics" | awk '/^prelude_event_batches_total/ {b = $2}
        /^prelude_event_commits_total/ {c = $2} END {if (c > 0) printf "%.2f", b / c}' || true)
    echo "batches per group commit ($ENGINE, $MODE, -c$CONN): ${GROUPING:-unknown}" >&2
    kill -TERM "$SERVER_PID"; wait "$SERVER_PID" || true; SERVER_PID=
    LINE=$(grep '^RESULT' <<<"$OUT") || { echo "$OUT" >&2; exit 1; }
    python3 - "$DB" "$MODE" "$CONN" "$LINE" "$CPU_TICKS" "$(getconf CLK_TCK)" "$ENGINE" <<'PY' || STATUS=1
import sqlite3, subprocess, sys
db, mode, connections, line = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
cpu_seconds = int(sys.argv[5]) / int(sys.argv[6])
engine = sys.argv[7]
r = {k: float(v) for k, v in (item.split("=") for item in line.split()[1:])}

def value(text):
    try: return int(text)
    except ValueError: return None if text == "" else text

def query(sql):
    """Rows of a query, the same Python values on both engines (psql prints text: integers are converted back)."""
    if engine == "sqlite":
        return sqlite3.connect(db).execute(sql).fetchall()
    out = subprocess.run(["psql", db, "-v", "ON_ERROR_STOP=1", "-AtF", "\t", "-c", sql],
                         check=True, capture_output=True, text=True).stdout
    return [tuple(value(v) for v in row.split("\t")) for row in out.splitlines()]

stored = query("SELECT count(*) FROM events")[0][0]
sent, acked_events = int(r["sent"]) * 100, int(r["accepted"])
problems = []
if r["failed"]: problems.append(f"{int(r['failed'])} non-202")
if stored < acked_events: problems.append(f"LOST {acked_events - stored}")
if stored > sent: problems.append(f"{stored - sent} more stored than sent")
if stored != sent: problems.append(f"{sent - stored} sent but not stored (cut off by wrk's stop)")
def bit(name): return f"count(DISTINCT CASE WHEN type IN ({name}) THEN install_id END)"
# The bench's variant labels alternate by install, so about half disagree with the demo experiment's deterministic
# assignment: those events are counted in experiment_mislabelled_events and kept out of the arms (docs/results.md,
# "Mislabelled events"). Checks: every tagged event is counted once, in its arm's daily events or as mislabelled;
# no arm counts more installs at a step than an independent COUNT(DISTINCT install_id) recount of the raw events.
tagged = query("""SELECT variant, count(*) FROM events WHERE app_id = 'demo' AND experiment = 'camera-prime-copy'
    AND variant IS NOT NULL GROUP BY variant ORDER BY variant""")
counted = query("""SELECT variant, sum(events) FROM (
        SELECT variant, events FROM experiment_daily_events WHERE app_id = 'demo' AND experiment_key = 'camera-prime-copy'
        UNION ALL
        SELECT reported_variant, events FROM experiment_mislabelled_events
        WHERE app_id = 'demo' AND experiment_key = 'camera-prime-copy') AS t GROUP BY variant ORDER BY variant""")
if [(v, int(n)) for v, n in tagged] != [(v, int(n)) for v, n in counted]:
    problems.append(f"tagged events {tagged} != counted (arms + mislabelled) {counted}")
recount = query(f"""
    SELECT feature, variant, count(DISTINCT install_id), {bit("'primeShown'")}, {bit("'primeAccepted'")},
        {bit("'primeDismissed'")}, {bit("'systemGranted'")}, {bit("'systemDenied'")}, {bit("'settingsOpened'")},
        {bit("'returnedGranted'")}, {bit("'systemGranted', 'returnedGranted'")}
    FROM events WHERE app_id = 'demo' AND experiment = 'camera-prime-copy' AND variant IS NOT NULL
    GROUP BY feature, variant ORDER BY feature, variant""")
counters = query("""
    SELECT feature, variant, exposed, prime_shown, prime_continued, prime_dismissed, system_granted, system_denied,
        settings_opened, returned_granted, granted
    FROM experiment_funnel_counts WHERE app_id = 'demo' AND experiment_key = 'camera-prime-copy'
    ORDER BY feature, variant""")
arms = {(row[0], row[1]): row[2:] for row in recount}
for row in counters:
    if any(c > r for c, r in zip(row[2:], arms.get((row[0], row[1]), (0,) * 9))):
        problems.append(f"counters {row} > recount {arms.get((row[0], row[1]))}")
check = "ok: stored = sent, tagged = arms + mislabelled, counters ≤ recount" if not problems else "; ".join(problems)
print(f"| {engine} | {mode} | {connections} | {r['seconds']:.1f} | {int(r['acked'])} | {acked_events / r['seconds']:,.0f} | "
      f"{r['p50']:.1f} | {r['p90']:.1f} | {r['p99']:.1f} | {r['max']:.1f} | {cpu_seconds * 1e6 / max(stored, 1):.1f} | "
      f"{sent} | {stored} | {check} |")
# Lost or miscounted events fail the run; requests cut off by wrk's stop are reported, not fatal.
sys.exit(1 if [p for p in problems if "cut off" not in p] else 0)
PY
done
done
exit $STATUS
