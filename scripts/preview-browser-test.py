#!/usr/bin/env python3
"""Real-browser test of `prelude policy preview` (issue 14), in Debian's headless Chromium driven by Playwright.

Usage: scripts/preview-browser-test.py PRELUDE_BINARY [--screenshots DIR]

Renders the demo policy twice, a right-to-left test policy, a deliberately bad policy and a changed demo policy
compared with the demo, opens them in Chromium and checks:
  - the two renders are byte-identical, and so are screenshots of them;
  - the page loads nothing but itself (no network, no external asset);
  - every feature x locale of the demo has its screens (every screen the feature writes copy for, per variant);
  - nothing overflows: no text box's scrollHeight/scrollWidth exceeds its box, and the measure agrees;
  - dark mode renders (dark devices have dark surfaces; the theme switch hides one theme);
  - tracking's full-page request (iOS 27.2) is drawn beside each tracking priming screen, its Markdown rendered;
  - Arabic and Hebrew screens render right to left, English left to right;
  - the bad policy's lint findings appear on its screens, offending words in <mark>, HTML in copy stays text,
    and its overlong message overflows in the browser as the measure says;
  - comparing with the live document marks exactly the screens that changed.
Then the experiment results page (issue 26): a real `prelude serve` on a temporary database, synthetic traffic on
the demo's photos-ask-vs-picker through the public API (each install in the arm the server assigns it), and the
results route fetched as JSON and with `Accept: text/html`; in Chromium, light and dark, at desktop and phone widths:
  - health checks come first, every arm has its row, and every figure equals the JSON's (data-value and text);
  - the breakdowns per OS major version and locale (events sent with the segment headers) come last, labelled
    exploratory, one row per segment and arm, every figure equal to the JSON's segments, no verdict;
  - the charts are present (SVG drawn by the server, one line per comparison or arm);
  - nothing overflows the page, the page loads nothing from outside, and dark mode renders dark.
Chromium is /usr/bin/chromium or $CHROMIUM; if it cannot start, the test fails (it never skips).
"""
import argparse
import hashlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "Tests/PreludePreviewTests/Fixtures"
DEMO = REPO / "config/demo-policy.json"
failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message)
    if not condition:
        failures.append(message)


def render(binary, policy, out, against=None):
    command = [binary, "policy", "preview", str(policy), "--output", str(out)]
    if against:
        command += ["--against", str(against)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return out / "index.html"


def policy_locales(doc):
    locales = {doc["app"]["defaultLocale"]}
    layers = [doc.get("defaults", {})]
    for feature in doc["features"].values():
        layers.append(feature)
        layers += [rule.get("set", {}) for rule in feature.get("targeting", [])]
    for experiment in doc.get("experiments", []):
        layers += [variant.get("set", {}) for variant in experiment["variants"]]
    for layer in layers:
        locales |= set(layer.get("copy", {}).keys())
    return locales


def figures(page):
    return page.eval_on_selector_all(
        "main figure.screen",
        """els => els.map(e => ({feature: e.dataset.feature, locale: e.dataset.locale, variant: e.dataset.variant,
            action: e.dataset.action, screen: e.dataset.screen, overflow: e.dataset.overflow,
            findings: +e.dataset.findings, change: e.dataset.change, id: e.id}))""",
    )


def real_overflows(page, root="main"):
    """Text boxes whose content is taller or wider than the box (CSS clips each at the screen's budget)."""
    return page.eval_on_selector_all(
        f"{root} .t",
        """els => els.filter(e => e.offsetParent !== null &&
                 (e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1))
             .map(e => e.closest('figure').id + ' ' + e.dataset.field + ' ' + e.closest('.device').dataset.theme)""",
    )


def open_page(browser, path, external):
    page = browser.new_page(viewport={"width": 1280, "height": 900}, device_scale_factor=1)
    page.on("request", lambda request: None if request.url.startswith("file://") else external.append(request.url))
    page.goto(path.as_uri())
    return page


def luminance(css_colour):
    parts = css_colour[css_colour.index("(") + 1 : css_colour.index(")")].split(",")
    r, g, b = (float(p) for p in parts[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


RESULTS_TOKEN = "results-page-browser-test-0123456789abcdefghijklmnopqrstuv"
RESULTS_PATH = "/v1/admin/apps/demo/experiments/photos-ask-vs-picker/results"


def http(port, method, path, body=None, headers=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body, method=method, headers=headers or {})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, dict(response.headers), response.read()


def results_server(binary, work):
    """A real server on a fresh database with the demo policy; synthetic ask-vs-picker traffic through the public
    API, every install in the arm the server assigns. Returns (process, port)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = dict(os.environ, PRELUDE_ADMIN_TOKEN=RESULTS_TOKEN)
    server = subprocess.Popen(
        [binary, "serve", "--port", str(port), "--host", "127.0.0.1", "--database", str(work / "results.sqlite"),
         "--demo-policy", str(DEMO)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while True:
        try:
            if http(port, "GET", "/readyz")[0] == 200:
                break
        except OSError:
            pass
        if time.time() > deadline or server.poll() is not None:
            server.kill()
            raise RuntimeError("prelude serve did not become ready")
        time.sleep(0.2)
    generator = random.Random(2611)
    # Device segments (Prelude-OS-Major, Prelude-Locale request headers): a third each on iOS 18 in Canadian French,
    # iOS 17 in US English, and none (an older client): the page's breakdowns.
    segments = [{"Prelude-OS-Major": "18", "Prelude-Locale": "fr-CA"},
                {"Prelude-OS-Major": "17", "Prelude-Locale": "en-US"}, {}]
    batches = [[] for _ in segments]
    for index in range(600):
        events = batches[index % len(segments)]
        install = f"browser-{index}"
        policy = json.loads(http(port, "GET", f"/v1/apps/demo/policy?platform=ios&os=18.2&installId={install}")[2])
        arm = next(e["variant"] for e in policy["experiments"] if e["key"] == "photos-ask-vs-picker")
        types = ["taskStarted"]
        if arm == "ask":
            types.append("primeShown")
            if generator.random() < 0.7:
                types.append("primeAccepted")
                types += ["systemGranted", "taskCompleted"] if generator.random() < 0.75 else ["systemDenied"]
            else:
                types.append("primeDismissed")
        elif generator.random() < 0.8:
            types.append("taskCompleted")
        for n, kind in enumerate(types):
            event = {"id": f"{install}-{n}", "installId": install, "type": kind, "feature": "photos",
                     "experiment": "photos-ask-vs-picker", "variant": arm, "occurredAt": int(time.time() * 1000)}
            if kind.startswith("task"):
                event["task"] = "attach-photo"
            events.append(event)
    for segment, events in zip(segments, batches):
        for start in range(0, len(events), 400):
            body = json.dumps({"events": events[start:start + 400]}).encode()
            status = http(port, "POST", "/v1/apps/demo/events", body, dict(segment, **{"Content-Type": "application/json"}))[0]
            if status != 202:
                raise RuntimeError(f"events answered {status}")
    return server, port


def check_results_page(browser, binary, work, shots, external):
    server, port = results_server(binary, work)
    try:
        auth = {"Authorization": f"Bearer {RESULTS_TOKEN}"}
        report = json.loads(http(port, "GET", RESULTS_PATH, headers=auth)[2])
        status, headers, body = http(port, "GET", RESULTS_PATH, headers=dict(auth, Accept="text/html"))
    finally:
        server.terminate()
        server.wait(timeout=20)
    check(status == 200 and headers.get("Content-Type", "").startswith("text/html"), "results page served as HTML")
    page_file = work / "results.html"
    page_file.write_bytes(body)
    variants = report["variants"]
    check([v["name"] for v in variants] == ["ask", "picker"] and report["totalExposed"] == 600,
          f"the JSON reports both arms of 600 installs: {[v['name'] for v in variants]}, {report['totalExposed']}")
    fields = {
        "weight": lambda v: v["weight"], "funnel.exposed": lambda v: v["funnel"]["exposed"],
        "funnel.granted": lambda v: v["funnel"]["granted"], "funnel.taskStarted": lambda v: v["funnel"]["taskStarted"],
        "funnel.taskCompleted": lambda v: v["funnel"]["taskCompleted"], "grant.rate": lambda v: v["grantRate"],
        "task.rate": lambda v: v["taskCompletionRate"],
        "task.interval": lambda v: [v["taskCompletionRateInterval"]["lower"], v["taskCompletionRateInterval"]["upper"]],
        "task.difference": lambda v: v["taskComparison"] and v["taskComparison"]["difference"],
        "task.sequentialInterval": lambda v: v["taskComparison"] and [
            v["taskComparison"]["sequentialInterval"]["lower"], v["taskComparison"]["sequentialInterval"]["upper"]],
        "task.adjustedSequentialPValue": lambda v: v["taskComparison"] and v["taskComparison"]["adjustedSequentialPValue"],
        "grant.difference": lambda v: v["comparison"] and v["comparison"]["difference"],
        "task.verdict": lambda v: v["taskVerdict"], "grant.verdict": lambda v: v["verdict"],
    }
    for scheme in ("light", "dark"):
        for width in (1280, 390):
            context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
            page = context.new_page()
            page.on("request", lambda r: None if r.url.startswith("file://") else external.append(r.url))
            page.goto(page_file.as_uri())
            label = f"results page ({scheme}, {width} px)"
            sections = page.eval_on_selector_all("main > section", "els => els.map(e => e.id)")
            check(sections[:2] == ["health", "arms"], f"{label}: health checks first, then the arms: {sections}")
            check(sections[-1] == "breakdowns", f"{label}: the breakdowns come last: {sections}")
            checks = page.eval_on_selector_all("#health li.check", "els => els.map(e => e.dataset.check + ':' + e.dataset.status)")
            check({"sample-ratio:ok", "events-per-day:ok", "mislabelled:ok"} <= set(checks), f"{label}: health checks {checks}")
            # One row per arm in each table (funnel, grant rate, task success); an arm's cells are the union.
            tables = page.eval_on_selector_all(
                "#arms table.arms",
                """tables => tables.map(t => [...t.querySelectorAll('tr[data-variant]')].map(r => ({name: r.dataset.variant,
                    cells: Object.fromEntries([...r.querySelectorAll('td[data-field]')]
                    .map(c => [c.dataset.field, {value: c.dataset.value, text: c.textContent}]))})))""")
            check(len(tables) == 3 and all([r["name"] for r in t] == [v["name"] for v in variants] for t in tables),
                  f"{label}: three tables with one row per arm each")
            rows = [{"name": parts[0]["name"], "cells": {k: c for part in parts for k, c in part["cells"].items()}}
                    for parts in zip(*tables)]
            mismatches = []
            for row, variant in zip(rows, variants):
                for field, read in fields.items():
                    expected = read(variant)
                    cell = row["cells"].get(field)
                    if expected is None:
                        continue
                    if cell is None:
                        mismatches.append(f"{row['name']} {field} missing")
                        continue
                    if isinstance(expected, str):
                        same = cell["value"] == expected
                    elif isinstance(expected, list):
                        same = [float(x) for x in cell["value"].split()] == expected
                    else:
                        same = float(cell["value"]) == float(expected)
                    if not same:
                        mismatches.append(f"{row['name']} {field}: page {cell['value']} JSON {expected}")
                for field in ("grant.rate", "task.rate"):
                    value = read_value = fields[field](variant)
                    if read_value is not None and row["cells"][field]["text"] != f"{value * 100:.2f}%":
                        mismatches.append(f"{row['name']} {field} text {row['cells'][field]['text']} vs {value}")
            check(not mismatches, f"{label}: every figure equals the JSON's: {mismatches[:4]}")
            # The breakdowns: per dimension one row per segment and arm, every figure equal to the JSON's, labelled
            # exploratory, no verdict.
            breakdown = report["segments"]
            check(breakdown["exploratory"] is True, f"{label}: the JSON labels the breakdowns exploratory")
            check("exploratory" in page.inner_text("section#breakdowns").lower(), f"{label}: the page does too")
            for dimension, expected_values in (("osMajor", ["17", "18", "unknown"]), ("locale", ["en-US", "fr-CA", "unknown"])):
                segments = breakdown[dimension]
                check(sorted(s["value"] for s in segments) == expected_values,
                      f"{label}: {dimension} segments {[s['value'] for s in segments]}")
                seen = page.eval_on_selector_all(
                    f"#breakdowns table[data-dimension='{dimension}'] tr[data-segment]",
                    """rows => rows.map(r => ({segment: r.dataset.segment, name: r.dataset.variant,
                        cells: Object.fromEntries([...r.querySelectorAll('td[data-field]')]
                        .map(c => [c.dataset.field, c.dataset.value]))}))""")
                expected = [(s["value"], v) for s in segments for v in s["variants"]]
                check([(r["segment"], r["name"]) for r in seen] == [(s, v["name"]) for s, v in expected],
                      f"{label}: {dimension}: one row per segment and arm")
                wrong = []
                for row, (value, variant) in zip(seen, expected):
                    comparison = variant["comparison"]
                    want = {"funnel.exposed": variant["funnel"]["exposed"], "funnel.granted": variant["funnel"]["granted"],
                            "grant.rate": variant["grantRate"],
                            "grant.difference": comparison and comparison["difference"],
                            "grant.adjustedSequentialPValue": comparison and comparison["adjustedSequentialPValue"]}
                    for field, value_expected in want.items():
                        if value_expected is None:
                            continue
                        if row["cells"].get(field) is None or float(row["cells"][field]) != float(value_expected):
                            wrong.append(f"{value}/{row['name']} {field}: page {row['cells'].get(field)} JSON {value_expected}")
                    if variant["verdict"] is not None:
                        wrong.append(f"{value}/{row['name']} has a verdict")
                check(not wrong, f"{label}: {dimension}: every figure equals the JSON's {wrong[:4]}")
            charts = page.eval_on_selector_all(
                "svg.chart", "els => els.map(e => ({id: e.id, lines: e.querySelectorAll('polyline').length, w: e.getBoundingClientRect().width}))")
            ids = {c["id"]: c for c in charts}
            check({"chart-grant-difference", "chart-task-difference", "chart-exposures", "chart-events"} <= set(ids)
                  and ids["chart-exposures"]["lines"] == 2 and ids["chart-task-difference"]["lines"] == 1
                  and all(c["w"] > 100 for c in charts), f"{label}: charts drawn {charts}")
            overflow = page.evaluate("""() => {
                const doc = document.scrollingElement;
                const wide = [...document.querySelectorAll('main section, svg.chart, header, li.check')]
                    .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).map(e => e.id || e.tagName);
                return {scroll: doc.scrollWidth - window.innerWidth, wide};
            }""")
            check(overflow["scroll"] <= 0 and not overflow["wide"], f"{label}: nothing overflows {overflow}")
            if width >= 1280:
                # On a laptop screen every column of the arms tables is in view, none behind a scroll bar.
                hidden = page.eval_on_selector_all(
                    "#arms .scroll, #breakdowns .scroll", "els => els.map(e => e.scrollWidth - e.clientWidth).filter(d => d > 1)")
                check(not hidden, f"{label}: the arms and breakdown tables fit without scrolling {hidden}")
            background = luminance(page.evaluate("getComputedStyle(document.body).backgroundColor"))
            text = luminance(page.evaluate("getComputedStyle(document.body).color"))
            card = luminance(page.eval_on_selector("section#arms", "e => getComputedStyle(e).backgroundColor"))
            if scheme == "dark":
                check(background < 0.2 and card < 0.2 and text > 0.8, f"{label}: dark renders dark ({background:.2f}, {card:.2f}, {text:.2f})")
            else:
                check(background > 0.8 and card > 0.8 and text < 0.2, f"{label}: light renders light ({background:.2f}, {card:.2f}, {text:.2f})")
            check(page.evaluate("document.scripts.length") == 0, f"{label}: no script")
            page.screenshot(path=str(shots / f"results-{scheme}-{width}.png"), full_page=True)
            context.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--screenshots", help="folder for the PNG screenshots (default: a temporary folder)")
    args = parser.parse_args()
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    work = Path(tempfile.mkdtemp(prefix="preview-browser-"))
    shots = Path(args.screenshots) if args.screenshots else work / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)

    demo1 = render(args.binary, DEMO, work / "demo1")
    demo2 = render(args.binary, DEMO, work / "demo2")
    check(demo1.read_bytes() == demo2.read_bytes(), "two renders of the demo policy are byte-identical")
    rtl = render(args.binary, FIXTURES / "rtl-policy.json", work / "rtl")
    bad = render(args.binary, FIXTURES / "bad-policy.json", work / "bad")
    changed_policy = json.loads(DEMO.read_text())
    changed_policy["features"]["camera"]["copy"]["en"]["prime"]["title"] = "Scan documents with {appName}"
    (work / "changed.json").write_text(json.dumps(changed_policy, ensure_ascii=False))
    compared = render(args.binary, work / "changed.json", work / "compared", against=DEMO)
    # Tracking's intended purpose strings (server-only, so not in the demo, whose served form is canonical): the
    # preview draws iOS 27.2's full-page request beside each tracking priming screen.
    sheet_policy = json.loads(DEMO.read_text())
    sheet_policy["features"]["tracking"]["purposeStrings"] = {"en": {
        "NSUserTrackingUsageDescription": "We use your activity in other companies’ apps and websites to show you "
                                          "ads that fit your interests, for example ads for running shoes.",
        "NSUserTrackingMarkdownUsageDescription": "With your permission, we use **your activity in other companies’ "
            "apps and websites** to show you ads that fit your interests.\n\nFor example:\n- ads for *running "
            "shoes* after you read about running\n- fewer ads for things you already bought\n\nWe show ads either "
            "way; without your permission they do not use this activity."}}
    (work / "sheet.json").write_text(json.dumps(sheet_policy, ensure_ascii=False))
    sheet = render(args.binary, work / "sheet.json", work / "sheet")

    external = []
    with sync_playwright() as playwright:
        try:
            browser = playwright.chromium.launch(
                executable_path=chromium, headless=True, args=["--no-sandbox", "--disable-gpu"])
        except Exception as error:  # noqa: BLE001 - any failure to start is fatal, never a skip
            print(f"FAIL chromium ({chromium}) did not start: {error}", file=sys.stderr)
            return 1
        print(f"chromium {browser.version} from {chromium}")

        # The demo: every feature x locale x screen, nothing overflowing, dark mode, identical screenshots.
        page = open_page(browser, demo1, external)
        doc = json.loads(DEMO.read_text())
        found = figures(page)
        locales = policy_locales(doc)
        check(len(found) > 0, f"the demo preview draws {len(found)} screens")
        for feature, policy in doc["features"].items():
            written = set(policy.get("copy", {}).get(doc["app"]["defaultLocale"], {}).keys())
            variants = ["base"] + [
                f"experiment:{e['key']}:{v['name']}"
                for e in doc.get("experiments", []) if e["feature"] == feature for v in e["variants"]]
            # An ask-less arm (strategy permissionless, docs/catalogue.md) shows the system's picker where the OS
            # has it: of our screens it draws the priming screen it falls back to, and those no strategy changes.
            ask_less = {f"experiment:{e['key']}:{v['name']}"
                        for e in doc.get("experiments", []) if e["feature"] == feature for v in e["variants"]
                        if v.get("set", {}).get("strategy") == "permissionless"}
            for locale in sorted(locales):
                for variant in variants:
                    drawn = {f["screen"] for f in found
                             if f["feature"] == feature and f["locale"] == locale and f["variant"] == variant}
                    if variant in ask_less:
                        check("prime" in drawn and drawn <= written,
                              f"demo {feature} {locale} {variant} (ask less): screens {sorted(drawn)} within {sorted(written)}")
                        continue
                    missing = written - drawn - {"button"}
                    check(not missing and "denied" in drawn,
                          f"demo {feature} {locale} {variant}: screens {sorted(drawn)} cover {sorted(written)}")
            check(any(f["feature"] == feature and f["screen"] == "button" for f in found) == ("button" in written),
                  f"demo {feature}: a button caption screen exactly when the feature writes one")
        check(all(f["overflow"] == "" for f in found), "the measure finds no overflowing text in the demo")
        overflowing = real_overflows(page)
        check(not overflowing, f"no text overflows its box in the browser (demo): {overflowing[:5]}")
        light_bg = page.eval_on_selector("main .device.alert.light .alert-box", "e => getComputedStyle(e).backgroundColor")
        dark_bg = page.eval_on_selector("main .device.alert.dark .alert-box", "e => getComputedStyle(e).backgroundColor")
        dark_text = page.eval_on_selector("main .device.sheet.dark .t-title", "e => getComputedStyle(e).color")
        check(luminance(light_bg) > 0.8 and luminance(dark_bg) < 0.25 and luminance(dark_text) > 0.8,
              f"dark mode renders: light alert {light_bg}, dark alert {dark_bg}, dark title {dark_text}")
        visible = "sel => document.querySelectorAll(sel).length - [...document.querySelectorAll(sel)].filter(e => e.offsetParent === null).length"
        both = (page.evaluate(visible, "main .device.light"), page.evaluate(visible, "main .device.dark"))
        first = hashlib.sha256(page.screenshot(full_page=False)).hexdigest()
        page.click("label[for=show-dark]")
        dark_only = (page.evaluate(visible, "main .device.light"), page.evaluate(visible, "main .device.dark"))
        check(both[0] > 0 and both[0] == both[1] and dark_only == (0, both[1]),
              f"the theme switch shows dark only: light/dark visible {both} then {dark_only}")
        page.click("label[for=show-both]")
        page.screenshot(path=str(shots / "preview-index.png"))
        section = page.locator("section.variant").first.bounding_box()
        page.screenshot(path=str(shots / "preview-screens.png"), full_page=True, clip={
            "x": section["x"], "y": section["y"], "width": section["width"], "height": min(section["height"], 720)})
        again = open_page(browser, demo2, external)
        check(hashlib.sha256(again.screenshot(full_page=False)).hexdigest() == first,
              "screenshots of the two demo renders are identical")
        again.close()
        page.close()

        # Tracking's full-page request (iOS 27.2) beside each tracking priming screen: the intended Markdown purpose
        # string rendered (bold, a two-item list) in light and dark, labelled an approximation, within the page.
        page = open_page(browser, sheet, external)
        found = figures(page)
        sheets = page.eval_on_selector_all(
            "main figure.screen .att-sheet",
            """els => els.map(e => ({figure: e.closest('figure').dataset.feature + '/' + e.closest('figure').dataset.action,
                key: e.dataset.key, devices: e.querySelectorAll('.device.att').length,
                strong: e.querySelectorAll('.att-body strong').length, items: e.querySelectorAll('.att-body li').length,
                approx: !!e.querySelector('.badge.approx'), foreign: e.querySelectorAll('script, img, svg, a').length,
                height: Math.min(...[...e.querySelectorAll('.att-body')].map(b => b.offsetHeight)),
                wide: e.scrollWidth > e.clientWidth + 1}))""")
        tracking_primes = [f for f in found if f["feature"] == "tracking" and f["action"] == "prime"]
        check(len(sheets) == len(tracking_primes) > 0 and all(s["figure"] == "tracking/prime" for s in sheets),
              f"a full-page tracking request beside each of the {len(tracking_primes)} tracking priming screens "
              f"({len(sheets)} drawn)")
        check(all(s["key"] == "NSUserTrackingMarkdownUsageDescription" and s["devices"] == 2 and s["strong"] == 2
                  and s["items"] == 4 and s["approx"] and s["foreign"] == 0 and s["height"] > 0 and not s["wide"]
                  for s in sheets),
              f"each full-page request renders the Markdown string light and dark, marked as an approximation: "
              f"{sheets[:1]}")
        overflowing = real_overflows(page)
        check(not overflowing,
              f"no text overflows its box in the browser (with the tracking request): {overflowing[:5]}")
        page.close()

        # Right to left.
        page = open_page(browser, rtl, external)
        found = figures(page)
        for locale in ("ar", "he"):
            direction = page.eval_on_selector_all(
                f"main figure[data-locale={locale}] .device .t-message",
                "els => [...new Set(els.map(e => getComputedStyle(e).direction))]")
            check(direction == ["rtl"], f"{locale} screens render right to left ({direction})")
        direction = page.eval_on_selector_all(
            "main figure[data-locale=en] .device .t-message", "els => [...new Set(els.map(e => getComputedStyle(e).direction))]")
        check(direction == ["ltr"], f"en screens render left to right ({direction})")
        overflowing = real_overflows(page)
        check(not overflowing, f"no text overflows in the right-to-left policy: {overflowing[:5]}")
        page.locator("figure[data-locale=ar][data-action=prime]").first.screenshot(path=str(shots / "preview-rtl.png"))
        page.locator("figure[data-locale=ar][data-action=openSettings]").first.screenshot(
            path=str(shots / "preview-rtl-alert.png"))
        page.close()

        # The bad policy: findings on screens, marks, escaping, overflow the browser sees too.
        page = open_page(browser, bad, external)
        rules = set(page.eval_on_selector_all("main li.finding", "els => els.map(e => e.dataset.rule)"))
        check({"PA-1", "PA-2", "PA-3", "PA-6", "DN-2"} <= rules, f"lint findings appear on the bad policy's screens: {sorted(rules)}")
        marks = set(page.eval_on_selector_all("main mark", "els => els.map(e => e.textContent.toLowerCase())"))
        check({"allow", "free"} <= marks, f"offending words are highlighted: {sorted(marks)}")
        check(page.evaluate("document.scripts.length") == 0, "no script element (copy's <script> stays text)")
        title = page.eval_on_selector("main figure[data-feature=camera][data-action=deniedScreen] .t-title", "e => e.textContent")
        check("<script>" in title, f"HTML in copy is shown as text: {title!r}")
        check(page.eval_on_selector("h1", "e => e.children.length") == 0 and "<b>App</b>" in page.inner_text("h1"),
              "HTML in the app name is shown as text")
        measured = [f for f in figures(page) if "message" in f["overflow"].split()]
        check([f["feature"] for f in measured] == ["microphone"], f"the measure flags the overlong message: {[f['id'] for f in measured]}")
        overflowing = real_overflows(page)
        check(overflowing and all(o.startswith("s.microphone.en.base.prime message") for o in overflowing),
              f"the browser sees the same overflow: {overflowing}")
        page.locator("figure[data-feature=tracking][data-action=prime]").screenshot(path=str(shots / "preview-lint.png"))
        page.close()

        # A change compared with the live document.
        page = open_page(browser, compared, external)
        found = figures(page)
        changed = sorted(f["id"] for f in found if f["change"] == "changed")
        expected = sorted(f["id"] for f in found
                          if f["feature"] == "camera" and f["locale"] == "en" and f["action"] == "prime")
        check(changed == expected and len(expected) == 3, f"exactly the changed screens are marked: {changed}")
        check(all(f["change"] in ("unchanged", "changed") for f in found), "no screen is added or removed by a copy change")
        check(page.locator("figure.changed .side.live").count() == len(expected), "each changed screen shows the live one beside it")
        page.locator("figure.changed").first.screenshot(path=str(shots / "preview-changed.png"))
        page.close()

        # The experiment results page over a real server.
        check_results_page(browser, args.binary, work, shots, external)
        browser.close()

    check(not external, f"the pages load nothing from outside: {external[:5]}")
    print(f"screenshots in {shots}")
    if failures:
        print(f"{len(failures)} check(s) failed", file=sys.stderr)
        return 1
    print("preview browser test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
