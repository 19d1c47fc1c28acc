#!/usr/bin/env bash
# Admin write timings (issue 24), for BENCHMARKS.md: for each prelude binary given, in the same run, a server on an
# empty database with the demo policy, then
#   - PUT of the demo policy (alternating two copy texts, so each is a new revision), with the current If-Match;
#   - PUT of the same body with a stale If-Match (412);
#   - POST …/policy/validate of the same body (the dry run: parse, validate, lint, diff against the live policy);
#   - `prelude policy lint` of the demo policy (the process, validate + lint).
# Prints median and p95 in milliseconds: curl's time_total (client side, a new connection per request), the server's
# own duration of the same requests (`duration_ms` of its request log: from the request's first byte to the answer's
# last, without curl and the connection), and the wall time of the lint process.
#
# usage: scripts/bench-admin-write.sh NAME=BINARY[@CHECKOUT] ...   (release builds; CHECKOUT holds its config/ and migrations/)
#   e.g. scripts/bench-admin-write.sh before=/work/old-9138599/.build/release/prelude@/work/old-9138599 \
#                                     after=.build/release/prelude@.
set -euo pipefail
RUNS=${RUNS:-60}
here=$(cd "$(dirname "$0")/.." && pwd)
token="bench_$(od -An -tx1 -N24 /dev/urandom | tr -d ' \n')"
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

stats() {  # reads milliseconds, one a line: "median p95"
    sort -n | awk '{a[NR]=$1} END {m=a[int((NR+1)/2)]; p=a[int(NR*0.95+0.999)]; printf "median %.2f ms, p95 %.2f ms (n=%d)\n", m, p, NR}'
}

for spec in "$@"; do
    name=${spec%%=*}; rest=${spec#*=}
    binary=${rest%%@*}; checkout=${rest#*@}; [ "$checkout" = "$rest" ] && checkout=$here
    binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary"); checkout=$(cd "$checkout" && pwd)
    # DB_<name> names another database for that binary, e.g. DB_postgres=postgres://… (scripts/bench-postgres.sh).
    db_setting="DB_$name"; db="${!db_setting:-$work/$name.sqlite}"
    (cd "$checkout" && PRELUDE_ADMIN_TOKEN="$token" exec "$binary" serve --database "$db" --port 0 \
        --log-level info --migrations-dir "$checkout/migrations" --demo-policy "$checkout/config/demo-policy.json") \
        2>"$work/$name.log" &
    pid=$!
    port=""
    for _ in $(seq 1 200); do
        port=$(grep -o '"port":"\?[0-9]*' "$work/$name.log" | head -n1 | tr -dc '0-9' || true)
        [ -n "$port" ] && break
        sleep 0.1
    done
    [ -n "$port" ] || { cat "$work/$name.log"; exit 1; }
    base="http://127.0.0.1:$port/v1/admin/apps/demo/policy"
    auth="Authorization: Bearer $token"
    curl -fsS "$base" -H "$auth" -o "$work/demo.json"
    sed 's/"title":"\([^"]*\)"/"title":"\1 (b)"/' "$work/demo.json" >"$work/demo-b.json"
    : >"$work/$name.put"; : >"$work/$name.stale"; : >"$work/$name.lint"; : >"$work/$name.validate"
    for i in $(seq 1 "$RUNS"); do
        etag=$(curl -fsS -o /dev/null -D - "$base" -H "$auth" | tr -d '\r' | awk -F': ' 'tolower($1)=="etag"{print $2}')
        body=$([ $((i % 2)) -eq 0 ] && echo "$work/demo.json" || echo "$work/demo-b.json")
        curl -sS -o /dev/null -w '%{http_code} %{time_total}\n' -X PUT "$base" -H "$auth" -H "If-Match: $etag" \
            -H 'Content-Type: application/json' --data-binary @"$body" | awk '$1==200{print $2*1000}' >>"$work/$name.put"
        curl -sS -o /dev/null -w '%{http_code} %{time_total}\n' -X PUT "$base" -H "$auth" -H 'If-Match: "r0-stale"' \
            -H 'Content-Type: application/json' --data-binary @"$body" | awk '$1==412{print $2*1000}' >>"$work/$name.stale"
        curl -sS -o /dev/null -w '%{http_code} %{time_total}\n' -X POST "$base/validate" -H "$auth" \
            -H 'Content-Type: application/json' --data-binary @"$body" | awk '$1==200{print $2*1000}' >>"$work/$name.validate"
        start=$(date +%s%N); "$binary" policy lint "$work/demo.json" >/dev/null 2>&1 || true; end=$(date +%s%N)
        echo "$(( (end - start) / 1000 ))" | awk '{print $1/1000}' >>"$work/$name.lint"
    done
    kill -INT "$pid"; wait "$pid" 2>/dev/null || true
    echo "$name PUT (200):        $(stats <"$work/$name.put")"
    echo "$name PUT stale (412):  $(stats <"$work/$name.stale")"
    echo "$name validate (200):   $(stats <"$work/$name.validate")"
    echo "$name policy lint:      $(stats <"$work/$name.lint")"
    # The server's own durations (request log, info level): PUT 200, PUT 412, validate 200.
    server() {  # METHOD ROUTE-SUFFIX STATUS
        grep '"msg":"request"' "$work/$name.log" | grep "\"method\":\"$1\"" | grep "\"route\":\"[^\"]*$2\"" \
            | grep "\"status\":$3," | sed 's/.*"duration_ms":\([0-9.]*\).*/\1/' || true
    }
    echo "$name server PUT (200):        $(server PUT /policy 200 | stats)"
    echo "$name server PUT stale (412):  $(server PUT /policy 412 | stats)"
    echo "$name server validate (200):   $(server POST /policy/validate 200 | stats)"
done
