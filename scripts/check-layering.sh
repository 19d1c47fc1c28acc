#!/usr/bin/env bash
# The module layering (docs/architecture.md), checked from the sources so a violation fails CI:
#   1. PreludeCore imports nothing (not even Foundation or Glibc, which would bring clocks, files and sockets) and
#      builds on its own, in a package that contains nothing else, so a client library can embed it unchanged.
#   2. PreludeStore depends on PreludeCore and PreludeStorage only: no file of it imports PreludeHTTP (or any
#      other module of ours), and Package.swift gives it no other dependency.
#   3. Every SQL statement lives in Sources/PreludeStore (the repositories) or Sources/PreludeStorage (the SQLite
#      layer, its migration ledger), plus prelude-crashtest, PreludeStorage's kill -9 test helper with its own
#      tables. Any other source file with SQL in a string literal fails, naming the line. (Tests may read the
#      database to check what was stored; migrations/*.sql are SQL files.)
#   4. The service's store side (PolicyStore and its error) imports no PreludeHTTP: it takes `If-Match` as a
#      RevisionPrecondition (entity tags as bytes) and locks with the standard library's Mutex.
# Usage: scripts/check-layering.sh [--no-build]   (--no-build skips building PreludeCore alone)
set -euo pipefail
cd "$(dirname "$0")/.."
failed=0

imports="$(grep -rnE '^\s*(@_exported\s+|@testable\s+)?import\s' Sources/PreludeCore || true)"
if [[ -n "$imports" ]]; then
    echo "PreludeCore must import nothing; found:" >&2
    echo "$imports" >&2
    failed=1
fi

store_imports="$(grep -rnE '^\s*(@_exported\s+|@testable\s+)?import\s+(Prelude[A-Za-z]*|C[A-Z][A-Za-z]*)\b' Sources/PreludeStore \
    | grep -vE 'import\s+(PreludeCore|PreludeStorage)\s*$' || true)"
if [[ -n "$store_imports" ]]; then
    echo "PreludeStore may import PreludeCore and PreludeStorage only (never PreludeHTTP); found:" >&2
    echo "$store_imports" >&2
    failed=1
fi
store_target="$(grep -E '\.target\(name: "PreludeStore"' Package.swift || true)"
if [[ "$store_target" != *'dependencies: ["PreludeCore", "PreludeStorage"]'* ]]; then
    echo "Package.swift: PreludeStore must depend on exactly PreludeCore and PreludeStorage; found: ${store_target:-no target}" >&2
    failed=1
fi

store_side_http="$(grep -nE '^\s*(@_exported\s+|@testable\s+)?import\s+PreludeHTTP\b' \
    Sources/PreludeService/Policy/PolicyStore.swift Sources/PreludeService/Policy/PolicyStore+*.swift \
    Sources/PreludeService/Policy/PolicyStoreError.swift || true)"
if [[ -n "$store_side_http" ]]; then
    echo "PolicyStore must not import PreludeHTTP (take a RevisionPrecondition; lock with Mutex); found:" >&2
    echo "$store_side_http" >&2
    failed=1
fi

# SQL in a string literal: a literal (or a line of a multi-line literal) that starts with a statement keyword, a
# FROM ... WHERE clause, or an SQLite function only SQL calls. Comment lines are skipped.
sql_pattern='("|^\s*)(SELECT|INSERT (OR [A-Z]+ )?INTO|UPDATE [A-Za-z_]+ SET|DELETE FROM|CREATE (TEMP |UNIQUE )?(TABLE|INDEX|TRIGGER|VIEW)|DROP (TABLE|INDEX|TRIGGER|VIEW)|ALTER TABLE|VACUUM|PRAGMA|SAVEPOINT|RELEASE [a-z_]+|ROLLBACK|BEGIN (IMMEDIATE|DEFERRED|EXCLUSIVE)?|REPLACE INTO|WITH [a-z_]+ AS)\b|\bFROM [a-z_]+ (WHERE|ORDER|GROUP|LIMIT|JOIN)\b|\b(json_extract|zeroblob|coalesce\(max)\('
sql="$(grep -rnE --include='*.swift' "$sql_pattern" Sources \
    | grep -vE '^Sources/(PreludeStore|PreludeStorage|prelude-crashtest)/' \
    | grep -vE '^[^:]+:[0-9]+:\s*//' || true)"
if [[ -n "$sql" ]]; then
    echo "SQL outside Sources/PreludeStore and Sources/PreludeStorage (move it behind a repository method):" >&2
    echo "$sql" >&2
    failed=1
fi

if [[ "$failed" != 0 ]]; then exit 1; fi

if [[ "${1:-}" != "--no-build" ]]; then
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
fi
echo "PreludeStore imports no HTTP; no SQL outside PreludeStore and PreludeStorage"
