#!/usr/bin/env bash
# What an app resolves when it adds this package for PreludeClient only (docs/client.md, "Add the package").
#
# Makes a scratch app package that depends on this repository by path with the default trait turned off
# (`traits: []`) and links only the PreludeClient product, runs `swift package resolve`, and requires that nothing is
# pinned: swift-argument-parser, which only the CommandLineTool trait uses (Package.swift), is not fetched. With the
# trait's condition removed from the prelude target, the parser is pinned and this fails (seen once).
# Resolution only, no build: a few seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
repository="$PWD"

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/app/Sources/App"
# A path dependency's identity is its directory's name: give the repository the name an app's URL gives it.
ln -s "$repository" "$scratch/prelude"
cat >"$scratch/app/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v15), .iOS(.v15)],
    dependencies: [.package(path: "../prelude", traits: [])],
    targets: [.executableTarget(name: "App", dependencies: [.product(name: "PreludeClient", package: "prelude")])]
)
MANIFEST
echo 'import PreludeClient' >"$scratch/app/Sources/App/main.swift"

(cd "$scratch/app" && swift package resolve)
if [[ -f "$scratch/app/Package.resolved" ]] && grep -q '"identity"' "$scratch/app/Package.resolved"; then
    echo "an app with traits: [] resolves these packages, expected none:" >&2
    grep '"identity"' "$scratch/app/Package.resolved" >&2
    exit 1
fi
if [[ -d "$scratch/app/.build/checkouts" ]] && [[ -n "$(ls -A "$scratch/app/.build/checkouts")" ]]; then
    echo "an app with traits: [] checked out: $(ls "$scratch/app/.build/checkouts")" >&2
    exit 1
fi
echo "an app linking PreludeClient with traits: [] resolves no package (swift-argument-parser not fetched)"
