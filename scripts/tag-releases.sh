#!/usr/bin/env bash
# Makes the release tags listed in scripts/release-tags.txt (version, commit) that this repository lacks, and fails
# when an existing tag points at another commit. Idempotent: CI runs it before the checks that resolve a release
# (scripts/check-release-pin.sh) and diff against one (scripts/check-api-breaking.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
while read -r version commit; do
    [[ -z "$version" || "$version" == \#* ]] && continue
    if existing="$(git rev-parse -q --verify "refs/tags/$version^{commit}")"; then
        [[ "$existing" == "$commit" ]] || { echo "tag $version is $existing, release-tags.txt says $commit" >&2; exit 1; }
    else
        git cat-file -e "$commit^{commit}" 2>/dev/null || { echo "release $version: commit $commit not in this clone" >&2; exit 1; }
        git -c user.name=prelude-release -c user.email=release@prelude.invalid tag -a "$version" "$commit" -m "Prelude $version"
        echo "tagged $version at $commit"
    fi
done <scripts/release-tags.txt
