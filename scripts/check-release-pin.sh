#!/usr/bin/env bash
# Depending on a release as docs/client.md documents it works (issue 35): a scratch app names a clone of this
# repository by URL with `from: "<the last release>"` and `traits: []`, and `swift package resolve` pins exactly that
# release's tag. The release tags come from scripts/release-tags.txt (scripts/tag-releases.sh makes missing ones).
# Resolution only (seconds): the app is not built.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/tag-releases.sh >/dev/null
release="$(awk '!/^#/ && NF == 2 {last = $1} END {print last}' scripts/release-tags.txt)"
grep -q "from: \"$release\"" docs/client.md || { echo "docs/client.md does not pin the last release $release" >&2; exit 1; }

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# A clone, as an app's package manager makes one: tags and history, no work tree state of ours.
git clone -q --no-local "$PWD" "$scratch/prelude.git"
mkdir -p "$scratch/app/Sources/App"
cat >"$scratch/app/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v15), .iOS(.v15)],
    dependencies: [.package(url: "file://$scratch/prelude.git", from: "$release", traits: [])],
    targets: [.executableTarget(name: "App", dependencies: [.product(name: "PreludeClient", package: "prelude")])]
)
MANIFEST
echo 'import PreludeClient' >"$scratch/app/Sources/App/main.swift"
(cd "$scratch/app" && swift package resolve)
pinned="$(python3 -c 'import json, sys; pins = json.load(open(sys.argv[1]))["pins"]; print(" ".join(p["identity"] + "@" + str(p["state"].get("version")) for p in pins))' "$scratch/app/Package.resolved")"
[[ "$pinned" == "prelude.git@$release" || "$pinned" == "prelude@$release" ]] || {
    echo "expected the app to pin prelude $release, it pinned: $pinned" >&2
    exit 1
}
echo "an app depending on a clone with from: \"$release\" resolves the release tag $release ($pinned)"
