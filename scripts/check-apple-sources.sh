#!/usr/bin/env bash
# Type-checks PreludeClient's Apple-only files on Linux (docs/client.md, "What is compiled only on Apple platforms").
#
# 1. Builds each stub in scripts/apple-stubs/ (AVFoundation, Photos, Contacts, CoreLocation, UserNotifications,
#    AppTrackingTransparency, EventKit, StoreKit, DeclaredAgeRange, UIKit: only the symbols the client uses, each transcribed from the Apple
#    documentation page cited above it) into a module in a scratch directory.
# 2. Emits PreludeCore's module, then type-checks every file of Sources/PreludeClient with the stubs on the import
#    path, so `canImport(UIKit)` and the per-framework `canImport(...)` guards are true and the Apple-only files
#    are compiled, plus scripts/apple-stubs/probe/Probe.swift, which names every Apple-only API (so a guard that
#    silently turned false would fail here instead of passing vacuously).
# 3. Plants a wrong argument label in a copy of AppleAuthorization.swift and requires the type-check to FAIL:
#    the check must be able to fail.
#
# What it proves: the Apple-only code agrees with Apple's documented signatures (names, labels, types, enum cases,
# async/throws). What it does not: that it links against the real SDK or behaves correctly on a device.
# Bounded: ~1 minute on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
flags=(-swift-version 6 -enable-upcoming-feature ExistentialAny -package-name prelude)

# UIKit first: DeclaredAgeRange's request takes a UIViewController.
stubs=(scripts/apple-stubs/UIKit.swift)
for stub in scripts/apple-stubs/*.swift; do [[ "$stub" == */UIKit.swift ]] || stubs+=("$stub"); done
for stub in "${stubs[@]}"; do
    name="$(basename "$stub" .swift)"
    swiftc "${flags[@]}" -parse-as-library -emit-module -module-name "$name" -I "$scratch" \
        -emit-module-path "$scratch/$name.swiftmodule" "$stub"
done
echo "built ${#stubs[@]} stub modules: $(for s in "${stubs[@]}"; do basename "$s" .swift; done | tr '\n' ' ')"

mapfile -t core < <(find Sources/PreludeCore -name '*.swift' | sort)
swiftc "${flags[@]}" -parse-as-library -emit-module -module-name PreludeCore \
    -emit-module-path "$scratch/PreludeCore.swiftmodule" -Xfrontend -experimental-skip-non-inlinable-function-bodies \
    "${core[@]}"

typecheck() {  # typecheck DIR: type-checks the client sources found in DIR with the stubs and the probe
    local dir="$1"
    mapfile -t client < <(find "$dir" -name '*.swift' | sort)
    swiftc "${flags[@]}" -parse-as-library -typecheck -module-name PreludeClient -I "$scratch" \
        "${client[@]}" scripts/apple-stubs/probe/Probe.swift
}

typecheck Sources/PreludeClient
apple_files="$(grep -l 'canImport(UIKit)' -r Sources/PreludeClient | sort | tr '\n' ' ')"
echo "type-checked Sources/PreludeClient with the Apple-only files: $apple_files"

# The check must fail on a wrong label: `requestAccess(for:)` -> `requestAccess(to:)` in the camera request.
cp -R Sources/PreludeClient "$scratch/planted"
target="$scratch/planted/Platform/Apple/AppleAuthorization.swift"
sed -i 's/AVCaptureDevice.requestAccess(for: media)/AVCaptureDevice.requestAccess(to: media)/' "$target"
grep -q 'requestAccess(to: media)' "$target" || { echo "could not plant the wrong label" >&2; exit 1; }
if typecheck "$scratch/planted" >"$scratch/planted.log" 2>&1; then
    echo "a planted wrong label (AVCaptureDevice.requestAccess(to:)) type-checked: the check cannot fail" >&2
    exit 1
fi
grep -m1 'error:' "$scratch/planted.log" | sed "s|$scratch/planted|Sources/PreludeClient|"
echo "a planted wrong label fails the type-check, as it must"
