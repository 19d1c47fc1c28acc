#!/usr/bin/env bash
# Installs the Debian packages the build and CI need, only those missing. Needs root (or sudo) only if
# something is missing. The Swift toolchain itself is expected at /opt/swift or on PATH.
set -euo pipefail

# libcurl4 is loaded at run time by the outbound client (docs/http.md); no curl headers are needed to build.
# libpq-dev and postgresql-15: the second engine and the throwaway cluster its tests run on (docs/storage.md).
packages=(libsqlite3-dev zlib1g-dev libpq-dev postgresql-15 libcurl4 curl python3 python3-venv)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]} == 0)); then
    exit 0
fi
echo "installing: ${missing[*]}"
sudo_cmd=()
if [[ "$(id -u)" != 0 ]]; then sudo_cmd=(sudo); fi
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
