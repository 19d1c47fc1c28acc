#!/usr/bin/env bash
# Idle RSS of a prelude binary (BENCHMARKS.md, "Issue 35"): starts it on port 0 with a fresh database, waits for
# /readyz, sleeps 2 s, prints VmRSS in kB and how many libcurl/libssl mappings the process has; then stops it.
#   scripts/bench-idle-rss.sh BINARY [DATABASE]   (DATABASE: e.g. an empty postgres:// database; default a new SQLite file)
bin="$1"
d=$(mktemp -d); PRELUDE_PORT=0 PRELUDE_DATABASE=${2:-$d/p.sqlite} "$bin" serve 2>$d/log & pid=$!
for i in $(seq 1 100); do port=$(grep -o '"port":[0-9]*' $d/log | grep -o '[0-9]*$' | head -1); [ -n "$port" ] && curl -fs -o /dev/null http://127.0.0.1:$port/readyz && break; sleep 0.1; done
sleep 2; rss=$(awk '/VmRSS/{print $2}' /proc/$pid/status); libs=$(grep -c "libcurl\|libssl" /proc/$pid/maps)
kill -TERM $pid; wait $pid 2>/dev/null; rm -rf $d; echo "$rss $libs"
