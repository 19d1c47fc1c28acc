#!/usr/bin/env bash
# Checks the compose files and their nginx configurations without starting any container:
#   deploy/compose.yaml (SQLite primary, replicas, Litestream; deploy/nginx/nginx.conf) and
#   deploy/compose-cluster.yaml (three nodes on PostgreSQL; deploy/nginx/cluster.conf). For each:
#   1. `docker-compose config -q` (Debian's docker-compose 1.29, no daemon needed) validates the file against the
#      Compose schema, with placeholder secrets (the files refuse to start without real ones), and the services are
#      the expected ones;
#   2. every file the services bind-mount exists;
#   3. `nginx -t` parses its nginx configuration with its includes, the upstream host names pointed at 127.0.0.1
#      and the container paths moved into a temporary directory (nginx resolves upstreams while parsing).
# Then proves the nginx check can fail: a copy of cluster.conf without its upstream must be refused.
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

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

compose() {  # compose FILE ARGS…: docker-compose with placeholders for every secret the files require
    local file=$1
    shift
    PRELUDE_ADMIN_TOKEN=placeholder PRELUDE_FOLLOW_TOKEN=placeholder PRELUDE_DB_PASSWORD=placeholder \
        docker-compose -f "$file" "$@"
}

check_compose() {  # check_compose FILE "SERVICES SORTED "
    local file=$1 expected=$2 resolved services source
    resolved="$(compose "$file" config)"
    echo "ok   $file is a valid Compose file"
    services="$(compose "$file" config --services | sort | tr '\n' ' ')"
    [[ "$services" == "$expected" ]] || { echo "FAIL $file services are: $services" >&2; exit 1; }
    echo "ok   services: $services"
    while read -r source; do
        [[ -e "$source" ]] || { echo "FAIL bind-mounted file missing: $source" >&2; exit 1; }
        echo "ok   mounted file exists: ${source#"$PWD/"}"
    done < <(grep -o -- '- /[^:]*:' <<<"$resolved" | sed 's/^- //; s/:$//')
}

nginx_test() {  # nginx_test CONF UPSTREAM-HOSTS-REGEX: nginx -t on a copy with the container specifics replaced
    local conf=$1 hosts=$2 dir
    dir="$(mktemp -d -p "$work")"
    sed -e "s#/etc/nginx/prelude/#$PWD/deploy/nginx/#g" -e "s#/var/cache/nginx/prelude#$dir/cache#" \
        -e "s#/tmp/nginx.pid#$dir/nginx.pid#" -e "s#server \($hosts\):8080#server 127.0.0.1:8080#" \
        -e "s#listen 8080;#listen 127.0.0.1:8080;#" -e "s#/dev/stdout#$dir/access.log#" \
        "$conf" >"$dir/nginx.conf"
    if grep -qE '^\s*server +[a-z]' "$dir/nginx.conf"; then
        echo "FAIL $conf has an upstream host the check does not know" >&2
        exit 1
    fi
    nginx -t -q -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" || { cat "$dir/error.log" >&2; return 1; }
}

check_compose deploy/compose.yaml "litestream nginx primary replica-1 replica-2 "
nginx_test deploy/nginx/nginx.conf 'primary\|replica-[12]' \
    || { echo "FAIL nginx -t deploy/nginx/nginx.conf" >&2; exit 1; }
echo "ok   deploy/nginx/nginx.conf parses (nginx -t) with its includes"

check_compose deploy/compose-cluster.yaml "nginx node-1 node-2 node-3 postgres "
nginx_test deploy/nginx/cluster.conf 'node-[123]' || { echo "FAIL nginx -t deploy/nginx/cluster.conf" >&2; exit 1; }
echo "ok   deploy/nginx/cluster.conf parses (nginx -t) with its includes"

# nginx -t must be able to fail here: prelude-locations.conf proxies to `prelude_origin`, so a configuration
# without that upstream is refused.
sed '/upstream prelude_origin {/,/}/d' deploy/nginx/cluster.conf >"$work/no-upstream.conf"
! cmp -s deploy/nginx/cluster.conf "$work/no-upstream.conf" || { echo "FAIL could not break cluster.conf" >&2; exit 1; }
if nginx_test "$work/no-upstream.conf" 'node-[123]' 2>/dev/null; then
    echo "FAIL nginx -t passed a cluster.conf without its upstream" >&2
    exit 1
fi
echo "ok   a cluster.conf without its upstream was refused by nginx -t, as it must be"
