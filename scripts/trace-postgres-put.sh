#!/usr/bin/env bash
# Where PostgreSQL spends its share of an admin PUT (BENCHMARKS.md, "The admin PUT after one settings read fewer"):
# a throwaway cluster logging every statement with its duration, a release server on it, ten PUTs of the demo policy
# (each after the GET that reads its ETag); prints the server-side PUT durations and, per PUT, the statements' total.
# usage: scripts/trace-postgres-put.sh [BINARY] (default .build/release/prelude). Not part of .ci/run.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-$here/.build/release/prelude}
d=$(mktemp -d); chmod 755 $d
trap 'kill $pid 2>/dev/null || true; "$here/scripts/postgres/throwaway.sh" stop $d/pg >/dev/null 2>&1 || true; rm -rf $d' EXIT
pid=""
url=$($here/scripts/postgres/throwaway.sh start $d/pg)
psql "$url" -qc "ALTER SYSTEM SET log_min_duration_statement = 0" -c "ALTER SYSTEM SET log_line_prefix = '%m [%p] '" -c "SELECT pg_reload_conf()" >/dev/null
token="bench_$(od -An -tx1 -N24 /dev/urandom | tr -d ' \n')"
PRELUDE_ADMIN_TOKEN="$token" "$binary" serve --database "$url" --port 0 --log-level info --migrations-dir $here/migrations --demo-policy $here/config/demo-policy.json 2>$d/p.log &
pid=$!
for _ in $(seq 1 200); do port=$(grep -o '"port":"\?[0-9]*' $d/p.log | head -n1 | tr -dc '0-9' || true); [ -n "$port" ] && break; sleep 0.1; done
base="http://127.0.0.1:$port/v1/admin/apps/demo/policy"; auth="Authorization: Bearer $token"
curl -fsS "$base" -H "$auth" -o $d/demo.json
sed 's/"title":"\([^"]*\)"/"title":"\1 (b)"/' $d/demo.json > $d/demo-b.json
sleep 1
for i in $(seq 1 10); do
  etag=$(curl -fsS -o /dev/null -D - "$base" -H "$auth" | tr -d '\r' | awk -F': ' 'tolower($1)=="etag"{print $2}')
  body=$([ $((i % 2)) -eq 0 ] && echo $d/demo.json || echo $d/demo-b.json)
  psql "$url" -qc "SELECT 'MARK-$i'" >/dev/null
  curl -sS -o /dev/null -w '%{http_code} %{time_total}\n' -X PUT "$base" -H "$auth" -H "If-Match: $etag" -H 'Content-Type: application/json' --data-binary @"$body"
done
kill -INT $pid; wait $pid || true
grep '"route":"/v1/admin/apps/{app}/policy"' $d/p.log | grep PUT | sed 's/.*"duration_ms":\([0-9.]*\).*/\1/' | tr '\n' ' '; echo
for i in $(seq 2 9); do
    awk "/MARK-$i'/{f=1} /MARK-$((i + 1))'/{f=0} f" $d/pg/server.log | grep -o "duration: [0-9.]* ms" \
        | awk -v i=$i '{s += $2} END {printf "GET + PUT %d: %.2f ms of statements\n", i, s}'
done
