#!/usr/bin/env bash
# Writes an upgrade fixture: the database a given build of prelude leaves after seeding the demo and storing a few
# events, plus the policy document that build served (Tests/Fixtures/upgrade/README.md).
#
# usage: scripts/write-upgrade-fixture.sh <checkout of the release> <its prelude binary> <output name>
#   e.g. scripts/write-upgrade-fixture.sh /work/old-9138599 /work/old-9138599/.build/release/prelude 9138599
# Writes Tests/Fixtures/upgrade/<name>.sqlite and <name>.document.json (relative to this repository).
set -euo pipefail
checkout=$(cd "$1" && pwd)
binary=$2
name=$3
here=$(cd "$(dirname "$0")/.." && pwd)
out="$here/Tests/Fixtures/upgrade"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# The release's own migrations and demo policy, from its checkout; port 0 (a free one); SIGINT stops it without draining.
(cd "$checkout" && exec "$binary" serve --database "$work/prelude.sqlite" --port 0 \
    --migrations-dir "$checkout/migrations" --demo-policy "$checkout/config/demo-policy.json") \
    >"$work/log" 2>&1 &
pid=$!
port=""
for _ in $(seq 1 100); do
    port=$(grep -o '"port":"\?[0-9]*' "$work/log" | head -n1 | tr -dc '0-9' || true)
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || { cat "$work/log"; kill "$pid"; exit 1; }
base="http://127.0.0.1:$port"

# Five events of two installs: fixed ids and times, so every fixture stores the same rows.
events='{"events":['
types=(primeShown primeAccepted systemGranted primeShown primeDismissed)
for i in 0 1 2 3 4; do
    install=$([ "$i" -lt 3 ] && echo "install-a" || echo "install-b")
    [ "$i" -gt 0 ] && events+=','
    events+="{\"id\":\"upgrade-event-$i\",\"installId\":\"$install\",\"type\":\"${types[$i]}\","
    events+="\"feature\":\"camera\",\"occurredAt\":\"2026-11-2${i}T12:00:00Z\"}"
done
events+=']}'
curl -sf "$base/v1/apps/demo/events" -H 'Content-Type: application/json' -d "$events" >"$work/accepted"
grep -q '"accepted":5' "$work/accepted" || { cat "$work/accepted"; kill "$pid"; exit 1; }
curl -sf "$base/v1/apps/demo/policy/document" -o "$out/$name.document.json"

kill -INT "$pid"
wait "$pid" || true
# One file: the WAL checkpointed into the database (the service truncates it at close).
sqlite3 "$work/prelude.sqlite" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null
cp "$work/prelude.sqlite" "$out/$name.sqlite"
ls -l "$out/$name.sqlite" "$out/$name.document.json"
