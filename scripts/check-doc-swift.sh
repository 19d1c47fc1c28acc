#!/usr/bin/env bash
# Type-checks every Swift example in the docs against PreludeCore, PreludeClient and stubs of Apple's frameworks
# (docs/client.md, "What is compiled only on Apple platforms"). The examples are what app developers copy: a wrong
# label, a missing `await`/`try`, a renamed API or a switch that misses a case fails here.
#
# 1. Builds the framework stubs into modules in a scratch directory: scripts/apple-stubs/*.swift (the ones
#    scripts/check-apple-sources.sh uses) and scripts/apple-stubs/ui/*.swift (Combine, SwiftUI, PhotosUI,
#    ContactsUI: only what the examples use), each declaration transcribed from the Apple page cited above it.
# 2. Emits PreludeCore's module, then PreludeClient's with the stubs on the import path (so its Apple-only API,
#    e.g. `AppleDevice` and the four-argument `PreludeClient` init, is there, as on iOS).
# 3. Extracts every ```swift block of the files below, wraps each and type-checks it on its own (Swift 6 mode) with
#    scripts/doc-swift/AppFixture.swift (the app-side names examples assume: `prelude`, `flow`, `CameraView`, ...):
#      - `import` lines stay at the top; `import PreludeClient` is added to every block;
#      - a block of declarations (struct, class, func, extension, ...) stays at top level;
#      - a block that starts with a view modifier (`.task { … }`) is applied to a view that has the `flow` and the
#        `@State var decision: Decision?` the samples use;
#      - any other block is statements: the body of an `@MainActor func … async throws` (an app's launch code and
#        actions run on the main actor).
#    `#sourceLocation` maps every diagnostic to the Markdown file and line, and a failing block is reported as
#    file:line. A block that is not client code is fenced ```text, or marked on the line before its fence with
#    `<!-- swift-check: skip — reason -->` (the reason is required and printed).
# 4. Plants a wrong argument label in a copy of docs/client.md (`decide(feature:` -> `decide(for:`) and requires
#    the check to FAIL on that block: the check must be able to fail.
#
# What it proves: the examples agree with PreludeClient's API and with Apple's documented signatures. What it does
# not: that they link against the real SDK or behave as described on a device (none of them has run on one).
# Bounded: about 1.5 minutes on 2 cores (most of it emitting the two modules).
set -euo pipefail
cd "$(dirname "$0")/.."

docs=(docs/client.md README.md docs/catalogue.md docs/http.md)
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
flags=(-swift-version 6 -enable-upcoming-feature ExistentialAny)

# DOC_SWIFT_MODULES=DIR reuses the modules of steps 1 and 2 from DIR (a scratch directory kept by hand while editing
# examples: steps 1 and 2 take most of the time); CI always builds them.
modules="${DOC_SWIFT_MODULES:-$scratch}"
if [[ -z "${DOC_SWIFT_MODULES:-}" ]]; then
# 1. Stub modules, the UI frameworks last (they import UIKit, Photos, Contacts, Combine, SwiftUI).
# UIKit before the others (DeclaredAgeRange's request takes a UIViewController).
stubs=(scripts/apple-stubs/UIKit.swift)
for stub in scripts/apple-stubs/*.swift; do [[ "$stub" == */UIKit.swift ]] || stubs+=("$stub"); done
stubs+=(scripts/apple-stubs/ui/Combine.swift scripts/apple-stubs/ui/SwiftUI.swift
    scripts/apple-stubs/ui/PhotosUI.swift scripts/apple-stubs/ui/ContactsUI.swift)
for stub in "${stubs[@]}"; do
    name="$(basename "$stub" .swift)"
    swiftc "${flags[@]}" -parse-as-library -emit-module -module-name "$name" -I "$scratch" \
        -emit-module-path "$scratch/$name.swiftmodule" "$stub"
done
echo "built ${#stubs[@]} stub modules: $(for s in "${stubs[@]}"; do basename "$s" .swift; done | tr '\n' ' ')"

# 2. PreludeCore and PreludeClient modules (declarations only: bodies are the tests' business).
mapfile -t core < <(find Sources/PreludeCore -name '*.swift' | sort)
swiftc "${flags[@]}" -package-name prelude -parse-as-library -emit-module -module-name PreludeCore \
    -emit-module-path "$scratch/PreludeCore.swiftmodule" -Xfrontend -experimental-skip-non-inlinable-function-bodies \
    "${core[@]}"
mapfile -t client < <(find Sources/PreludeClient -name '*.swift' | sort)
swiftc "${flags[@]}" -package-name prelude -parse-as-library -emit-module -module-name PreludeClient -I "$scratch" \
    -emit-module-path "$scratch/PreludeClient.swiftmodule" -Xfrontend -experimental-skip-non-inlinable-function-bodies \
    "${client[@]}"
echo "emitted PreludeCore and PreludeClient (with the Apple-only files) against the stubs"
fi

# 3. Extract and wrap: one Swift file per block in DIR, and DIR/blocks.tsv (file, line, wrapping) to check.
extract() {  # extract DIR MARKDOWN_ROOT: the docs as found under MARKDOWN_ROOT, reported by their repository path
    python3 - "$1" "$2" "${docs[@]}" <<'PY'
import os, re, sys

out, root, docs = sys.argv[1], sys.argv[2], sys.argv[3:]
os.makedirs(out, exist_ok=True)
declaration = re.compile(
    r"^(@[A-Za-z]+(\([^)]*\))?\s+)*((public|private|fileprivate|internal|final|open|nonisolated)\s+)*"
    r"(struct|class|enum|extension|protocol|actor|func|typealias)\b")
skip_marker = re.compile(r"^<!--\s*swift-check:\s*skip\b\s*(?:[—–-]+\s*)?(.*?)\s*-->\s*$")
rows, skipped, problems = [], [], []
for doc in docs:
    with open(os.path.join(root, doc), encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() != "```swift":
            i += 1
            continue
        fence = i + 1                                        # 1-based line of the fence
        end = i + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        body = lines[i + 1:end]
        marker = skip_marker.match(lines[i - 1].strip()) if i > 0 else None
        i = end + 1
        if marker:
            if not marker.group(1):
                problems.append(f"{doc}:{fence}: `swift-check: skip` without a reason")
            else:
                skipped.append(f"{doc}:{fence}: {marker.group(1)}")
            continue
        first = fence + 1                                    # 1-based line of the block's first line
        imports = [(first + n, l) for n, l in enumerate(body) if l.startswith("import ")]
        code = [(first + n, l) for n, l in enumerate(body) if not l.startswith("import ")]
        significant = [l.strip() for _, l in code if l.strip() and not l.strip().startswith("//")]
        head = significant[0] if significant else ""
        mode = "modifier" if head.startswith(".") else "declarations" if declaration.match(head) else "statements"
        src = ["import PreludeClient"]
        if mode == "modifier":
            src.append("import SwiftUI")
        for n, l in imports:
            src += [f'#sourceLocation(file: "{doc}", line: {n})', l]
        start = code[0][0] if code else first
        text = [l for _, l in code]
        located = [f'#sourceLocation(file: "{doc}", line: {start})', *text, "#sourceLocation()"]
        if mode == "declarations":
            src += located
        elif mode == "statements":
            src += ["@MainActor func docExample() async throws {", *located, "}"]
        else:
            # The modifier continues the view's expression: `Color.clear` joins the block's first line.
            src += ["struct DocExample: View {", "    let flow: PermissionFlow",
                    "    @State private var decision: Decision?", "    var body: some View {",
                    located[0], "Color.clear" + text[0], *text[1:], "#sourceLocation()", "    }", "}"]
        name = f"block{len(rows):02d}.swift"
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            f.write("\n".join(src) + "\n")
        rows.append(f"{name}\t{doc}:{fence}\t{mode}")
with open(os.path.join(out, "blocks.tsv"), "w") as f:
    f.write("".join(r + "\n" for r in rows))
for s in skipped:
    print(f"skipped {s}")
for p in problems:
    print(p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY
}

# A warning fails the block too (a concurrency warning in Swift 6 mode is an error in the app's stricter contexts),
# except two kinds: a value a snippet declares and never uses (the snippet stops where the app goes on; an unused
# call result still fails) and a deprecated API (the "Before" examples show the API they replace on purpose).
tolerated="(initialization of (immutable value|variable) '[^']*' was never used|\\[#DeprecatedDeclaration\\])"

check() {  # check DIR: type-checks each block in DIR; prints each failure as file:line with its errors
    local dir="$1" failed=0 file where mode
    while IFS=$'\t' read -r file where mode; do
        if ! swiftc "${flags[@]}" -typecheck -module-name DocExample -I "$modules" \
            scripts/doc-swift/AppFixture.swift "$dir/$file" >"$dir/$file.log" 2>&1; then
            echo "FAIL $where ($mode): the example does not type-check" >&2
            grep -E '^[^ ].*error:' "$dir/$file.log" | sed 's/^/     /' >&2 || cat "$dir/$file.log" >&2
            failed=1
        elif grep -E '^[^ ].*warning:' "$dir/$file.log" | grep -vqE "$tolerated"; then
            echo "FAIL $where ($mode): the example type-checks with warnings" >&2
            grep -E '^[^ ].*warning:' "$dir/$file.log" | grep -vE "$tolerated" | sed 's/^/     /' >&2
            failed=1
        else
            echo "ok   $where ($mode)"
        fi
    done <"$dir/blocks.tsv"
    return "$failed"
}

extract "$scratch/blocks" .
check "$scratch/blocks"
echo "type-checked $(wc -l <"$scratch/blocks/blocks.tsv") Swift examples in ${docs[*]}"

# 4. The check must fail on a wrong label, and say where.
mkdir -p "$scratch/planted/docs"
for doc in "${docs[@]}"; do cp "$doc" "$scratch/planted/$doc"; done
sed -i '0,/prelude\.decide(feature: \.camera, status: status,/s//prelude.decide(for: .camera, status: status,/' \
    "$scratch/planted/docs/client.md"
grep -q 'prelude.decide(for: .camera' "$scratch/planted/docs/client.md" ||
    { echo "could not plant the wrong label" >&2; exit 1; }
planted_line="$(grep -n 'prelude.decide(for: .camera' "$scratch/planted/docs/client.md" | cut -d: -f1)"
extract "$scratch/planted/blocks" "$scratch/planted" >/dev/null
if check "$scratch/planted/blocks" >/dev/null 2>"$scratch/planted.log"; then
    echo "a planted wrong label (prelude.decide(for:)) type-checked: the check cannot fail" >&2
    exit 1
fi
grep -q "docs/client.md:$planted_line:.*error:" "$scratch/planted.log" ||
    { echo "the planted error was not reported at docs/client.md:$planted_line" >&2; cat "$scratch/planted.log" >&2; exit 1; }
grep -m1 '^FAIL' "$scratch/planted.log"
grep -m1 'error:' "$scratch/planted.log"
echo "a planted wrong label fails the check at docs/client.md:$planted_line, as it must"
