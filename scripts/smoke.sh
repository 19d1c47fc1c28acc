#!/usr/bin/env bash
# Smoke test against a running Prelude: ./scripts/smoke.sh http://127.0.0.1:8080
# Reusable against a container. Exits non-zero on the first failed check.
set -euo pipefail

BASE_URL="${1:?usage: smoke.sh BASE_URL}"
BASE_URL="${BASE_URL%/}"
failures=0

# check NAME EXPECTED_STATUS BODY_REGEX CURL_ARGS...
check() {
    local name="$1" expected="$2" pattern="$3"
    shift 3
    local body status
    body="$(mktemp)"
    status="$(curl -sS -o "$body" -w '%{http_code}' --max-time 5 "$@")" || status="curl-failed"
    if [[ "$status" != "$expected" ]]; then
        echo "FAIL $name: status $status, expected $expected; body: $(head -c 300 "$body")" >&2
        failures=$((failures + 1))
    elif ! grep -Eq -- "$pattern" "$body"; then
        echo "FAIL $name: body does not match /$pattern/: $(head -c 300 "$body")" >&2
        failures=$((failures + 1))
    else
        echo "ok   $name ($status)"
    fi
    rm -f "$body"
}

check "GET /healthz" 200 '"status":"ok"' "$BASE_URL/healthz"
check "GET /readyz" 200 '"status":"ready"' "$BASE_URL/readyz"
# -I: curl reads only the head; we check GET's headers come back (RFC 9110 §9.3.2).
check "HEAD /healthz" 200 '[Cc]ontent-[Ll]ength: [0-9]+' -I "$BASE_URL/healthz"
check "unknown path is 404" 404 '.*' "$BASE_URL/no-such-path"
check "POST /healthz is 405" 405 '.*' -X POST "$BASE_URL/healthz"

# Content-Type of the health answer.
content_type="$(curl -sS -o /dev/null -w '%{content_type}' "$BASE_URL/healthz")"
if [[ "$content_type" != application/json* ]]; then
    echo "FAIL /healthz Content-Type is '$content_type'" >&2
    failures=$((failures + 1))
else
    echo "ok   /healthz Content-Type $content_type"
fi

if ((failures > 0)); then
    echo "smoke: $failures check(s) failed" >&2
    exit 1
fi
echo "smoke: all checks passed"
