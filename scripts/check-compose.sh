#!/usr/bin/env bash
# Checks deploy/compose.yaml and the container nginx configuration without starting any container:
#   1. `docker-compose config -q` (Debian's docker-compose 1.29, no daemon needed) validates the file against the
#      Compose schema, with placeholder tokens (the file refuses to start without real ones);
#   2. every file the services bind-mount exists;
#   3. `nginx -t` parses deploy/nginx/nginx.conf with its includes, the upstream host names pointed at 127.0.0.1
#      and the container paths moved into a temporary directory (nginx resolves upstreams while parsing).
# Installs docker-compose and nginx from Debian if missing (root, as scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v docker-compose >/dev/null || missing+=(docker-compose)
command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || missing+=(nginx)
if ((${#missing[@]} > 0)); then
    echo "installing: ${missing[*]}"
    sudo_cmd=()
    if [[ "$(id -u)" != 0 ]]; then sudo_cmd=(sudo); fi
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
PATH="$PATH:/usr/sbin"

resolved="$(PRELUDE_ADMIN_TOKEN=placeholder PRELUDE_FOLLOW_TOKEN=placeholder \
    docker-compose -f deploy/compose.yaml config)"
echo "ok   deploy/compose.yaml is a valid Compose file"
services="$(PRELUDE_ADMIN_TOKEN=placeholder PRELUDE_FOLLOW_TOKEN=placeholder \
    docker-compose -f deploy/compose.yaml config --services | sort | tr '\n' ' ')"
[[ "$services" == "litestream nginx primary replica-1 replica-2 " ]] \
    || { echo "FAIL compose services are: $services" >&2; exit 1; }
echo "ok   services: $services"
while read -r source; do
    [[ -e "$source" ]] || { echo "FAIL bind-mounted file missing: $source" >&2; exit 1; }
    echo "ok   mounted file exists: ${source#"$PWD/"}"
done < <(grep -o -- '- /[^:]*:' <<<"$resolved" | sed 's/^- //; s/:$//')

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
sed -e "s#/etc/nginx/prelude/#$PWD/deploy/nginx/#g" -e "s#/var/cache/nginx/prelude#$work/cache#" \
    -e "s#/tmp/nginx.pid#$work/nginx.pid#" -e 's#server \(primary\|replica-[12]\):8080#server 127.0.0.1:8080#' \
    -e "s#listen 8080;#listen 127.0.0.1:8080;#" -e "s#/dev/stdout#$work/access.log#" \
    deploy/nginx/nginx.conf >"$work/nginx.conf"
nginx -t -q -p "$work" -c "$work/nginx.conf" -e "$work/error.log" \
    || { cat "$work/error.log" >&2; echo "FAIL nginx -t deploy/nginx/nginx.conf" >&2; exit 1; }
echo "ok   deploy/nginx/nginx.conf parses (nginx -t) with its includes"
