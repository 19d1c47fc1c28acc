#!/usr/bin/env bash
# Validates openapi.yaml and exercises a running Prelude with schemathesis.
#
# Usage: scripts/check-openapi.sh BASE_URL            (e.g. http://127.0.0.1:8080; loopback only)
#
# 1. openapi-spec-validator: the document is valid OpenAPI 3.1.
# 2. GET BASE_URL/openapi.yaml serves exactly the repository's file.
# 3. schemathesis against the live server: the public and operations endpoints always; the admin endpoints too
#    when PRELUDE_TOKEN holds a write token: it mints a write token with the approve capability for the run, which
#    covers every admin route, approving and rejecting change requests included. Every check schemathesis has
#    runs except positive_data_acceptance (see below); any failure fails the script.
#
# Env: PRELUDE_TOKEN (admin bearer token, optional), SCHEMATHESIS_MAX_EXAMPLES (default 30 per operation),
#      SCHEMATHESIS_MAX_TIME (default 120 s for the whole run: fuzzing repeats until it is spent), SCHEMATHESIS_SEED (default 20261122, so a CI
#      failure reproduces), PRELUDE_CI_CACHE (venv location, see scripts/ci-venv.sh).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
base=${1:?usage: check-openapi.sh BASE_URL}
base=${base%/}
host=$(sed -E 's#^[a-z]+://(\[[^]]*\]|[^:/]*).*#\1#' <<<"$base")
case "$host" in
127.0.0.1 | localhost | "[::1]") ;;
*)
    echo "check-openapi: refusing non-loopback host $host" >&2
    exit 2
    ;;
esac

bin=$("$repo/scripts/ci-venv.sh")

echo "check-openapi: openapi-spec-validator"
"$bin/openapi-spec-validator" "$repo/openapi.yaml"

echo "check-openapi: the served document is the repository's"
served=$(mktemp)
report=$(mktemp -d)
trap 'rm -rf "$served" "$report"' EXIT
curl -fsS --max-time 5 -o "$served" "$base/openapi.yaml"
cmp "$served" "$repo/openapi.yaml"

filters=(--include-tag public --include-tag operations)
headers=()
if [[ -n "${PRELUDE_TOKEN:-}" ]]; then
    # Revoking a token (it would find and revoke its own, from GET /v1/admin/tokens) and deleting an app (If-Match: *
    # deletes the demo) would remove what the rest of the run tests; the admin tests cover both.
    filters=(--exclude-operation-id revokeToken --exclude-operation-id deleteApp)
    # PRELUDE_TOKEN (in CI the bootstrap write token) lacks the approve capability, so approving and rejecting change
    # requests would only ever answer 403: it mints a write token that also approves (docs/change-management.md),
    # named for this run, and schemathesis uses that one.
    minted=$(curl -fsS --max-time 5 -X POST -H "Authorization: Bearer $PRELUDE_TOKEN" -H 'Content-Type: application/json' \
        -d "{\"name\": \"schemathesis-$(date +%s)-$RANDOM\", \"scope\": \"write\", \"approve\": true}" \
        "$base/v1/admin/tokens" | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
    headers=(-H "Authorization: Bearer $minted")
    echo "check-openapi: schemathesis on every operation (admin with a write token minted by PRELUDE_TOKEN, approve capability)"
else
    echo "check-openapi: schemathesis on the public and operations endpoints (set PRELUDE_TOKEN for admin)"
fi

# positive_data_acceptance is excluded: it expects 2xx for every schema-valid request, but the schema cannot say
# which apps exist (a valid but unknown app id is 404), that an event time must be within a day of the server's
# clock, or which If-Match value is current; the server's answers to those are still checked for their status
# code, content type, headers and problem+json schema by the other checks.
# --workers 1: the machine has two cores shared with the server under test.
# Run from the scratch directory: schemathesis and hypothesis keep their caches in the working directory.
cd "$report"
timeout "$((${SCHEMATHESIS_MAX_TIME:-120} + 60))" "$bin/schemathesis" --config-file "$repo/scripts/schemathesis.toml" \
    run "$repo/openapi.yaml" \
    --url "$base" \
    "${filters[@]}" \
    "${headers[@]}" \
    --checks all --exclude-checks positive_data_acceptance \
    --phases examples,coverage,fuzzing \
    --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-30}" \
    --max-time "${SCHEMATHESIS_MAX_TIME:-120}" \
    --seed "${SCHEMATHESIS_SEED:-20261122}" \
    --workers 1 \
    --request-timeout 5 \
    --report-dir "$report" \
    --output-truncate true
echo "check-openapi: ok"
