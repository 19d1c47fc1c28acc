#!/usr/bin/env bash
# The policy core must stay pure: no I/O, no dependency on the other modules or on third-party packages.
# Checks (1) that no file in Sources/PreludeCore imports anything at all (not even Foundation or Glibc, which
# would bring clocks, files and sockets), and (2) that the target builds on its own, in a package that
# contains nothing else, so a client library can embed it unchanged.
set -euo pipefail
cd "$(dirname "$0")/.."

imports="$(grep -rnE '^\s*(@_exported\s+|@testable\s+)?import\s' Sources/PreludeCore || true)"
if [[ -n "$imports" ]]; then
    echo "PreludeCore must import nothing; found:" >&2
    echo "$imports" >&2
    exit 1
fi

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/Sources"
cp -R Sources/PreludeCore "$scratch/Sources/PreludeCore"
cat >"$scratch/Package.swift" <<'SWIFT'
// swift-tools-version: 6.0
import PackageDescription
let package = Package(name: "PreludeCoreAlone", targets: [.target(name: "PreludeCore")])
SWIFT
swift build --package-path "$scratch" --scratch-path "$scratch/.build" 2>&1 | tail -n 3
echo "PreludeCore imports nothing and builds alone"
