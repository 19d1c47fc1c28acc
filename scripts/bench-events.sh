#!/usr/bin/env bash
# Event ingestion throughput (issue 6: at least 50,000 events/s in batches of 100, p99 under 50 ms, nothing lost).
#
# Starts the release `prelude serve` on a fresh database in a temporary directory, loopback only, and drives
# POST /v1/apps/demo/events with wrk (keep-alive, CONNECTIONS connections, DURATION seconds). A Lua script builds
# every request body from a template with install ids unique to the request, so no event is a duplicate. After the
# run the server is stopped with SIGTERM (it finishes what is in flight) and the database is checked:
#   - events stored == events sent (every request wrk wrote, answered or cut off at the end) and ≥ events
#     acknowledged (sum of "accepted" in the 202 answers): nothing lost, nothing invented;
#   - the experiment counters (experiment_funnel_counts) equal an independent COUNT(DISTINCT install_id) recount.
#
# Modes (MODES, space separated):
#   untagged  100 events: 10 installs × 10 events, no experiment (aggregator does nothing)
#   tagged    100 events: 20 installs × 5 funnel steps, every event tagged (experiment + variant), each a new step
#   spread    100 events: 100 installs × 1 event (primeShown), every event tagged: worst case for grouping
#
# Usage: scripts/bench-events.sh                      (release build, all modes, 8 connections, 20 s each)
#        CONNECTIONS=32 DURATION=30 MODES=tagged scripts/bench-events.sh
#        BENCH_BIN=.build/release/prelude scripts/bench-events.sh   (skip the build)
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

printf '| mode | connections | seconds | batches answered | events/s (acknowledged) | p50 ms | p90 ms | p99 ms | max ms | server CPU µs/event | sent | stored | check |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
STATUS=0
for MODE in $MODES; do
    DB="$WORK/$MODE.sqlite"
    PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "$BENCH_BIN" serve --host 127.0.0.1 --database "$DB" --port "$PORT" --log-level error >"$WORK/server.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 100); do
        curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break
        sleep 0.1
    done
    RUN="r$(date +%s%N)"
    CPU_BEFORE=$(awk '{print $14 + $15}' "/proc/$SERVER_PID/stat")
    OUT=$(wrk -t "$THREADS" -c "$CONNECTIONS" -d "${DURATION}s" --timeout 10s -s "$WORK/events.lua" \
        "http://127.0.0.1:$PORT/" -- "$MODE" "$RUN")
    # Server CPU time (user + system, clock ticks) during the run: CPU per event does not depend much on what else
    # the machine is doing, unlike events/s on a shared machine.
    CPU_TICKS=$(( $(awk '{print $14 + $15}' "/proc/$SERVER_PID/stat") - CPU_BEFORE ))
    kill -TERM "$SERVER_PID"; wait "$SERVER_PID" || true; SERVER_PID=
    LINE=$(grep '^RESULT' <<<"$OUT") || { echo "$OUT" >&2; exit 1; }
    python3 - "$DB" "$MODE" "$CONNECTIONS" "$LINE" "$CPU_TICKS" "$(getconf CLK_TCK)" <<'PY' || STATUS=1
import sqlite3, sys
db, mode, connections, line = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
cpu_seconds = int(sys.argv[5]) / int(sys.argv[6])
r = {k: float(v) for k, v in (item.split("=") for item in line.split()[1:])}
c = sqlite3.connect(db)
stored = c.execute("SELECT count(*) FROM events").fetchone()[0]
sent, acked_events = int(r["sent"]) * 100, int(r["accepted"])
problems = []
if r["failed"]: problems.append(f"{int(r['failed'])} non-202")
if stored < acked_events: problems.append(f"LOST {acked_events - stored}")
if stored > sent: problems.append(f"{stored - sent} more stored than sent")
if stored != sent: problems.append(f"{sent - stored} sent but not stored (cut off by wrk's stop)")
def bit(name): return f"count(DISTINCT CASE WHEN type IN ({name}) THEN install_id END)"
recount = c.execute(f"""
    SELECT feature, variant, count(DISTINCT install_id), {bit("'primeShown'")}, {bit("'primeAccepted'")},
        {bit("'primeDismissed'")}, {bit("'systemGranted'")}, {bit("'systemDenied'")}, {bit("'settingsOpened'")},
        {bit("'returnedGranted'")}, {bit("'systemGranted', 'returnedGranted'")}
    FROM events WHERE app_id = 'demo' AND experiment = 'camera-prime-copy' AND variant IS NOT NULL
    GROUP BY feature, variant ORDER BY feature, variant""").fetchall()
counters = c.execute("""
    SELECT feature, variant, exposed, prime_shown, prime_continued, prime_dismissed, system_granted, system_denied,
        settings_opened, returned_granted, granted
    FROM experiment_funnel_counts WHERE app_id = 'demo' AND experiment_key = 'camera-prime-copy'
    ORDER BY feature, variant""").fetchall()
if counters != recount: problems.append(f"counters {counters} != recount {recount}")
check = "ok: stored = sent, counters = recount" if not problems else "; ".join(problems)
print(f"| {mode} | {connections} | {r['seconds']:.1f} | {int(r['acked'])} | {acked_events / r['seconds']:,.0f} | "
      f"{r['p50']:.1f} | {r['p90']:.1f} | {r['p99']:.1f} | {r['max']:.1f} | {cpu_seconds * 1e6 / max(stored, 1):.1f} | "
      f"{sent} | {stored} | {check} |")
# Lost or miscounted events fail the run; requests cut off by wrk's stop are reported, not fatal.
sys.exit(1 if [p for p in problems if "cut off" not in p] else 0)
PY
done
exit $STATUS
