#!/usr/bin/env bash
# Memory and start-up against the number of apps served (issue 29): for each N in APPS, a database with N copies of
# the demo policy (app ids app-0001, ...), then `prelude serve`: time from exec to /readyz answering, RSS idle (1 s
# after ready), RSS after one resolved-policy fetch (gzip) of every app, and the per-app cost
# (RSS - RSS of the 1-app run) / (N - 1).
#
# WRITTEN says which build wrote the revisions (docs/storage.md, "Start-up"):
# - `this` (the default): as the binary under test writes them: app-0001 is created by `prelude policy import --create`
#   (canonical text, its entity tag, the rules version that validated it), the others are copies of that row with
#   their app id (same length, tag recomputed), so start-up reads them without validating them again;
# - `older`: the policy's text as written, no rules version, as a build before migration 0015 left them: start-up
#   validates every one (the upgrade's first start).
#
# Engines (issue 36): with PG_URL=postgres://… (a cluster URL, e.g. of scripts/postgres/throwaway.sh), each SQLite
# database built as above is also moved to a new database of that cluster with `prelude copy` (docs/storage.md,
# "Moving a database") and the same measures are taken on it, right after the SQLite ones.
#
# Usage: scripts/bench-apps.sh [binary]   (default .build/release/prelude; build it with `swift build -c release`)
# Settings: APPS="1 10 100 1000", WRITTEN=this|older, OUT=/tmp/prelude-bench/apps, PORT=18431. Loopback only; every
# server stopped.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN=${1:-$ROOT/.build/release/prelude}
APPS=${APPS:-"1 10 100 1000"}
OUT=${OUT:-/tmp/prelude-bench/apps}
PORT=${PORT:-18431}
WRITTEN=${WRITTEN:-this}
[[ "$WRITTEN" == this || "$WRITTEN" == older ]] || { echo "WRITTEN must be this or older" >&2; exit 2; }
mkdir -p "$OUT"
echo "revisions written by: $WRITTEN"

rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }

ENGINES=sqlite; [[ -n "${PG_URL:-}" ]] && ENGINES="sqlite postgres"
printf '%8s %6s %12s %14s %16s %18s %18s\n' engine apps ready_ms rss_idle_kB rss_fetched_kB idle_per_app_kB fetched_per_app_kB
declare -A base_idle base_fetched base_n
for n in $APPS; do
    db="$OUT/apps-$n.sqlite"
    rm -f "$db" "$db-wal" "$db-shm"
    PRELUDE_DATABASE="$db" PRELUDE_LOG_LEVEL=warning "$BIN" migrate >/dev/null
    first=1
    if [[ "$WRITTEN" == this ]]; then
        python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["app"]["id"] = "app-0001"; json.dump(d, open(sys.argv[2], "w"))' \
            "$ROOT/config/demo-policy.json" "$OUT/app-0001.json"
        PRELUDE_DATABASE="$db" PRELUDE_DEMO_POLICY="" PRELUDE_LOG_LEVEL=warning "$BIN" policy import "$OUT/app-0001.json" \
            --create >/dev/null 2>"$OUT/import.log" || { cat "$OUT/import.log" >&2; exit 1; }
        first=2
    fi
    python3 - "$db" "$n" "$ROOT/config/demo-policy.json" "$first" <<'PY'
import json, sqlite3, sys
path, count, policy, first = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
document = json.load(open(policy))
db = sqlite3.connect(path)

def tag(revision, data):
    # RevisionTag (Sources/PreludeStore/Policy/RevisionTag.swift): FNV-1a 64 and length of the canonical bytes.
    h = 0xcbf29ce484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f'"r{revision}-{h:016x}-{len(data):x}"'

if first == 2:
    # Copies of the row `prelude policy import` wrote: the same canonical text with another app id, the same rules.
    text, rules = db.execute(
        "SELECT document, rules_version FROM policy_revisions WHERE app_id = 'app-0001' AND number = 1").fetchone()
    assert rules is not None, "the import did not record a rules version"
    for i in range(2, count + 1):
        app = f"app-{i:04d}"
        copy = text.replace('"id":"app-0001"', f'"id":"{app}"', 1)
        db.execute("INSERT INTO apps (id, name, created_at, updated_at) VALUES (?, ?, 0, 0)",
                   (app, document["app"]["name"]))
        db.execute("INSERT INTO policy_revisions (app_id, number, document, etag, created_at, author, message, "
                   "rules_version) VALUES (?, 1, ?, ?, 0, 'bench', NULL, ?)",
                   (app, copy, tag(1, copy.encode()), rules))
        db.execute("INSERT INTO environments (app_id, name, live_revision, created_at, updated_at) "
                   "VALUES (?, 'production', 1, 0, 0)", (app,))
    db.commit()
    sys.exit(0)
for i in range(1, count + 1):
    app = f"app-{i:04d}"
    document["app"]["id"] = app
    text = json.dumps(document, separators=(",", ":"))
    # Migration 0011: the live revision is the production environment's.
    db.execute("INSERT INTO apps (id, name, created_at, updated_at) VALUES (?, ?, 0, 0)",
               (app, document["app"]["name"]))
    db.execute("INSERT INTO policy_revisions (app_id, number, document, etag, created_at, author, message) "
               "VALUES (?, 1, ?, ?, 0, 'bench', NULL)", (app, text, f'"bench-{app}"'))
    db.execute("INSERT INTO environments (app_id, name, live_revision, created_at, updated_at) "
               "VALUES (?, 'production', 1, 0, 0)", (app,))
db.commit()
PY
    for engine in $ENGINES; do
    target=$db
    if [[ "$engine" == postgres ]]; then
        name="apps_${n}_$(date +%s%N)"
        psql "$PG_URL" -v ON_ERROR_STOP=1 -qc "CREATE DATABASE $name"
        target="${PG_URL%/*}/$name"
        PRELUDE_LOG_LEVEL=warning "$BIN" copy --from "$db" --to "$target" >"$OUT/copy.log" 2>&1 \
            || { cat "$OUT/copy.log" >&2; exit 1; }
    fi
    start=$(date +%s%N)
    PRELUDE_DATABASE="$target" PRELUDE_PORT=$PORT PRELUDE_DEMO_POLICY="" PRELUDE_LOG_LEVEL=warning "$BIN" serve \
        >>"$OUT/server.log" 2>&1 &
    pid=$!
    until curl -fs --max-time 2 -o /dev/null "http://127.0.0.1:$PORT/readyz"; do
        kill -0 $pid 2>/dev/null || { echo "the server exited before it was ready (see $OUT/server.log)" >&2; exit 1; }
        sleep 0.01
    done
    ready_ms=$(( ($(date +%s%N) - start) / 1000000 ))
    sleep 1
    idle=$(rss_kb $pid)
    python3 - "$PORT" "$n" <<'PY'
import http.client, sys
port, count = int(sys.argv[1]), int(sys.argv[2])
connection = http.client.HTTPConnection("127.0.0.1", port)
for i in range(1, count + 1):
    connection.request("GET", f"/v1/apps/app-{i:04d}/policy?platform=ios&os=17.4&appVersion=2.3.0&locale=fr-CA"
                       "&installId=8C1F0A2E", headers={"Accept-Encoding": "gzip"})
    response = connection.getresponse()
    response.read()
    assert response.status == 200, (i, response.status)
PY
    sleep 0.5
    fetched=$(rss_kb $pid)
    kill $pid
    wait $pid 2>/dev/null || true
    if [[ -z "${base_idle[$engine]:-}" ]]; then base_idle[$engine]=$idle; base_fetched[$engine]=$fetched; base_n[$engine]=$n; fi
    if (( n > ${base_n[$engine]} )); then
        idle_per=$(( (idle - ${base_idle[$engine]}) / (n - ${base_n[$engine]}) ))
        fetched_per=$(( (fetched - ${base_fetched[$engine]}) / (n - ${base_n[$engine]}) ))
    else
        idle_per="-"
        fetched_per="-"
    fi
    printf '%8s %6s %12s %14s %16s %18s %18s\n' "$engine" "$n" "$ready_ms" "$idle" "$fetched" "$idle_per" "$fetched_per"
    done
done
