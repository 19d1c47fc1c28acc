#!/usr/bin/env bash
# Runs scripts/preview-browser-test.py: the policy preview in Debian's headless Chromium, driven by Playwright.
# Installs what it needs (Debian: chromium, fonts-liberation for Arial-like metrics; PyPI: playwright, through
# scripts/ci-venv.sh) and fails, never skips, when any of it is missing or Chromium cannot start.
#
# Usage: scripts/preview-browser-test.sh PRELUDE_BINARY [--screenshots DIR]
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
binary=${1:?usage: preview-browser-test.sh PRELUDE_BINARY [--screenshots DIR]}
shift

missing=()
for package in chromium fonts-liberation; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]} > 0)); then
    echo "preview-browser-test: installing ${missing[*]}"
    sudo_cmd=()
    if [[ "$(id -u)" != 0 ]]; then sudo_cmd=(sudo); fi
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
chromium=${CHROMIUM:-/usr/bin/chromium}
[[ -x "$chromium" ]] || { echo "preview-browser-test: no Chromium at $chromium" >&2; exit 1; }

bin=$("$repo/scripts/ci-venv.sh")
CHROMIUM="$chromium" "$bin/python" "$repo/scripts/preview-browser-test.py" "$binary" "$@"
