#!/usr/bin/env python3
"""Writes a large policy for the policy-fetch cost benchmark (scripts/bench.sh public).

Usage: make-large-policy.py DEMO_POLICY OUT LOCALES EXPERIMENTS [REGIONAL]
Starts from the demo policy and configures every feature of the catalogue (the format allows only its 15
features, so "50 features" cannot be expressed: 15 is the maximum), each with copy in LOCALES locales
(prime, settings and denied screens), plus EXPERIMENTS experiments on distinct features (two variants each,
one overriding the copy in every locale) and a targeting rule per feature. With REGIONAL, every copy block that has
English texts also gets REGIONAL regional English locales (en-AU, en-CA, ...) with the same texts: the preview
benchmark's policy at the 1 MiB size limit (scripts/bench-preview.sh).
"""
import copy
import json
import sys

CATALOGUE = ["camera", "microphone", "photos", "contacts", "locationWhenInUse", "locationAlways", "notifications",
             "tracking", "bluetooth", "calendars", "reminders", "motion", "speech", "health", "localNetwork"]
NO_RESTRICTED = {"notifications", "health", "localNetwork"}
MAY_BE_UNAVAILABLE = {"camera", "bluetooth", "motion", "speech", "health", "localNetwork"}
REGIONS = ["AU", "CA", "GB", "IE", "IN", "NZ", "SG", "ZA", "US", "PH", "MY", "NG", "KE", "GH", "JM", "TT", "BZ", "BS",
           "BB", "BM", "BW", "CM", "DM", "ER", "FJ", "FK", "GD", "GI", "GM", "GU", "GY", "HK", "IM", "JE", "KI", "KN",
           "KY", "LC", "LR", "LS", "MG", "MH", "MO", "MP", "MS", "MT", "MU", "MW", "NA", "NF", "NR", "NU", "PG", "PK",
           "PN", "PR", "PW", "RW", "SB", "SC", "SD", "SH", "SL", "SS", "SX", "SZ", "TC", "TK", "TO", "TV", "TZ", "UG",
           "UM", "VC", "VG", "VI", "VU", "WS", "ZM", "ZW"]
LOCALES = ["en", "fr", "ja", "zh-Hans", "zh-Hant", "de", "es", "it", "pt-BR", "nl", "sv", "da", "nb", "fi", "pl",
           "ko", "ru", "tr", "cs", "hu", "ro", "uk", "el", "id", "th"]


def main():
    src, out, n_locales, n_experiments = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    n_regional = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    policy = json.load(open(src))
    locales = LOCALES[:n_locales]
    features = policy["features"]
    for name in CATALOGUE:
        feature = features.setdefault(name, {})
        feature_copy = feature.setdefault("copy", {})
        for loc in locales:
            entry = feature_copy.setdefault(loc, {})
            entry.setdefault("prime", {
                "title": f"Use {name} in {{appName}} ({loc})",
                "message": f"{{appName}} uses {name} for the feature you just opened. You decide on the next screen ({loc})."})
            entry.setdefault("settings", {
                "title": f"{name} access is off ({loc})",
                "message": f"To use this, open Settings and switch on {name} for {{appName}} ({loc})."})
            entry.setdefault("denied", {
                "title": f"{name} access is off ({loc})",
                "message": f"You can keep using {{appName}}; switch on {name} in Settings at any time ({loc})."})
        en = feature_copy["en"]
        # Texts the validator requires per feature kind, in the default locale.
        if name not in NO_RESTRICTED:
            en.setdefault("restricted", {"title": f"{name} not available", "message": f"A device setting blocks {name}."})
        if name in MAY_BE_UNAVAILABLE:
            en.setdefault("unsupported", {"title": f"No {name}", "message": f"This device has no {name}."})
        feature.setdefault("targeting", [
            {"name": f"{name}-ipad-direct", "when": {"platform": ["ipados"]}, "set": {"strategy": "direct"}}])
    experiments = [e for e in policy.get("experiments", [])]
    used = {e["feature"] for e in experiments}
    for name in CATALOGUE:
        if len(experiments) >= n_experiments:
            break
        if name in used:
            continue
        override = {loc: {"prime": {"message": f"{{appName}} needs {name} for this. ({loc}, variant B)."}}
                    for loc in locales}
        experiments.append({"key": f"{name}-copy-test", "feature": name, "seed": f"{name}-copy-test-1",
                            "coverage": 1, "variants": [{"name": "control", "weight": 50},
                                                        {"name": "short", "weight": 50, "set": {"copy": override}}]})
    policy["experiments"] = experiments[:n_experiments]

    def cjk_periods(node, loc=None):
        # The copy lint wants "。" at the end of Japanese and Chinese sentences.
        if isinstance(node, dict):
            for key, value in node.items():
                if isinstance(value, str) and loc and loc.split("-")[0] in ("ja", "zh") and value.endswith("."):
                    node[key] = value[:-1] + "。"
                else:
                    cjk_periods(value, key if key in locales else loc)
        elif isinstance(node, list):
            for value in node:
                cjk_periods(value, loc)
    cjk_periods(policy["features"])
    cjk_periods(policy["experiments"])

    def regional_copies(node):
        # Every "copy" object with English texts gets the same texts under en-XX.
        if isinstance(node, dict):
            copy_block = node.get("copy")
            if isinstance(copy_block, dict) and "en" in copy_block:
                for region in REGIONS[:n_regional]:
                    copy_block.setdefault(f"en-{region}", copy.deepcopy(copy_block["en"]))
            for value in node.values():
                regional_copies(value)
        elif isinstance(node, list):
            for value in node:
                regional_copies(value)
    regional_copies(policy)
    json.dump(policy, open(out, "w"), ensure_ascii=False, indent=1)
    print(f"{out}: {len(features)} features, {len(locales)} locales (+{n_regional} regional English), "
          f"{len(policy['experiments'])} experiments",
          file=sys.stderr)


if __name__ == "__main__":
    main()
