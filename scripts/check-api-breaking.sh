#!/usr/bin/env bash
# Every source-breaking change to what an app links — the PreludeClient and PreludeCore products — since the last
# release is listed in CHANGELOG.md (issue 35: PermissionFlow lost its `clock:` parameter and nobody was told).
#
#   scripts/check-api-breaking.sh [BASELINE]    (default: the last release in scripts/release-tags.txt)
#
# Runs `swift package diagnose-api-breaking-changes BASELINE --products PreludeClient PreludeCore` (the toolchain's
# API digester: it builds the baseline in .build/…/apidiff, ~3 minutes the first time) and requires that every
# declaration it reports appears, in backticks, in the CHANGELOG section of the version being made (the first
# `## ` section), under "Source-breaking changes", with its replacement. A report naming no declaration fails too.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/tag-releases.sh >/dev/null
baseline="${1:-$(awk '!/^#/ && NF == 2 {last = $1} END {print last}' scripts/release-tags.txt)}"

report="$(mktemp)"
trap 'rm -f "$report"' EXIT
status=0
swift package diagnose-api-breaking-changes "$baseline" --products PreludeClient PreludeCore >"$report" 2>&1 || status=$?
grep -q "breaking changes detected\|No breaking changes detected" "$report" || {
    cat "$report" >&2
    echo "the API digester did not run to the end (status $status)" >&2
    exit 1
}
# The section being made: from the first "## " heading to the next one.
section="$(awk '/^## /{n++} n == 1' CHANGELOG.md)"
listed="$(awk '/^### Source-breaking changes/{on=1; next} /^### /{on=0} on' <<<"$section")"
missing=0
count=0
while IFS= read -r line; do
    # "💔 API breakage: constructor PermissionFlow.init(client:device:usageDescriptions:clock:) has been removed"
    declaration="$(sed -E 's/.*API breakage: [a-z]+ ([^ ]+) .*/\1/' <<<"$line")"
    count=$((count + 1))
    if ! grep -qF "\`$declaration\`" <<<"$listed"; then
        echo "not in CHANGELOG.md's Source-breaking changes of $(head -1 <<<"$section"): $line" >&2
        missing=$((missing + 1))
    fi
done < <(grep "API breakage:" "$report" | sort -u)
if ((missing > 0)); then
    echo "$missing of $count source-breaking changes since $baseline are not listed (name each in backticks with its replacement)" >&2
    exit 1
fi
echo "$count source-breaking change(s) of PreludeClient and PreludeCore since $baseline, each listed in CHANGELOG.md"
