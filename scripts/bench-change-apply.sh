#!/usr/bin/env bash
# A change request's apply on the demo policy (issue 25: "a change request's apply <= 20 ms on the demo policy"), for
# BENCHMARKS.md. A release `prelude serve` on an empty database with the demo app, then RUNS times, in the same run:
#   - POST a change request (a merge patch of the camera's English priming title; production needs no approval, so
#     it is approved at once), then time POST …/change-requests/{id}/apply: checks, the revision, its audit record
#     and the request marked applied in one transaction, the served snapshot switched;
#   - the same for a request proposed by another process (`prelude changes create` on the same database), whose
#     checks the server did not make: its apply validates and lints the document again (a cold apply, as after a
#     restart);
#   - the peer: time PATCH …/features/camera of the same kind of change with the live If-Match (a direct write
#     through the same publish path).
# Prints median and p95 in milliseconds (curl's time_total over loopback) and the ratio of the medians.
#
# usage: scripts/bench-change-apply.sh                 (builds release first; RUNS=60)
#        BENCH_BIN=.build/release/prelude RUNS=30 scripts/bench-change-apply.sh
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-60}
if [[ -z "${BENCH_BIN:-}" ]]; then
    swift build -c release --product prelude >&2
    BENCH_BIN=.build/release/prelude
fi
token="bench_$(od -An -tx1 -N24 /dev/urandom | tr -d ' \n')"
work=$(mktemp -d)
pid=
cleanup() {
    if [[ -n "$pid" ]]; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

stats() { # reads milliseconds, one a line: "median …, p95 … (n=…)"
    sort -n | awk '{a[NR]=$1} END {m=a[int((NR+1)/2)]; p=a[int(NR*0.95+0.999)]; printf "median %.2f ms, p95 %.2f ms (n=%d)\n", m, p, NR}'
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

PRELUDE_ADMIN_TOKEN="$token" "$BENCH_BIN" serve --database "$work/prelude.sqlite" --port 0 --log-level info \
    --migrations-dir migrations --demo-policy config/demo-policy.json 2>"$work/server.log" &
pid=$!
port=""
for _ in $(seq 1 200); do
    port=$(grep -o '"port":"\?[0-9]*' "$work/server.log" | head -n1 | tr -dc '0-9' || true)
    [[ -n "$port" ]] && break
    sleep 0.1
done
[[ -n "$port" ]] || { cat "$work/server.log"; exit 1; }
app="http://127.0.0.1:$port/v1/admin/apps/demo"
auth="Authorization: Bearer $token"
json='Content-Type: application/json'

: >"$work/apply"; : >"$work/cold"; : >"$work/direct"
echo '{"features": {"camera": {"copy": {"en": {"prime": {"message": "Cold apply."}}}}}}' >"$work/cold-a.json"
echo '{"features": {"camera": {"copy": {"en": {"prime": {"message": "Cold apply, again."}}}}}}' >"$work/cold-b.json"
for i in $(seq 1 "$RUNS"); do
    id=$(curl -fsS -X POST "$app/change-requests" -H "$auth" -H "$json" \
        -d '{"patch": {"features": {"camera": {"copy": {"en": {"prime": {"title": "Scan receipts '"$i"'"}}}}}}}' \
        | python3 -c 'import json, sys; r = json.load(sys.stdin); assert r["state"] == "approved", r; print(r["id"])')
    curl -sS -o /dev/null -w '%{http_code} %{time_total}\n' -X POST "$app/change-requests/$id/apply" -H "$auth" \
        | awk '$1 == 200 {print $2 * 1000; next} {print "apply answered " $1 > "/dev/stderr"; exit 1}' >>"$work/apply"
    cold=$([[ $((i % 2)) -eq 0 ]] && echo "$work/cold-a.json" || echo "$work/cold-b.json")
    "$BENCH_BIN" changes create "$cold" --patch --app demo --database "$work/prelude.sqlite" \
        --migrations-dir migrations --json 2>/dev/null >"$work/cold.out"
    id=$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); assert r["state"] == "approved", r; print(r["id"])' \
        "$work/cold.out")
    curl -sS -o /dev/null -w '%{http_code} %{time_total}\n' -X POST "$app/change-requests/$id/apply" -H "$auth" \
        | awk '$1 == 200 {print $2 * 1000; next} {print "cold apply answered " $1 > "/dev/stderr"; exit 1}' >>"$work/cold"
    etag=$(curl -fsS -o /dev/null -D - "$app/policy" -H "$auth" | tr -d '\r' | awk -F': ' 'tolower($1)=="etag"{print $2}')
    curl -sS -o /dev/null -w '%{http_code} %{time_total}\n' -X PATCH "$app/features/camera" -H "$auth" \
        -H "If-Match: $etag" -H 'Content-Type: application/merge-patch+json' \
        -d '{"copy": {"en": {"prime": {"title": "Direct '"$i"'"}}}}' \
        | awk '$1 == 200 {print $2 * 1000; next} {print "PATCH answered " $1 > "/dev/stderr"; exit 1}' >>"$work/direct"
done
revisions=$(curl -fsS "$app/revisions?limit=1" -H "$auth" | python3 -c 'import json, sys; print(json.load(sys.stdin)["revisions"][0]["number"])')
echo "change request apply (200):  $(stats <"$work/apply")"
echo "cold apply (other process):  $(stats <"$work/cold")"
echo "direct feature PATCH (200):  $(stats <"$work/direct")"
echo "ratio of medians (apply / PATCH): $(awk -v a="$(median <"$work/apply")" -v d="$(median <"$work/direct")" 'BEGIN {printf "%.2f", a / d}')"
echo "revisions published: $((revisions - 1)) (expected $((3 * RUNS)))"
