#!/usr/bin/env bash
# Validates the Kubernetes manifests under deploy/kubernetes/ (every folder) offline: no cluster, no download at
# validation time.
#   - Built-in kinds (StatefulSet, Deployment, Service, PodDisruptionBudget…) against the API schemas shipped inside
#     the PyPI package kubernetes-validate, in strict mode (unknown fields fail). A kind it has no schema for fails
#     too (the package only warns), so a custom resource cannot pass unchecked.
#   - CloudNativePG's `Cluster` (postgres-cnpg/cluster.yaml, a custom resource) with scripts/kubernetes/check-cnpg.py:
#     a JSON schema of the fields it uses written from CloudNativePG's API reference, the Deployment wired to the
#     Secret the operator generates, and the two PostgreSQL examples alike but for that Secret.
# Then proves each check can fail: broken copies must be refused.
#
# Usage: scripts/check-kubernetes.sh            (.ci/run calls it; installs its tools via scripts/ci-venv.sh)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=$("$repo/scripts/ci-venv.sh")
# The Kubernetes version the manifests target (docs/kubernetes.md: the preStop sleep action needs 1.30 or later).
version=1.30.0

shopt -s nullglob globstar
builtin=()
clusters=()
for manifest in "$repo"/deploy/kubernetes/**/*.yaml; do
    if grep -q '^apiVersion: postgresql\.cnpg\.io/' "$manifest"; then
        clusters+=("$manifest")
    else
        builtin+=("$manifest")
    fi
done
((${#builtin[@]})) || { echo "check-kubernetes: no manifests in deploy/kubernetes/" >&2; exit 1; }
((${#clusters[@]})) || { echo "check-kubernetes: no CloudNativePG Cluster in deploy/kubernetes/" >&2; exit 1; }

# kubernetes-validate passes a kind it has no schema for with a warning: refuse that.
validate() {
    local output status=0
    output=$("$bin/kubernetes-validate" --strict -k "$version" "$@" 2>&1) || status=$?
    echo "$output"
    if grep -q "Couldn't find schema" <<<"$output"; then
        echo "check-kubernetes: a manifest of a kind without a schema here (custom resource?)" >&2
        return 1
    fi
    return "$status"
}
validate "${builtin[@]}"

cnpg() { "$bin/python" "$repo/scripts/kubernetes/check-cnpg.py" "$@"; }
for cluster in "${clusters[@]}"; do
    [[ "$(basename "$cluster")" == cluster.yaml ]] \
        || { echo "check-kubernetes: a CloudNativePG manifest not named cluster.yaml: $cluster" >&2; exit 1; }
done
cnpg "$repo/deploy/kubernetes/postgres-cnpg" --same-as "$repo/deploy/kubernetes/postgres-external"

# The validators must refuse broken manifests, or the checks above prove nothing.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
refuse() {  # refuse WHAT COMMAND…: the command must fail
    local what=$1
    shift
    if "$@" >"$work/out" 2>&1; then
        cat "$work/out" >&2
        echo "check-kubernetes: $what passed validation" >&2
        exit 1
    fi
    echo "check-kubernetes: $what was refused, as it must be"
}
broken() {  # broken SOURCE SED-EXPRESSION TARGET: a copy of SOURCE with one change, which must have happened
    sed "$2" "$1" >"$3"
    ! cmp -s "$1" "$3" || { echo "check-kubernetes: could not break $1 with $2" >&2; exit 1; }
}

broken "$repo/deploy/kubernetes/statefulset.yaml" 's/containerPort: 8080/containerPort: "eighty"/' \
    "$work/statefulset.yaml"
refuse 'a StatefulSet with containerPort "eighty"' validate "$work/statefulset.yaml"

broken "$repo/deploy/kubernetes/postgres-external/pdb.yaml" 's/maxUnavailable: 1/maxUnavailabel: 1/' "$work/pdb.yaml"
refuse 'a PodDisruptionBudget with a misspelt field' validate "$work/pdb.yaml"

refuse 'a CloudNativePG Cluster given to kubernetes-validate' validate "${clusters[0]}"

for change in 's/method: any/method: all/' 's/instances: 3/instances: "3"/' 's/^  storage:/  storge:/' \
    's/number: 1/number: 3/'; do
    mkdir -p "$work/cnpg"
    cp "$repo"/deploy/kubernetes/postgres-cnpg/*.yaml "$work/cnpg/"
    broken "$repo/deploy/kubernetes/postgres-cnpg/cluster.yaml" "$change" "$work/cnpg/cluster.yaml"
    refuse "a Cluster changed by '$change'" cnpg "$work/cnpg"
done
cp "$repo/deploy/kubernetes/postgres-cnpg/cluster.yaml" "$work/cnpg/cluster.yaml"
broken "$repo/deploy/kubernetes/postgres-cnpg/deployment.yaml" 's/key: uri/key: password/' "$work/cnpg/deployment.yaml"
refuse "a Deployment reading another key of the operator's Secret" cnpg "$work/cnpg"
broken "$repo/deploy/kubernetes/postgres-cnpg/deployment.yaml" 's/replicas: 3/replicas: 2/' "$work/cnpg/deployment.yaml"
refuse 'a CloudNativePG example drifted from the external-database one' \
    cnpg "$work/cnpg" --same-as "$repo/deploy/kubernetes/postgres-external"
