#!/usr/bin/env bash
# Makes (or reuses) the venv holding scripts/requirements-ci.txt and prints its bin directory.
# The venv is rebuilt when the requirements file changes (its hash is stamped inside) or a previous install was
# interrupted (no stamp). Progress goes to stderr, so `bin=$(scripts/ci-venv.sh)` works.
#
# Env: PRELUDE_CI_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/prelude-ci) holds the venv, as for hadolint.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
requirements=$repo/scripts/requirements-ci.txt
cache=${PRELUDE_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/prelude-ci}
venv=$cache/api-checks-venv
want=$(sha256sum "$requirements" | cut -d' ' -f1)

if [[ "$(cat "$venv/.requirements-sha256" 2>/dev/null || true)" != "$want" ]]; then
    echo "ci-venv: installing $(grep -cv '^#' "$requirements") packages into $venv" >&2
    mkdir -p "$cache"
    rm -rf "$venv"
    python3 -m venv "$venv" >&2
    timeout 300 "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements" >&2
    echo "$want" >"$venv/.requirements-sha256"
fi
echo "$venv/bin"
