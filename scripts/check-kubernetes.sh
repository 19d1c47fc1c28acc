#!/usr/bin/env bash
# Validates the Kubernetes manifests in deploy/kubernetes/ against the API schemas shipped inside the PyPI package
# kubernetes-validate (offline: no cluster, no download at validation time), in strict mode (unknown fields fail).
# Then proves the check can fail: a copy with a wrong field type must be refused.
#
# Usage: scripts/check-kubernetes.sh            (.ci/run calls it; installs its tools via scripts/ci-venv.sh)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=$("$repo/scripts/ci-venv.sh")
# The Kubernetes version the manifests target (docs/kubernetes.md: the preStop sleep action needs 1.30 or later).
version=1.30.0

shopt -s nullglob
manifests=("$repo"/deploy/kubernetes/*.yaml)
((${#manifests[@]})) || { echo "check-kubernetes: no manifests in deploy/kubernetes/" >&2; exit 1; }
"$bin/kubernetes-validate" --strict -k "$version" "${manifests[@]}"

# The validator must refuse a broken manifest, or the check above proves nothing.
broken=$(mktemp --suffix=.yaml)
trap 'rm -f "$broken"' EXIT
sed 's/containerPort: 8080/containerPort: "eighty"/' "$repo/deploy/kubernetes/statefulset.yaml" >"$broken"
grep -q 'containerPort: "eighty"' "$broken" || { echo "check-kubernetes: could not break the manifest" >&2; exit 1; }
if "$bin/kubernetes-validate" --strict -k "$version" "$broken"; then
    echo "check-kubernetes: a manifest with containerPort \"eighty\" passed validation" >&2
    exit 1
fi
echo "check-kubernetes: the broken copy was refused, as it must be"
