#!/usr/bin/env bash
# The nginx caching proxy of deploy/nginx in front of the real release binary (docs/scaling.md, "Caching proxy").
# Usage: scripts/proxy-cache-test.sh [PRELUDE_BINARY]   (default: this checkout's release build)
# Installs Debian's nginx if missing (root, as scripts/install-deps.sh), then runs scripts/proxy-cache-test.py,
# which starts prelude and nginx on 127.0.0.1 (free ports), checks every property with real requests and stops
# both. Bounded: the whole run is killed after 120 s.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/ensure-nginx.sh

binary="${1:-$(swift build -c release --show-bin-path)/prelude}"
timeout 120 python3 scripts/proxy-cache-test.py "$binary"
