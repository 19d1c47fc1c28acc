#!/usr/bin/env bash
# Decide on both engines (issue 36, "Policy fetch and decide: ≥ 0.95× the SQLite build in the same run"): the same
# release binary serving the demo on a new SQLite file and on a throwaway PostgreSQL 15 cluster, both at once;
# wrk with Benchmarks/wrk/decide.lua at c=32 for 5 s against each in turn, ROUNDS rounds interleaved.
# usage: scripts/bench-decide-engines.sh [BINARY] (default .build/release/prelude); ROUNDS=3. Not part of .ci/run.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$here/.build/release/prelude}
p1=""; p2=""
d=$(mktemp -d); chmod 755 $d
url=$($here/scripts/postgres/throwaway.sh start $d/pg)
trap 'kill $p1 $p2 2>/dev/null || true; $here/scripts/postgres/throwaway.sh stop $d/pg >/dev/null 2>&1 || true; rm -rf $d' EXIT
start() { (cd $here && exec "$bin" serve --database "$1" --port 0 --log-level info --migrations-dir $here/migrations --demo-policy $here/config/demo-policy.json) 2>$d/$2.log & }
start $d/s.sqlite sqlite; p1=$!
start "$url" postgres; p2=$!
port() { for _ in $(seq 1 200); do p=$(grep -o '"port":"\?[0-9]*' $d/$1.log | head -n1 | tr -dc '0-9' || true); [ -n "$p" ] && { echo $p; return; }; sleep 0.1; done; }
sleep 2
ps=$(port sqlite); pp=$(port postgres)
[ -n "$ps" ] && [ -n "$pp" ] || { cat $d/*.log; exit 1; }
for r in $(seq "${ROUNDS:-3}"); do
  for e in sqlite postgres; do
    p=$([ $e = sqlite ] && echo $ps || echo $pp)
    rps=$(wrk -t2 -c32 -d5s -s $here/Benchmarks/wrk/decide.lua "http://127.0.0.1:$p/v1/apps/demo/decide" | awk '/Requests\/sec/{print $2}')
    echo "$e round $r decide req/s $rps"
  done
done
