#!/usr/bin/env bash
# Policy preview timings at the size limit (issue 24), for BENCHMARKS.md: a policy just under the 1 MiB publish
# limit (Benchmarks/make-large-policy.py from BASE_POLICY, default config/demo-policy.json: every feature of the
# catalogue in 25 locales, 12 experiments, and as many regional English copies of every English block as keep the
# compact JSON at most 1,048,576 bytes), then for each prelude binary given, in the same run:
#   - `prelude policy preview FILE --output DIR` (the process: read, validate, lint, every screen, the HTML page);
#   - `GET /v1/admin/apps/demo/preview` from a server seeded with that policy (curl's time_total, and the server's
#     own `duration_ms` from its request log).
# Prints median and p95 in milliseconds, the screen count and the page's size.
#
# usage: scripts/bench-preview.sh NAME=BINARY[@CHECKOUT] ...   (release builds; CHECKOUT holds its migrations/)
#   e.g. RUNS=5 scripts/bench-preview.sh after=.build/release/prelude
# To compare with an older build, give BASE_POLICY a demo policy that build accepts (its own config/demo-policy.json).
set -euo pipefail
RUNS=${RUNS:-5}
BASE_POLICY=${BASE_POLICY:-config/demo-policy.json}
here=$(cd "$(dirname "$0")/.." && pwd)
token="bench_$(od -An -tx1 -N24 /dev/urandom | tr -d ' \n')"
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

stats() {  # reads milliseconds, one a line: "median p95"
    sort -n | awk '{a[NR]=$1} END {m=a[int((NR+1)/2)]; p=a[int(NR*0.95+0.999)]; printf "median %.1f ms, p95 %.1f ms (n=%d)\n", m, p, NR}'
}

policy="$work/large.json"
base_policy=$(cd "$here" && realpath "$BASE_POLICY")
compact() { python3 -c 'import json, sys; print(len(json.dumps(json.load(open(sys.argv[1])), separators=(",", ":"), ensure_ascii=False).encode()))' "$1"; }
for regional in $(seq 80 -1 0); do
    python3 "$here/Benchmarks/make-large-policy.py" "$base_policy" "$policy" 25 12 "$regional" 2>/dev/null
    [ "$(compact "$policy")" -le 1048576 ] && break
done
echo "policy: $(compact "$policy") bytes of compact JSON ($regional regional English copies)"

for spec in "$@"; do
    name=${spec%%=*}; rest=${spec#*=}
    binary=${rest%%@*}; checkout=${rest#*@}; [ "$checkout" = "$rest" ] && checkout=$here
    binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary"); checkout=$(cd "$checkout" && pwd)
    : >"$work/$name.cli"; : >"$work/$name.get"
    for _ in $(seq 1 "$RUNS"); do
        start=$(date +%s%N)
        "$binary" policy preview "$policy" --output "$work/$name-page" >"$work/$name.cli-out"
        end=$(date +%s%N)
        echo "$(( (end - start) / 1000 ))" | awk '{print $1/1000}' >>"$work/$name.cli"
    done
    echo "$name policy preview:  $(stats <"$work/$name.cli")  [$(cat "$work/$name.cli-out"); $(wc -c <"$work/$name-page/index.html") bytes]"

    db="$work/$name.sqlite"
    (cd "$checkout" && PRELUDE_ADMIN_TOKEN="$token" exec "$binary" serve --database "$db" --port 0 \
        --log-level info --migrations-dir "$checkout/migrations" --demo-policy "$policy") 2>"$work/$name.log" &
    pid=$!
    port=""
    for _ in $(seq 1 300); do
        port=$(grep -o '"port":"\?[0-9]*' "$work/$name.log" | head -n1 | tr -dc '0-9' || true)
        [ -n "$port" ] && break
        sleep 0.1
    done
    [ -n "$port" ] || { cat "$work/$name.log"; exit 1; }
    url="http://127.0.0.1:$port/v1/admin/apps/demo/preview"
    for _ in $(seq 1 "$RUNS"); do
        curl -sS -o "$work/$name-get.html" -w '%{http_code} %{time_total}\n' "$url" \
            -H "Authorization: Bearer $token" | awk '$1==200{print $2*1000}' >>"$work/$name.get"
    done
    kill -INT "$pid"; wait "$pid" 2>/dev/null || true
    echo "$name GET preview:     $(stats <"$work/$name.get")  [$(wc -c <"$work/$name-get.html") bytes]"
    grep '"msg":"request"' "$work/$name.log" | grep '"route":"[^"]*/preview"' | grep '"status":200,' \
        | sed 's/.*"duration_ms":\([0-9.]*\).*/\1/' | { echo "$name server GET preview: $(stats)"; }
done
