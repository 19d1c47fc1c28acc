#!/usr/bin/env python3
"""Writes the seed corpora Fuzz/corpus/<target>/, one file per seed, named by the SHA-1 of its bytes as libFuzzer does.

- request-decoder: the raw-byte vector table in Tests/PreludeHTTPTests/RequestDecoderTests.swift (every `ok(...)` /
  `fail(...)` vector and the persistence / Expect tables);
- segment: OS major and locale header values, valid, canonical and not, repeated and at the edges of the grammar;
- every other target: valid inputs plus boundary values (19/20-digit integers, -0, 1e400, huge exponents, deep
  nesting, lone surrogates, overlong and invalid UTF-8, NUL bytes), from the tables below.

Rerun after adding vectors or seeds: `python3 Fuzz/make-corpus.py` (docs/fuzzing.md)."""
import hashlib
import json
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


def request_decoder_seeds():
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
    return [raw.encode("utf-8") for raw in raws]


# Numbers at the edges: the integer/double split, 2^63 and 2^64 (19 and 20 digits), signed zero, doubles out of range.
NUMBERS = [
    "0", "-0", "0.0", "-0.0", "1", "-1", "999999999999999999", "1000000000000000000", "9223372036854775807",
    "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "18446744073709551615",
    "18446744073709551616", "99999999999999999999", "100000000000000000000000000000", "1e400", "-1e400", "1e-400",
    "1E+308", "1.7976931348623157e308", "4.9e-324", "1e99999999999999999999", "1e-99999999999999999999",
    "0.1", "1.5", "123456789012345678901234567890.5", "1e18", "1e19", "9007199254740993",
]
# Byte strings the JSON string reader must refuse or repair: lone surrogates, overlong and invalid UTF-8, NUL.
HOSTILE_STRINGS = [
    b'"\\ud800"', b'"\\udc00"', b'"\\ud800\\u0041"', b'"\\ud83d\\ude00"', b'"\xc0\x80"', b'"\xe0\x80\x80"',
    b'"\xed\xa0\x80"', b'"\xf4\x90\x80\x80"', b'"\xff"', b'"\x80"', b'"a\x00b"', b'"\\u0000"', b'"\\uFFFF"',
    b'"caf\xc3\xa9"', b'"\\/\\b\\f\\n\\r\\t\\"\\\\"',
]


def json_seeds():
    seeds = [n.encode() for n in NUMBERS] + HOSTILE_STRINGS
    seeds += [b"[" * 256 + b"]" * 256, b"[" * 257 + b"]" * 257, b'{"a":' * 300 + b"1" + b"}" * 300, b"[" * 5000]
    seeds += [b"\xef\xbb\xbf{}", b"{}", b"[]", b"null", b"true", b"false", b'{"a":1,"a":2}', b"[1,]", b"{,}",
              b'{"a":[1,2.5,-0,"x",null,true,{"b":{}}]}', b"\x00", b"", b" \t\r\n 1 ", b"01", b"-", b"1.", b"1e",
              b"NaN", b"Infinity", b"'a'", b"/* c */ 1", b'{"' + b"k" * 40 + b'":' + b"[" * 10 + b"]" * 10 + b"}"]
    seeds += [("[" + ",".join(str(i) for i in range(50)) + "]").encode()]
    return seeds


def event(time='"2026-11-22T12:30:00Z"', **extra):
    members = {"id": '"e-1"', "installId": '"8C1F0A2E"', "type": '"primeShown"', "feature": '"camera"',
               "occurredAt": time}
    members.update(extra)
    return "{" + ",".join(f'"{k}":{v}' for k, v in members.items()) + "}"


def events_seeds():
    times = ["1795350000000", "946684800000", "946684799999", "1795436999999", "1795437000001",
             '"2026-11-22T13:30:00.250+01:00"', '"2026-02-30T00:00:00Z"', '"2026-11-22t12:30:00z"',
             '"2016-12-31T23:59:60Z"', '"2026-11-22 12:30:00Z"', '"2026-11-22T12:30:00.9999999999999999999Z"'] + NUMBERS
    seeds = ['{"events":[' + event(time) + "]}" for time in times]
    seeds += ['{"events":[' + event(experiment='"camera-prime-copy"', variant='"control"') + "]}",
              '{"events":[' + event(experiment="null", variant="null") + "]}",
              '{"events":[' + event(experiment='"camera-prime-copy"') + "]}",
              '{"events":[' + ",".join(event() for _ in range(3)) + "]}",
              '{"events":[' + event(id='"caf\\u00e9"') + "]}", '{"events":[' + event(id='"with space"') + "]}",
              ' { "events" : [ ' + event() + ' ] } \n', '{"events":[]}', '{"events":{}}', '{}', '[]',
              '{"events":[' + event() + '],"extra":1}', '{"events":[' + event().replace('"id"', '"extra"') + "]}"]
    out = [s.encode() for s in seeds]
    out += [b'{"events":[' + event(id='"\xc0\x80"').encode() + b"]}",
            b'{"events":[' + event(id='"\\ud800"').encode() + b"]}",
            b'{"events":[' + event(installId='"a\x00b"').encode() + b"]}"]
    return out


def decide_seeds():
    state = '{"feature":"camera","status":"denied","available":true,"history":{"settings":{"shownCount":1,' \
            '"lastShown":1795350000,"lastOutcome":"dismissed"}}}'
    seeds = ['{"installId":"8C1F0A2E","platform":"ios","os":"17.4","appVersion":"2.3.0","locale":"fr-CA",'
             '"features":[' + state + ',{"feature":"photos","status":"limited"},'
             '{"feature":"tracking","status":"notDetermined","trackingPromptShown":false}]}',
             '{"features":[{"feature":"microphone","status":"notDetermined"}]}',
             '{"features":[]}', '{"features":[{"feature":"camera"}]}']
    for n in NUMBERS:
        seeds.append('{"features":[{"feature":"camera","status":"denied","history":{"prime":{"shownCount":%s,'
                     '"lastShown":%s}}}]}' % (n, n))
    seeds += ['{"os":"99999999999999999999.1","features":[{"feature":"camera","status":"denied"}]}',
              '{"locale":"zh_hant_tw","features":[{"feature":"camera","status":"notDetermined"}]}']
    out = [s.encode() for s in seeds]
    out += [b'{"features":[{"feature":"camera","status":"notDetermined"}]}\x00fr-CA;q=0.9, en;q=0.5, *;q=0']
    return out


def ofrep_seeds():
    """The first byte chooses the call (below 128 a demo feature's index for one flag, from 128 the bulk call: fuzzOFREP)."""
    context = '"targetingKey":"8C1F0A2E","platform":"ios","os":"17.4","appVersion":"2.3.0","locale":"fr-CA"'
    single = ['{"context":{' + context + ',"status":"denied","history":{"settings":{"shownCount":1,'
              '"lastShown":1795350000,"lastOutcome":"dismissed"}}}}',
              '{"context":{"targetingKey":"a","status":"notDetermined","available":false,"osVersion":"18.0"}}',
              '{"context":{"targetingKey":"a","trackingPromptShown":true,"origin":"prime","extra":[1,{"x":null}]}}',
              '{"context":{"targetingKey":"a","status":"limited","preventsAutomaticLimitedAccessAlert":true}}',
              '{"context":{"status":"denied"}}', '{"context":{"targetingKey":17}}', '{"context":[]}', '{}', '[]',
              '{"context":{"targetingKey":"a","os":"99999999999999999999.1","history":{"prime":{"shownCount":-1}}}}']
    bulk = ['{"context":{' + context + ',"features":{"camera":{"status":"denied"},"photos":{"status":"limited"},'
            '"tracking":{"status":"notDetermined","trackingPromptShown":false}}}}',
            '{"context":{"targetingKey":"a","features":{}}}', '{"context":{"targetingKey":"a","features":[]}}',
            '{"context":{"targetingKey":"a","features":{"camra":{"status":"denied"}}}}',
            '{"context":{"targetingKey":"a","features":{"camera":"denied"}}}']
    out = [bytes([i]) + s.encode() for i in range(7) for s in single[:2]]
    out += [bytes([0]) + s.encode() for s in single[2:]]
    out += [bytes([128]) + s.encode() for s in bulk]
    out += [bytes([2]) + single[0].encode() + b"\x00fr-CA;q=0.9, en;q=0.5"]
    return out


def policy_seeds():
    demo = open(os.path.join(HERE, "..", "config", "demo-policy.json"), "rb").read()
    small = open(os.path.join(HERE, "..", "Tests", "PreludeServiceTests", "AdminFixture.swift")).read()
    small = small[small.index('static let policyText = """') + 28:]
    small = "\n".join(line[8:] for line in small[:small.index('"""')].splitlines())
    seeds = [demo, small.encode()]
    # Each edge number in each numeric cadence member, as a merge patch over the demo policy (small seeds: the
    # target applies every JSON object as a patch).
    for field in ["minIntervalHours", "backoff", "maxShows"]:
        for value in NUMBERS:
            seeds.append(f'{{"defaults":{{"cadence":{{"prime":{{"{field}":{value}}}}}}}}}'.encode())
    # Merge patches over the demo policy (the target also applies every JSON object as one): the largest valid
    # cadence, a long targeting rule, odd weights and coverage.
    seeds += [s.encode() for s in [
        '{"defaults":{"cadence":{"prime":{"minIntervalHours":8760,"backoff":10,"maxShows":20}}}}',
        '{"defaults":{"cadence":{"settings":{"minIntervalHours":0,"backoff":1,"maxShows":0}}}}',
        '{"defaults":{"settings":{"delayMs":10000}}}',
        '{"features":{"camera":{"rules":[{"name":"old","when":{"os":"<14 || >=99999999999999999999"},'
        '"set":{"strategy":"button"}}]}}}',
        '{"experiments":[{"key":"k","feature":"camera","coverage":1e-300,"variants":[{"name":"a","weight":100}]}]}',
        '{"experiments":[{"key":"k","feature":"camera","coverage":0.5,"variants":[{"name":"a","weight":33.333333333333336},'
        '{"name":"b","weight":33.333333333333336},{"name":"c","weight":33.33333333333333}]}]}',
        '{"app":{"defaultLocale":"zh-Hant-TW"}}', '{"features":null}', '{"schemaVersion":9223372036854775808}']]
    for weight in ["50", "1e400", "-0", "9223372036854775808", "33.333333333333336"]:
        seeds.append(small.replace('"weight": 50}, {"name": "b"', f'"weight": {weight}}}, {{"name": "b"').encode())
    return seeds


def query_seeds():
    seeds = [b"platform=ios&os=17.4&appVersion=2.3.0&locale=fr-CA&installId=8C1F0A2E", b"", b"&&", b"a", b"=",
             b"os=%31%37", b"locale=zh%5FHant%5FTW", b"installId=%00", b"installId=%", b"installId=%4", b"x=%zz",
             b"installId=%C0%80", b"installId=%ED%A0%80", b"installId=%FF", b"os=17.4&os=18", b"os=a+b%2B",
             b"os=99999999999999999999", b"os=18.0.0-beta.2+build.7", b"locale=fr-CA\x00fr-CA;q=0.9, en;q=0.5",
             b"platform=IOS&unknown=1\x00*"]
    return seeds


def accept_language_seeds():
    return [s.encode() for s in [
        "fr-CA, fr;q=0.9, en;q=0.8, *;q=0.5", "en", "*", "de-DE-1996", "en;q=0", "en;q=1.000", "en;q=1.001",
        "en;q=0.9999", "en;q=.5", "en;q=-1", "en;q=1e400", "en;q=99999999999999999999", "en_US", "i-klingon",
        "x-private", "zh-Hant-TW;Q=0.3", ",,, ,", "en;q=0.5;q=0.4", "en ; q = 0.5", "\t", "a" * 9,
        ", ".join(f"l{i:02d};q=0.{i % 10}" for i in range(100))]] + [b"en\x00fr", b"\xc0\x80", b"en;q=0.\xff"]


def locale_tag_seeds():
    return [s.encode() for s in [
        "en", "fr-CA", "zh-Hant-TW", "ZH_hant_tw", "es-419", "iw", "in-ID", "de-DE-1996", "en-u-ca-buddhist",
        "en--US", "en-US-", "-en", "e", "engl", "en-Latn-US-x-private-use", "sr-ME", "a-b-c-d-e-f", "123"]] + \
        [b"en\x00", b"\xc0\x80", b"fr-\xc3\xa9"]


def semver_seeds():
    versions = ["17", "17.4", "17.4.1", "18.0.0-beta.2", "1.2.3+build.7", "1.2.3-alpha.1+b", "01", "1.02",
                "9223372036854775807", "9223372036854775808", "99999999999999999999.1.1",
                "1.0.0-99999999999999999999", "1.0.0-0a", "1.0.0-01", "1.2.3.4", "v1", " 1", "1.", ".1", "",
                "1.0.0-", "1.0.0+", "1.0.0-a..b"]
    ranges = [">=15", ">=17.2 <18", "<14 || >=17", "*", ">= 17", "=17.4", "||", ">=", ">=99999999999999999999",
              "<=1.0.0-beta.2 >1.0.0-alpha", "17.4 || || 18", "\t>=1\t<2"]
    seeds = [v.encode() for v in versions]
    seeds += [(v + "\x00" + r).encode() for v, r in zip(versions * 2, ranges * 4)]
    return seeds


def timestamp_seeds():
    return [s.encode() for s in [
        "2026-11-22T12:30:00Z", "2026-11-22T13:30:00.250+01:00", "2026-11-22t12:30:00z", "2026-11-22 12:30:00Z",
        "2016-12-31T23:59:60Z", "2024-02-29T00:00:00Z", "2023-02-29T00:00:00Z", "0000-01-01T00:00:00+23:59",
        "9999-12-31T23:59:60.999-23:59", "2026-13-01T00:00:00Z", "2026-11-22T24:00:00Z", "2026-11-22T12:30:00",
        "2026-11-22T12:30:00.Z", "2026-11-22T12:30:00." + "9" * 40 + "Z", "2026-11-22T12:30:00+24:00",
        "+2026-11-22T12:30:00Z", "20261122T123000Z"]] + [b"2026-11-22T12:30:00Z\x00", b"2026-11-22T12:30:00\xc0\x80"]


def instant_seeds():
    return [s.encode() for s in [
        "2026-11-29T23:00:00Z", "2026-11-29T23:00:00", "2026-11-29T23:00Z", "2026-11-29", "2026-11-29t23:00:00z",
        "2026-11-30T00:00:00.250+01:00", "2026-11-29 23:00:00Z", "2016-12-31T23:59:60Z", "2016-12-31T18:59:60-05:00",
        "2016-12-30T23:59:60Z", "2024-02-29T00:00:00Z", "2023-02-29T00:00:00Z", "0000-01-01T00:00:00Z",
        "0000-01-01T00:00:00+00:01", "9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59-00:01",
        "2026-11-29T23:00:00." + "9" * 40 + "Z", "2026-11-29T23:00:00+23:59", "2026-11-29T23:00:00-24:00",
        "1969-12-31T23:59:59.999Z"]] + [b"2026-11-29T23:00:00Z\x00", b"2026-11-29T23:00:00\xc0\x80"]


def results_seeds():
    effects = ["0.02", "0.0001", "0.00009", "1.1125369292536007e-308", "1e-10", "1e-160", "-0", "0", "1", "0.9999999",
               "1e400", "nan", "inf", "-1e-308", "5e-324", "0x1p-1074", "2.2250738585072014e-308", "99999999999999999999"]
    seeds = [e.encode() for e in effects]
    arm = '{"name":"%s","weight":%s,"counts":{"exposed":%s,"primeShown":%s,"systemGranted":%s,"granted":%s}}'
    for effect in ["0.02", "1e-308", "0.0001"]:
        for exposed, granted in [(5000, 2000), (0, 0), (9223372036854775807, 9223372036854775807), (100, 100), (1, 0)]:
            variants = [arm % ("control", "1", exposed, exposed, granted, granted),
                        arm % ("b", "0.5", exposed, exposed, 0, 0)]
            seeds.append(('{"minimumEffect":"%s","control":"control","variants":[%s]}'
                          % (effect, ",".join(variants))).encode())
    seeds.append(b'{"minimumEffect":0.05,"alpha":1e-300,"power":0.9999999999,"variants":['
                 + (arm % ("control", "1e-300", 10, 10, 5, 5)).encode() + b"," + (arm % ("x", "1e300", 10, 10, 0, 0)).encode()
                 + b"]}")
    return seeds


def router_seeds():
    # First byte: the method (index into the target's list: 0 GET, 1 HEAD, 2 POST, 3 PUT, 4 DELETE, 5 OPTIONS, ...).
    paths = ["/v1/apps/demo/policy", "//v1//apps/demo/policy/", "/v1/apps/d\u00e9mo/policy", "/v1/apps/e\u0301/policy",
             "/v1/apps/demo/special", "/v1/apps/x/policy/document", "/v1/apps/x/decide", "/", "", "/a/b/c",
             "/cafe\u0301/7", "/units/\u212aelvin/3", "/v1/admin/apps/a/experiments/k", "/a/b/c/d/e/f/g/h", "/healthz/"]
    return [bytes([method]) + path.encode() for method in range(6) for path in paths]


def segment_seeds():
    """The OS major header's values, a NUL byte, the locale header's values; a line feed separates repeated lines."""
    os_majors = ["18", "17", "1", "9", "99", "26", "0", "00", "018", "100", "-1", "+18", "18.2", "18.2.1", " 18 ",
                 "\t18", "1e1", "\u0661\u0668", "\uff11\uff18", "18\n18", "18\n17", "18\n", "\n", "", "9" * 20]
    locales = ["en-US", "fr-CA", "de", "es-419", "fr_ca", "EN-us", "iw-IL", "in", "zh-Hant-TW", "zh-Hant", "en-",
               "-US", "e", "engl-US", "en-USA", "en-12", "en-1234", "de-DE-1996", "en-US@calendar=gregorian",
               "en-u-ca-buddhist", "x-private", " fr-CA ", "fr-CA\nfr-CA", "fr-CA\nfr-ca", "fr-CA\n", "\u00e9n",
               "en\u0301", "en-US\u00a0", "", "a" * 40]
    seeds = [(o + "\x00" + l).encode() for o, l in zip(os_majors * 2, locales + locales[::-1])]
    seeds += [o.encode() for o in os_majors[:6]]
    seeds += [b"18\x00fr-\xc3\xa9", b"\xc0\x80\x00en", b"18\x00en\x00US", b"\x00\xff", b"18\r\n17\x00en"]
    return seeds


def condition_seeds():
    """GrowthBook's evalCondition cases (Tests/GrowthBookConformance, MIT) as [condition, attributes] after a 0
    byte, Prelude's own condition shapes, and regex patterns with a text after a 0x80 byte."""
    path = os.path.join(HERE, "..", "Tests", "GrowthBookConformance", "evalCondition.json")
    cases = json.load(open(path, encoding="utf-8"))["evalCondition"]
    seeds = [b"\x00" + json.dumps([c[1], c[2]], ensure_ascii=False).encode() for c in cases]
    seeds += [b"\x00" + json.dumps(s).encode() for s in [
        [{"prelude.moment.orderPlaced.count": {"$gte": 2}}, {"prelude.moment.orderPlaced.count": 2}],
        [{"$inSegment": "engaged"}, {"sessionCount": 3}],
        [{"a": {"$not": {"$not": {"$not": {"$eq": 1}}}}}, {"a": 1}],
        [{"x": {"$elemMatch": {"y": {"$size": {"$gt": 0}}}}}, {"x": [{"y": [1]}, 0, None]}],
    ]]
    patterns = [("-12-25$", "1980-12-25"), ("(Mobile|Tablet)", "Android Mobile"), ("^(a+)+$", "a" * 40 + "!"),
                ("(a|a)*b", "aaaa"), ("^[^a-c]{2,5}\\d?$", "xyz9"), ("\\bcat\\b", "a cat"), ("(?:x|y){0,3}z", "xyyz"),
                ("[\\w.-]+@[\\w-]+\\.(com|org)", "me@x.org"), ("\\u00e9|\\x41", "A"), ("a{2,}?", "aaa"),
                ("(?=a)", "a"), ("(a)\\1", "aa"), ("[z-a]", "")]
    seeds += [b"\x80" + p.encode() + b"\x00" + t.encode() for p, t in patterns]
    return seeds


def write(target, seeds):
    corpus = os.path.join(HERE, "corpus", target)
    os.makedirs(corpus, exist_ok=True)
    written = 0
    for data in seeds:
        path = os.path.join(corpus, hashlib.sha1(data).hexdigest())
        if not os.path.exists(path):
            open(path, "wb").write(data)
            written += 1
    print(f"{target}: {len(seeds)} seeds, {written} new files in {corpus}", file=sys.stderr)


def main():
    write("request-decoder", request_decoder_seeds())
    write("events", events_seeds())
    write("json", json_seeds())
    write("policy", policy_seeds())
    write("decide", decide_seeds())
    write("query", query_seeds())
    write("accept-language", accept_language_seeds())
    write("locale-tag", locale_tag_seeds())
    write("semver", semver_seeds())
    write("timestamp", timestamp_seeds())
    write("instant", instant_seeds())
    write("results", results_seeds())
    write("router", router_seeds())
    write("ofrep", ofrep_seeds())
    write("segment", segment_seeds())
    write("condition", condition_seeds())


if __name__ == "__main__":
    main()
