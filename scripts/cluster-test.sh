#!/usr/bin/env bash
# The cluster drill (docs/scaling.md, "PostgreSQL cluster"): a PostgreSQL 15 primary with a synchronous standby,
# three Prelude nodes behind nginx under load; the leader node SIGKILLed mid-rollout, then the database primary
# crashed and the standby promoted. scripts/cluster-drill.py does the work and prints the figures; this wrapper
# installs what it needs (nginx: scripts/ensure-nginx.sh) and bounds the run.
# Usage: scripts/cluster-test.sh [PRELUDE_BINARY]   (default: this checkout's release build)
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/ensure-nginx.sh
pg_bin="${PG_BIN:-/usr/lib/postgresql/15/bin}"
[[ -x "$pg_bin/pg_ctl" ]] || { echo "cluster-test: no PostgreSQL 15 at $pg_bin (scripts/install-deps.sh installs it)" >&2; exit 1; }

binary="${1:-$(swift build -c release --show-bin-path)/prelude}"
# ~20-40 s on the 2-core machine; the timeout only guards against a hang.
timeout 240 python3 scripts/cluster-drill.py "$binary"
