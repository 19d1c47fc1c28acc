#!/usr/bin/env bash
# A leader node whose machine vanishes (docs/kubernetes.md, "A machine lost"): two nodes of PRELUDE_BINARY on a
# throwaway PostgreSQL 15 (scripts/postgres/throwaway.sh); the first takes every leader role; then every packet of its
# database connections is dropped (iptables on loopback, those ports only) and it is SIGKILLed, so its FIN and RST are
# lost too, as with a machine that lost power. Prints how long the second node took to lead.
#
#   scripts/postgres/vanished-node.sh PRELUDE_BINARY              # the manifests' URL (libpq keepalives): lead in 30 s
#   scripts/postgres/vanished-node.sh PRELUDE_BINARY --defaults   # a URL without them: the server's keepalives, which
#                                                                 #   Prelude sets on each session, must still free the
#                                                                 #   locks: lead in 30 s
#
# Needs root (iptables). Not in .ci/run: it changes the machine's firewall for up to a minute (rules matching only
# this run's ports, removed on exit).
set -euo pipefail
cd "$(dirname "$0")/../.."

binary="$(realpath "${1:?usage: vanished-node.sh PRELUDE_BINARY [--defaults]}")"
mode="${2:-}"
[[ "$(id -u)" == 0 ]] || { echo "vanished-node: needs root (iptables)" >&2; exit 2; }

work="$(mktemp -d)"
chmod 755 "$work"
rules=()
pids=()
cleanup() {
    local rule
    for rule in "${rules[@]}"; do iptables -D INPUT $rule || true; done
    for pid in "${pids[@]}"; do kill -INT "$pid" 2>/dev/null || true; done
    sleep 1
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    scripts/postgres/throwaway.sh stop "$work/cluster" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

url="$(scripts/postgres/throwaway.sh start "$work/cluster" 2>/dev/null)"
pg_port="$(sed -E 's#.*:([0-9]+)/.*#\1#' <<<"$url")"
limit=30
if [[ "$mode" != --defaults ]]; then
    # The same settings as deploy/kubernetes/postgres-*/deployment.yaml.
    url="$url?connect_timeout=5&keepalives_idle=5&keepalives_interval=2&keepalives_count=3&tcp_user_timeout=10000"
fi

node() {  # node LOG: starts a node in the background, appends its pid to pids
    PRELUDE_DATABASE="$url" PRELUDE_PORT=0 PRELUDE_DEMO_POLICY="" \
        PRELUDE_MIGRATIONS_DIR="$PWD/migrations" "$binary" serve >"$1" 2>&1 &
    pids+=("$!")
    disown "$!"
}
wait_for() {  # wait_for LOG SECONDS: until LOG says a leader role was taken
    local deadline=$((SECONDS + $2))
    until grep -q '"leader role taken"' "$1"; do
        ((SECONDS < deadline)) || return 1
        sleep 0.1
    done
}

node "$work/first.log"
wait_for "$work/first.log" 20 || { cat "$work/first.log" >&2; echo "vanished-node: the first node led nothing" >&2; exit 1; }
node "$work/second.log"
sleep 2
grep -q '"listening"' "$work/second.log" || { cat "$work/second.log" >&2; exit 1; }
if grep -q '"leader role taken"' "$work/second.log"; then
    echo "vanished-node: the second node led before the first vanished" >&2
    exit 1
fi

first="${pids[0]}"
ports="$(ss -tnpH state established "( dport = :$pg_port )" | grep "pid=$first," | awk '{print $3}' | sed 's/.*://' \
    | sort -u)"
[[ -n "$ports" ]] || { echo "vanished-node: no connection of the first node found" >&2; exit 1; }
for port in $ports; do
    for direction in --sport --dport; do
        rule="-i lo -p tcp $direction $port -j DROP"
        iptables -I INPUT $rule
        rules+=("$rule")
    done
done
kill -KILL "$first"
start=$(date +%s%N)
if wait_for "$work/second.log" "$limit"; then
    elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
    echo "vanished-node: the second node led $((elapsed / 1000)).$(printf %03d $((elapsed % 1000))) s after the first vanished (${mode:-keepalives})"
else
    echo "vanished-node: the second node led nothing within $limit s after the first vanished (${mode:-keepalives})"
    exit 1
fi
