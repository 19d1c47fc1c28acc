#!/usr/bin/env bash
# The nginx caching proxy of deploy/nginx in front of the real release binary (docs/scaling.md, "Caching proxy").
# Usage: scripts/proxy-cache-test.sh [PRELUDE_BINARY]   (default: this checkout's release build)
# Installs Debian's nginx if missing (root, as scripts/install-deps.sh), then runs scripts/proxy-cache-test.py,
# which starts prelude and nginx on 127.0.0.1 (free ports), checks every property with real requests and stops
# both. Bounded: the whole run is killed after 120 s.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v nginx >/dev/null && [[ ! -x /usr/sbin/nginx ]]; then
    echo "installing: nginx"
    sudo_cmd=()
    if [[ "$(id -u)" != 0 ]]; then sudo_cmd=(sudo); fi
    "${sudo_cmd[@]}" apt-get update -qq
    # Debian starts nothing in a container without an init system; policy-rc.d-less hosts may start the packaged
    # service on port 80, which this test does not use.
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends nginx
fi
PATH="$PATH:/usr/sbin"

binary="${1:-$(swift build -c release --show-bin-path)/prelude}"
timeout 120 python3 scripts/proxy-cache-test.py "$binary"
