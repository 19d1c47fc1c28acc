#!/usr/bin/env python3
"""Writes Fuzz/corpus/ from the raw-byte vector table in Tests/PreludeHTTPTests/RequestDecoderTests.swift
(every `ok(...)` / `fail(...)` vector and the persistence / Expect tables), one file per vector, named by
the SHA-1 of its bytes as libFuzzer does. Rerun after adding vectors: `python3 Fuzz/make-corpus.py`."""
import hashlib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.join(HERE, "..", "Tests", "PreludeHTTPTests", "RequestDecoderTests.swift")


def string_literals_expr(expr):
    """Turns a Swift expression of string literals, `+` and String(repeating:count:) into Python and evals it."""
    out, i = [], 0
    while i < len(expr):
        c = expr[i]
        if c == '"':
            j, lit = i + 1, []
            while expr[j] != '"':
                if expr[j] == "\\":
                    nxt = expr[j + 1]
                    if nxt == "u":
                        close = expr.index("}", j)
                        lit.append(chr(int(expr[j + 3:close], 16)))
                        j = close + 1
                        continue
                    lit.append({"r": "\r", "n": "\n", "t": "\t", '"': '"', "\\": "\\", "0": "\0"}[nxt])
                    j += 2
                    continue
                lit.append(expr[j])
                j += 1
            out.append(repr("".join(lit)))
            i = j + 1
        else:
            out.append(c)
            i += 1
    py = "".join(out).replace("\n", " ").strip()
    py = re.sub(r"String\(repeating:", "_rep(", py)
    py = py.replace("count:", "")
    return eval(py, {"_rep": lambda s, n: s * n})


def split_args(text):
    """Splits a call's argument text at top-level commas (outside strings and brackets)."""
    args, depth, cur, i = [], 0, [], 0
    while i < len(text):
        c = text[i]
        if c == '"':
            j = i + 1
            while text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            cur.append(text[i:j + 1])
            i = j + 1
            continue
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        if c == "," and depth == 0:
            args.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    if "".join(cur).strip():
        args.append("".join(cur).strip())
    return args


def calls(source, opener):
    """Yields the argument text of every call starting with `opener` (e.g. 'ok(')."""
    pos = 0
    while True:
        k = source.find(opener, pos)
        if k < 0:
            return
        i, depth = k + len(opener), 1
        while depth:
            c = source[i]
            if c == '"':
                i += 1
                while source[i] != '"':
                    i += 2 if source[i] == "\\" else 1
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            i += 1
        yield source[k + len(opener):i - 1]
        pos = i


def main():
    source = open(TESTS).read()
    table = source[source.index("static let vectors"):source.index("@Test(arguments: vectors)")]
    raws = []
    for opener in ("ok(", "fail("):
        for args in calls(table, "        " + opener):
            raws.append(string_literals_expr(split_args(args)[1]))
    # The persistence and Expect tables: tuples ("raw", Bool).
    rest = source[source.index("@Test(arguments: vectors)"):]
    for m in re.finditer(r'\(\s*("(?:[^"\\]|\\.)*")\s*,\s*(?:true|false)\)', rest):
        raws.append(string_literals_expr(m.group(1)))
    corpus = os.path.join(HERE, "corpus")
    os.makedirs(corpus, exist_ok=True)
    written = 0
    for raw in raws:
        data = raw.encode("utf-8")
        path = os.path.join(corpus, hashlib.sha1(data).hexdigest())
        if not os.path.exists(path):
            open(path, "wb").write(data)
            written += 1
    print(f"{len(raws)} vectors, {written} new corpus files in {corpus}", file=sys.stderr)


if __name__ == "__main__":
    main()
