#!/usr/bin/env bash
# OFREP (docs/openfeature.md) against a running Prelude, with real OpenFeature clients.
#
# Usage: scripts/check-ofrep.sh BASE_URL [APP]        (e.g. http://127.0.0.1:8080 demo; loopback only)
#
# 1. schemathesis with the protocol's own document (docs/ofrep/openapi.yaml, unchanged) against
#    BASE_URL/v1/apps/APP, the base URL an OpenFeature provider is given: every check except
#    positive_data_acceptance (a schema-valid key need not be a feature of the app: 404 FLAG_NOT_FOUND, which the
#    document allows) and ignored_auth (the document lists API-key and bearer schemes that it calls optional;
#    Prelude's public endpoints take no authentication, docs/security.md).
# 2. scripts/check-ofrep.py: the Python OpenFeature SDK with its OFREP provider evaluates every seed flow.
#
# Env: SCHEMATHESIS_MAX_EXAMPLES (default 40 per operation), SCHEMATHESIS_MAX_TIME (default 60 s),
#      SCHEMATHESIS_SEED (default 20261125), PRELUDE_CI_CACHE (venv, see scripts/ci-venv.sh). Bounded: ~2 min.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
base=${1:?usage: check-ofrep.sh BASE_URL [APP]}
base=${base%/}
app=${2:-demo}
host=$(sed -E 's#^[a-z]+://(\[[^]]*\]|[^:/]*).*#\1#' <<<"$base")
case "$host" in
127.0.0.1 | localhost | "[::1]") ;;
*)
    echo "check-ofrep: refusing non-loopback host $host" >&2
    exit 2
    ;;
esac

bin=${OFREP_VENV_BIN:-$("$repo/scripts/ci-venv.sh")}
report=$(mktemp -d)
trap 'rm -rf "$report"' EXIT

# The document's `codeDefaultFlag` ({type: object, properties: {}}) also matches every success that has a `value`,
# so `evaluationSuccess`'s oneOf (one of boolean/string/integer/float/object flag or code default) can never hold
# for one: every OFREP server fails it. The run uses a copy where codeDefaultFlag says what its description says,
# "This schema has no value property" (not: {required: [value]}); nothing else is changed.
spec="$report/ofrep-openapi.yaml"
"$bin/python" - "$repo/docs/ofrep/openapi.yaml" "$spec" <<'PY'
import sys, yaml
document = yaml.safe_load(open(sys.argv[1]))
code_default = document["components"]["schemas"]["codeDefaultFlag"]
assert code_default.get("properties") == {} and "not" not in code_default, "docs/ofrep/openapi.yaml changed"
code_default["not"] = {"required": ["value"]}
yaml.safe_dump(document, open(sys.argv[2], "w"), sort_keys=False)
PY

echo "check-ofrep: schemathesis with docs/ofrep/openapi.yaml against $base/v1/apps/$app"
cd "$report"
timeout "$((${SCHEMATHESIS_MAX_TIME:-60} + 60))" "$bin/schemathesis" --config-file "$repo/scripts/schemathesis-ofrep.toml" \
    run "$spec" \
    --url "$base/v1/apps/$app" \
    --checks all --exclude-checks positive_data_acceptance,ignored_auth \
    --phases examples,coverage,fuzzing \
    --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-40}" \
    --max-time "${SCHEMATHESIS_MAX_TIME:-60}" \
    --seed "${SCHEMATHESIS_SEED:-20261125}" \
    --workers 1 \
    --request-timeout 5 \
    --report-dir "$report" \
    --output-truncate true

echo "check-ofrep: the OpenFeature Python SDK with its OFREP provider on every seed flow"
timeout 120 "$bin/python" "$repo/scripts/check-ofrep.py" "$base" "$app"
echo "check-ofrep: ok"
