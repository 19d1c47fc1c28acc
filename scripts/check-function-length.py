#!/usr/bin/env python3
"""No function in Sources over 100 lines (issue 41): functions, initialisers, subscripts and computed properties,
counted from their first line to their closing brace. Data tables are exempt by name, each with its reason.

Usage: scripts/check-function-length.py [LIMIT]   (default 100; exits 1 naming every body over it)
"""
import os
import re
import sys

LIMIT = int(sys.argv[1]) if len(sys.argv) > 1 else 100
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
# file (relative to the repository) and declaration name → why it may be long.
EXEMPT = {
    ("Sources/PreludeCore/Policy/FeatureCatalogue.swift", "capabilities"):
        "the feature catalogue's data table: one row per feature (issue 41 sets it aside)",
    ("Sources/PreludeService/ConfigurationSetting.swift", "definition"):
        "the table of settings: one row per setting in one exhaustive switch (docs/architecture.md, 'A new setting')",
}
MODIFIERS = r"(?:(?:public|private|fileprivate|internal|package|static|final|override|mutating|nonisolated|" \
    r"convenience|required|class|open|dynamic|lazy)\s+)*"
DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*" + MODIFIERS
    + r"(?:func\s+(?P<func>[^\s(<]+)|(?P<init>init)[?!]?\s*[(<]|(?P<sub>subscript)\s*[(<]"
    + r"|var\s+(?P<var>\w+)\s*:[^={]*\{\s*$)")
STRING = re.compile(r'"(?:\\.|[^"\\])*"')


def body_length(lines, start):
    """Lines from `start` to the brace closing the declaration's body; None when it has no body."""
    depth, opened, in_block_string = 0, False, False
    for index in range(start, len(lines)):
        line = lines[index]
        if line.count('"""') % 2 == 1:
            in_block_string = not in_block_string
            continue
        if in_block_string:
            continue
        code = STRING.sub('""', line).split("//")[0]
        for character in code:
            if character == "{":
                depth += 1
                opened = True
            elif character == "}":
                depth -= 1
        if opened and depth <= 0:
            return index - start + 1
        if not opened and index > start + 20:
            return None
    return None


def main():
    failures = []
    for directory, _, files in os.walk(os.path.join(ROOT, "Sources")):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(directory, name)
            relative = os.path.relpath(path, ROOT)
            lines = open(path, encoding="utf-8").read().split("\n")
            for index, line in enumerate(lines):
                match = DECLARATION.match(line)
                if not match:
                    continue
                declared = match.group("func") or match.group("init") or match.group("sub") or match.group("var")
                length = body_length(lines, index)
                if length is None or length <= LIMIT or (relative, declared) in EXEMPT:
                    continue
                failures.append(f"{relative}:{index + 1}: {declared} is {length} lines (limit {LIMIT})")
    for failure in failures:
        print(failure)
    if failures:
        print(f"check-function-length: {len(failures)} over {LIMIT} lines; split them (docs/architecture.md)")
        return 1
    print(f"check-function-length: every function in Sources is at most {LIMIT} lines "
          f"({len(EXEMPT)} data tables exempt)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
