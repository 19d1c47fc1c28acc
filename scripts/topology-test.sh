#!/usr/bin/env bash
# A primary and three read replicas of the release binary on loopback, end to end (docs/scaling.md):
#   1. a revision committed on the primary is served by every replica (20 changes; p50/p99 printed; p99 < 1 s),
#      with the same bytes and ETag as the primary, identity and gzip;
#   2. an admin write on a replica is refused with 409 read-replica naming the primary;
#   3. the primary SIGKILLed: replicas keep serving and accept events into their outbox; a replica restarted
#      meanwhile serves its stored copy;
#   4. the primary back, a replica SIGKILLed again and again while it forwards: every event stored exactly once;
#   5. environments: a staging environment created and changed on the primary reaches every replica with its own
#      bytes and tags (production untouched), a staging rollback and a new environment too, and events posted to a
#      replica's staging route are stored on the primary as staging's.
# replica1 follows the primary over plain HTTP; replica2 and replica3 over HTTPS, through an nginx that terminates TLS
# in front of the primary with a certificate from a CA made for this run (PRELUDE_TLS_CA_FILE), as docs/scaling.md
# ("Over HTTPS") tells a deployment to do.
# nginx with the repository's deploy/nginx include files sits in front of the replicas (primary as backup, admin
# to the primary, as deploy/nginx/nginx.conf does): resolved policies through it are the primary's bytes, and
# during the outage it keeps serving and takes events into the replicas' outboxes.
# Usage: scripts/topology-test.sh [path/to/prelude]     (default: the release build's binary)
# Needs curl, python3 (to read the primary's database) and nginx (installed by scripts/ensure-nginx.sh
# when missing) and openssl. Every wait is bounded; the whole run takes ~25 s.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
source "$repo/scripts/ensure-nginx.sh"
nginx="$(command -v nginx || echo /usr/sbin/nginx)"
binary="${1:-$(cd "$repo" && swift build -c release --show-bin-path)/prelude}"
[[ -x "$binary" ]] || { echo "topology-test: no binary at $binary" >&2; exit 1; }
work="$(mktemp -d)"
token="topo_$(od -An -tx1 -N24 /dev/urandom | tr -d ' \n')"
declare -A pids=() ports=()

cleanup() {
    [[ -f "$work/nginx/nginx.pid" ]] && kill -TERM "$(cat "$work/nginx/nginx.pid")" 2>/dev/null
    [[ -f "$work/tls/nginx.pid" ]] && kill -TERM "$(cat "$work/tls/nginx.pid")" 2>/dev/null
    for name in "${!pids[@]}"; do kill -KILL "${pids[$name]}" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
fail() {
    echo "topology-test: FAIL: $*" >&2
    for log in "$work"/*.log; do
        echo "--- $log (last warnings and errors)" >&2
        grep -E '"level":"(warning|error)"' "$log" | tail -5 >&2 || true
        echo "--- $log (last lines)" >&2
        tail -5 "$log" >&2
    done
    exit 1
}

# start NAME PORT [serve flags...]: starts `prelude serve` as NAME, waits for its port.
start() {
    local name="$1" port="$2"
    shift 2
    : >"$work/$name.log"
    PRELUDE_PORT="$port" PRELUDE_DATABASE="$work/$name.sqlite" PRELUDE_ADMIN_TOKEN="$token" \
        PRELUDE_MIGRATIONS_DIR="$repo/migrations" PRELUDE_EVENTS_PER_INSTALL_PER_SECOND=0 PRELUDE_DRAIN_SECONDS=0 \
        PRELUDE_FOLLOW_TOKEN="$token" PRELUDE_TLS_CA_FILE="$work/tls/ca.pem" "$binary" serve "$@" 2>>"$work/$name.log" &
    pids[$name]=$!
    disown "${pids[$name]}" # no "Killed" job notices: kill9 waits for the process itself
    local bound=""
    for _ in $(seq 1 100); do
        bound="$(grep -o '"msg":"listening".*"port":[0-9]*' "$work/$name.log" | grep -o '[0-9]*$' || true)"
        [[ -n "$bound" ]] && break
        kill -0 "${pids[$name]}" 2>/dev/null || fail "$name exited during start-up"
        sleep 0.05
    done
    [[ -n "$bound" ]] || fail "$name did not log its port"
    ports[$name]="$bound"
}
kill9() {
    kill -KILL "${pids[$1]}" 2>/dev/null || true
    while kill -0 "${pids[$1]}" 2>/dev/null; do sleep 0.01; done
    unset "pids[$1]"
}
url() { echo "http://127.0.0.1:${ports[$1]}"; }
etag_of() { curl -fsS -o /dev/null -D - "$(url "$1")/v1/apps/demo/policy/document" | tr -d '\r' | awk 'tolower($1)=="etag:"{print $2}'; }
now_ms() { date +%s%3N; }
metric() { curl -fsS "$(url "$1")/metrics" | awk -v name="$2" '$1==name{print $2}'; }

replicas=(replica1 replica2 replica3)
start primary 0 --demo-policy "$repo/config/demo-policy.json"
# free_port: a port the kernel just handed out on 127.0.0.1.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# run_nginx DIR: writes DIR/nginx.conf (a daemon with one worker, its pid, log and temporary folders in DIR) around
# the http block's own lines read from stdin, checks it and starts it.
run_nginx() {
    local dir="$1"
    mkdir -p "$dir"/{cache,client_body,proxy,fastcgi,uwsgi,scgi}
    chmod 0777 "$dir" "$dir"/{cache,client_body,proxy,fastcgi,uwsgi,scgi}
    {
        cat <<CONF
daemon on;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path $dir/client_body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
CONF
        cat
        echo "}"
    } >"$dir/nginx.conf"
    "$nginx" -t -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" 2>/dev/null || fail "nginx -t refused $dir/nginx.conf"
    "$nginx" -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" 2>/dev/null || fail "nginx in $dir did not start"
}
# TLS in front of the primary: a CA made for this run signs a certificate for `localhost`; nginx terminates TLS and
# passes every request to the primary (its port stays the same across the primary's restarts below).
start_tls_front() {
    local dir="$work/tls" port ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
    mkdir -p "$dir"
    openssl req -x509 "${ec[@]}" -keyout "$dir/ca.key" -out "$dir/ca.pem" -days 2 -subj "/CN=Prelude topology CA" \
        2>/dev/null || fail "openssl could not make the CA"
    openssl req -new "${ec[@]}" -keyout "$dir/server.key" -out "$dir/server.csr" -subj /CN=localhost 2>/dev/null
    printf 'subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >"$dir/server.ext"
    openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial -days 2 \
        -out "$dir/server.pem" -extfile "$dir/server.ext" 2>/dev/null || fail "openssl could not sign the certificate"
    port="$(free_port)"
    run_nginx "$dir" <<CONF
    server {
        listen 127.0.0.1:$port ssl;
        ssl_certificate $dir/server.pem;
        ssl_certificate_key $dir/server.key;
        # Held change-feed polls last up to 30 s; forwarded event batches (up to 256 KiB) are streamed, not buffered
        # to a temporary file (which nginx's workers could not write here).
        location / {
            proxy_pass http://127.0.0.1:${ports[primary]};
            proxy_read_timeout 60s;
            proxy_request_buffering off;
            client_max_body_size 2m;
        }
    }
CONF
    for _ in $(seq 1 100); do
        curl -fsS -o /dev/null --cacert "$dir/ca.pem" "https://localhost:$port/healthz" 2>/dev/null && break
        sleep 0.05
    done
    curl -fsS -o /dev/null --cacert "$dir/ca.pem" "https://localhost:$port/healthz" || fail "no TLS in front of the primary"
    primary_tls="https://localhost:$port"
}
start_tls_front
follow_url() { if [[ "$1" == replica1 ]]; then url primary; else echo "$primary_tls"; fi; }
for replica in "${replicas[@]}"; do start "$replica" 0 --demo-policy "" --follow "$(follow_url "$replica")"; done
primary_etag="$(etag_of primary)"
for replica in "${replicas[@]}"; do
    for _ in $(seq 1 100); do [[ "$(etag_of "$replica")" == "$primary_etag" ]] && break; sleep 0.05; done
    [[ "$(etag_of "$replica")" == "$primary_etag" ]] || fail "$replica did not sync"
    curl -fsS -o /dev/null "$(url "$replica")/readyz" || fail "$replica not ready after its first sync"
done
# nginx in front: the replicas round robin, the primary as backup; /v1/admin/ to the primary.
start_nginx() {
    local dir="$work/nginx" port
    port="$(free_port)"
    run_nginx "$dir" <<CONF
    include $repo/deploy/nginx/prelude-http.conf;
    upstream prelude_origin {
        server 127.0.0.1:${ports[replica1]}; server 127.0.0.1:${ports[replica2]}; server 127.0.0.1:${ports[replica3]};
        server 127.0.0.1:${ports[primary]} backup;
        keepalive 16;
    }
    upstream prelude_primary { server 127.0.0.1:${ports[primary]}; }
    proxy_cache_path $dir/cache levels=1:2 keys_zone=prelude_policy:10m max_size=64m inactive=1d use_temp_path=off;
    server {
        listen 127.0.0.1:$port;
        location /v1/admin/ { proxy_pass http://prelude_primary; proxy_set_header Host \$host; }
        include $repo/deploy/nginx/prelude-locations.conf;
    }
CONF
    ports[nginx]="$port"
    for _ in $(seq 1 100); do curl -fsS -o /dev/null "$(url nginx)/healthz" 2>/dev/null && return; sleep 0.05; done
    fail "nginx does not answer"
}
start_nginx
echo "topology-test: primary $(url primary) (TLS: $primary_tls), replicas $(for r in "${replicas[@]}"; do printf '%s ' "$(url "$r")"; done), nginx $(url nginx)"

# 1. Propagation: 20 changes, each timed from the primary's 200 until every replica serves the new tag.
: >"$work/latencies"
for round in $(seq 1 20); do
    current="$(curl -fsS -o /dev/null -D - -H "Authorization: Bearer $token" "$(url primary)/v1/admin/apps/demo/policy" |
        tr -d '\r' | awk 'tolower($1)=="etag:"{print $2}')"
    status="$(curl -sS -o "$work/patch.json" -w '%{http_code}' -X PATCH -H "Authorization: Bearer $token" \
        -H "If-Match: $current" -H 'Content-Type: application/merge-patch+json' \
        -d "{\"copy\": {\"en\": {\"prime\": {\"title\": \"Scan documents, take $round.\"}}}}" \
        "$(url primary)/v1/admin/apps/demo/features/camera")"
    committed="$(now_ms)"
    [[ "$status" == 200 ]] || fail "PATCH on the primary answered $status: $(cat "$work/patch.json")"
    wanted="$(etag_of primary)"
    for replica in "${replicas[@]}"; do
        served=""
        while [[ "$served" != "$wanted" ]]; do
            (($(now_ms) - committed < 5000)) || fail "$replica did not serve $wanted within 5 s"
            served="$(etag_of "$replica")"
        done
        echo $(($(now_ms) - committed)) >>"$work/latencies"
    done
done
sort -n "$work/latencies" >"$work/sorted"
count="$(wc -l <"$work/sorted")"
p50="$(sed -n "$(((count + 1) / 2))p" "$work/sorted")"
p99="$(sed -n "$(((count * 99 + 99) / 100))p" "$work/sorted")"
echo "topology-test: propagation over $count samples (20 changes x 3 replicas, curl polling): p50 ${p50} ms, p99 ${p99} ms, max $(tail -1 "$work/sorted") ms"
((p99 < 1000)) || fail "p99 ${p99} ms is over the 1 s bound"

# Same bytes and tags as the primary, identity and gzip, document and resolved policy.
for path in "/v1/apps/demo/policy/document" "/v1/apps/demo/policy?platform=ios&os=17.4&locale=de-DE&installId=x1"; do
    for encoding in identity gzip; do
        curl -fsS -H "Accept-Encoding: $encoding" -D "$work/p.head" -o "$work/p.body" "$(url primary)$path"
        for replica in "${replicas[@]}"; do
            curl -fsS -H "Accept-Encoding: $encoding" -D "$work/r.head" -o "$work/r.body" "$(url "$replica")$path"
            cmp -s "$work/p.body" "$work/r.body" || fail "$replica: $path ($encoding) differs from the primary's bytes"
            [[ "$(grep -i '^etag:' "$work/p.head")" == "$(grep -i '^etag:' "$work/r.head")" ]] ||
                fail "$replica: $path ($encoding) has another ETag"
        done
    done
done
resolved="/v1/apps/demo/policy?platform=ios&os=17.4&locale=de-DE&installId=x1"
curl -fsS -D "$work/p.head" -o "$work/p.body" "$(url primary)$resolved"
for _ in 1 2 3 4; do # round robin over the replicas
    curl -fsS -D "$work/n.head" -o "$work/n.body" "$(url nginx)$resolved"
    cmp -s "$work/p.body" "$work/n.body" || fail "nginx (a replica behind it) answered other bytes for $resolved"
done
echo "topology-test: every replica (and nginx in front of them) serves the primary's bytes and ETags"

# 2. Admin writes on a replica are refused, naming the primary.
status="$(curl -sS -o "$work/refused.json" -w '%{http_code}' -X PUT -H "Authorization: Bearer $token" \
    -H 'Content-Type: application/json' -d '{}' "$(url replica1)/v1/admin/apps/demo/policy")"
[[ "$status" == 409 ]] && grep -q 'read-replica' "$work/refused.json" && grep -q "$(url primary)" "$work/refused.json" ||
    fail "admin write on a replica answered $status: $(cat "$work/refused.json")"
echo "topology-test: admin write on a replica refused (409 read-replica)"

# 2b. Environments: staging, created as a copy of production and then changed, reaches every replica with its own bytes
#     and tags while production's stay; a staging rollback and an environment created from staging follow.
env_etag() { # server environment
    curl -fsS -o /dev/null -D - "$(url "$1")/v1/apps/demo/environments/$2/policy/document" | tr -d '\r' |
        awk 'tolower($1)=="etag:"{print $2}'
}
admin() { # curl arguments...: the status; the body in $work/admin.json
    curl -sS -o "$work/admin.json" -w '%{http_code}' -H "Authorization: Bearer $token" "$@"
}
json_field() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$work/admin.json" "$1"; }
staging_admin="$(url primary)/v1/admin/apps/demo/environments/staging"
staging_etag() {
    curl -fsS -o /dev/null -D - -H "Authorization: Bearer $token" "$staging_admin/policy" | tr -d '\r' |
        awk 'tolower($1)=="etag:"{print $2}'
}
wait_environment() { # environment: every replica serves the primary's current tag for it (at most 5 s)
    local wanted deadline=$((SECONDS + 5)) replica
    wanted="$(env_etag primary "$1")"
    [[ -n "$wanted" ]] || fail "the primary serves no $1 document"
    for replica in "${replicas[@]}"; do
        until [[ "$(env_etag "$replica" "$1")" == "$wanted" ]]; do
            ((SECONDS < deadline)) || fail "$replica did not serve $1's $wanted within 5 s"
            sleep 0.02
        done
    done
}
same_bytes() { # paths...: every replica answers each with the primary's bytes and tag, identity and gzip
    local path encoding replica
    for path in "$@"; do
        for encoding in identity gzip; do
            curl -fsS -H "Accept-Encoding: $encoding" -D "$work/ep.head" -o "$work/ep.body" "$(url primary)$path"
            for replica in "${replicas[@]}"; do
                curl -fsS -H "Accept-Encoding: $encoding" -D "$work/er.head" -o "$work/er.body" "$(url "$replica")$path"
                cmp -s "$work/ep.body" "$work/er.body" || fail "$replica: $path ($encoding) differs from the primary's"
                [[ "$(grep -i '^etag:' "$work/ep.head")" == "$(grep -i '^etag:' "$work/er.head")" ]] ||
                    fail "$replica: $path ($encoding) has another ETag"
            done
        done
    done
}
status="$(admin -X POST -H 'Content-Type: application/json' -d '{"name": "staging", "copyFrom": "production"}' \
    "$(url primary)/v1/admin/apps/demo/environments")"
[[ "$status" == 201 ]] || fail "creating staging answered $status: $(cat "$work/admin.json")"
copied="$(json_field liveRevision)"
status="$(admin -X PATCH -H "If-Match: $(staging_etag)" -H 'Content-Type: application/merge-patch+json' \
    -d '{"copy": {"en": {"prime": {"title": "Scan in staging."}}}}' "$staging_admin/features/camera")"
[[ "$status" == 200 ]] || fail "PATCH on staging answered $status: $(cat "$work/admin.json")"
wait_environment staging
staging_paths=("/v1/apps/demo/environments/staging/policy/document"
    "/v1/apps/demo/environments/staging/policy?platform=ios&os=17.4&locale=en&installId=x1")
same_bytes "${staging_paths[@]}" "/v1/apps/demo/policy/document"
for replica in "${replicas[@]}"; do
    [[ "$(etag_of "$replica")" == "$wanted" ]] || fail "$replica: production moved when staging changed"
    curl -fsS -o "$work/staging.json" "$(url "$replica")/v1/apps/demo/environments/staging/policy/document"
    curl -fsS -o "$work/production.json" "$(url "$replica")/v1/apps/demo/policy/document"
    grep -q 'Scan in staging\.' "$work/staging.json" || fail "$replica does not serve staging's camera title"
    ! grep -q 'Scan in staging\.' "$work/production.json" || fail "$replica serves staging's title in production"
done
status="$(admin -X POST -H "If-Match: $(staging_etag)" "$staging_admin/revisions/$copied/rollback")"
[[ "$status" == 200 ]] || fail "staging rollback answered $status: $(cat "$work/admin.json")"
wait_environment staging
curl -fsS -o "$work/staging.json" "$(url replica3)/v1/apps/demo/environments/staging/policy/document"
! grep -q 'Scan in staging\.' "$work/staging.json" || fail "replica3 still serves staging's title after the rollback"
status="$(admin -X POST -H 'Content-Type: application/json' -d '{"name": "qa", "copyFrom": "staging"}' \
    "$(url primary)/v1/admin/apps/demo/environments")"
[[ "$status" == 201 ]] || fail "creating qa answered $status: $(cat "$work/admin.json")"
wait_environment qa
same_bytes "${staging_paths[@]}" "/v1/apps/demo/environments/qa/policy/document"
for replica in "${replicas[@]}"; do [[ "$(etag_of "$replica")" == "$wanted" ]] || fail "$replica: production moved"; done
echo "topology-test: environments: staging (changed, rolled back) and qa (created) on every replica with the primary's bytes; production untouched"

# 3. Primary down: replicas serve and queue events; a replica restarted meanwhile serves its stored copy.
primary_port="${ports[primary]}"
kill9 primary
served_etag="$(etag_of primary 2>/dev/null || true)"
[[ -z "$served_etag" ]] || fail "the primary still answers after SIGKILL"
expected=0
post_batch() { # replica batch-number events-per-batch [route prefix, default production's]
    local events="" i
    for i in $(seq 1 "$3"); do
        events+="${events:+,}{\"id\":\"b$2-$i\",\"installId\":\"install-$2\",\"type\":\"primeShown\",\"feature\":\"camera\",\"occurredAt\":1795000000000}"
    done
    status="$(curl -sS -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
        -d "{\"events\":[$events]}" "$(url "$1")${4:-/v1/apps/demo}/events")"
    [[ "$status" == 202 ]] || fail "$1 answered $status to an event batch"
}
for batch in $(seq 1 60); do
    post_batch "${replicas[$((batch % 3))]}" "$batch" 50
    expected=$((expected + 50))
done
# The same batch through two replicas (a client that retried elsewhere) is stored once.
post_batch replica1 1 50
post_batch replica2 2 50
# Staging's clients: their events are forwarded to staging's route and stored as staging's.
expected_staging=0
for batch in $(seq 101 106); do
    post_batch "${replicas[$((batch % 3))]}" "$batch" 50 /v1/apps/demo/environments/staging
    expected_staging=$((expected_staging + 50))
done
expected=$((expected + expected_staging))
for replica in "${replicas[@]}"; do
    [[ "$(etag_of "$replica")" == "$wanted" ]] || fail "$replica stopped serving with the primary down"
done
# Through nginx: the resolved policy (never cached by nginx) comes from a replica, events go into an outbox.
curl -fsS -o "$work/n.body" "$(url nginx)$resolved" || fail "nginx stopped serving the resolved policy"
cmp -s "$work/p.body" "$work/n.body" || fail "nginx answers other bytes with the primary down"
post_batch nginx 61 50
expected=$((expected + 50))
# What this shape does not survive (docs/scaling.md, "What each shape survives"): the primary alone writes, so an
# admin write has nowhere to go until it returns (nginx sends /v1/admin/ to the primary only), and a replica refuses
# it; schedules and rollout guards run on the primary only, so they wait for it too.
status="$(curl -sS -o /dev/null -w '%{http_code}' -X POST -H "Authorization: Bearer $token" \
    -H 'Content-Type: application/json' -d '{"name": "outage", "copyFrom": "production"}' \
    "$(url nginx)/v1/admin/apps/demo/environments")"
[[ "$status" =~ ^50[234]$ ]] || fail "an admin write through nginx with the primary down answered $status, not 502-504"
status="$(curl -sS -o /dev/null -w '%{http_code}' -X POST -H "Authorization: Bearer $token" \
    -H 'Content-Type: application/json' -d '{"name": "outage", "copyFrom": "production"}' \
    "$(url replica2)/v1/admin/apps/demo/environments")"
[[ "$status" == 409 ]] || fail "an admin write on a replica with the primary down answered $status, not 409"
echo "topology-test: primary down: admin writes fail (nginx answers 502-504, a replica 409) until the primary returns"
kill9 replica1
start replica1 "${ports[replica1]}" --demo-policy "" --follow "http://127.0.0.1:$primary_port"
curl -fsS -o /dev/null "$(url replica1)/readyz" || fail "replica1 restarted with the primary down is not ready"
[[ "$(etag_of replica1)" == "$wanted" ]] || fail "replica1 restarted with the primary down does not serve its copy"
echo "topology-test: primary down: replicas serve, $expected events queued in outboxes, restarted replica serves its stored copy"

# 4. Primary back; replica2 SIGKILLed while it forwards, five times; every event stored once.
start primary "$primary_port" --demo-policy "$repo/config/demo-policy.json"
for round in 1 2 3 4 5; do
    sleep "0.0$((round * 2))"
    kill9 replica2
    start replica2 "${ports[replica2]}" --demo-policy "" --follow "$primary_tls"
done
deadline=$((SECONDS + 60))
for replica in "${replicas[@]}"; do
    until [[ "$(metric "$replica" prelude_replica_outbox_events)" == 0 ]]; do
        ((SECONDS < deadline)) || fail "$replica's outbox did not drain within 60 s"
        sleep 0.1
    done
done
kill9 primary
stored="$(python3 - "$work/primary.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
total, distinct = db.execute(
    "SELECT count(*), count(DISTINCT install_id || '/' || client_event_id) FROM events").fetchone()
print(total if total == distinct else f"{total} rows, {distinct} distinct")
PY
)"
[[ "$stored" == "$expected" ]] || fail "the primary stored $stored events; $expected were sent"
# Batches 101-106 went to staging's route; every other one to production's.
by_environment="$(python3 - "$work/primary.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("""SELECT environment, CAST(substr(install_id, 9) AS INTEGER) BETWEEN 101 AND 106, count(*)
                     FROM events GROUP BY 1, 2 ORDER BY 1, 2""").fetchall()
print(" ".join(f"{environment}:{'s' if staging else 'p'}:{count}" for environment, staging, count in rows))
PY
)"
[[ "$by_environment" == "production:p:$((expected - expected_staging)) staging:s:$expected_staging" ]] ||
    fail "events by environment (environment:sent-to:count): $by_environment"
status="$(curl -sS -o /dev/null -w '%{http_code}' "$(url nginx)$resolved")"
[[ "$status" == 200 ]] || fail "nginx answered $status after the replicas restarted"
echo "topology-test: primary back: all $expected events stored exactly once, $expected_staging of them as staging's (replica2 killed 5 times while forwarding over HTTPS)"
echo "topology-test: ok"
