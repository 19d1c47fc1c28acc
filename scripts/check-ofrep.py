#!/usr/bin/env python3
"""Black-box OpenFeature client against a running Prelude (docs/openfeature.md).

Usage: scripts/check-ofrep.py BASE_URL [APP]        (e.g. http://127.0.0.1:8080 demo)

The Python OpenFeature SDK (`openfeature-sdk`) with its OFREP provider (`openfeature-provider-ofrep`), configured with
the base URL BASE_URL/v1/apps/APP as any OpenFeature user would, evaluates every step of every seed flow
(Tests/ContractVectors/*.json, docs/contract-vectors.md) and checks:

1. the evaluation equals the vector's expected decision (action, reason, screen, copy, eligibleAt, ...), and the
   events the vector's user sends are the ones the decision's event plan names;
2. it equals `POST /v1/apps/APP/decide` for the same inputs (the value is the decision, member for member);
3. the OFREP bulk call (`POST .../ofrep/v1/evaluate/flags`) gives the same value for the feature, and its ETag
   sent back as If-None-Match is answered 304;
4. the flow's events, posted to `POST /v1/apps/APP/events` as docs/openfeature.md tells an OpenFeature app to,
   are all stored;
5. the SDK surfaces OFREP's errors: an unknown flag is FLAG_NOT_FOUND, a missing targeting key
   TARGETING_KEY_MISSING, an impossible status INVALID_CONTEXT (each returning the caller's default).

The vectors decide at fixed times (`at`); the server decides at its own clock, so each step is shifted by
(now - at): the history's `lastShown` and the expected `eligibleAt` move by the same amount, which leaves every
cadence decision unchanged. Exit status 1 on the first mismatch.
"""
import glob
import json
import os
import sys
import time
import urllib.request

from openfeature import api
from openfeature.contrib.provider.ofrep import OFREPProvider
from openfeature.evaluation_context import EvaluationContext
from openfeature.exception import ErrorCode
from openfeature.flag_evaluation import Reason

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The client context members a vector may carry, sent alike to OFREP, decide and the bulk call.
CONTEXT_MEMBERS = ("platform", "os", "appVersion", "locale", "region", "ageRange")
OWN_EVENTS = {"exitedWithoutDecision": "systemExitedWithoutDecision", "promptCompleted": "systemPromptCompleted"}
USER_TO_PLAN = {"shown": "onShow", "continued": "onContinue", "dismissed": "onDismiss", "granted": "onGranted",
                "denied": "onDenied"}


def post(url, body, headers=None):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def fail(message):
    print(f"check-ofrep: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def shifted_state(state, offset):
    state = json.loads(json.dumps(state))
    for entry in (state.get("history") or {}).values():
        if "lastShown" in entry:
            entry["lastShown"] += offset
    return state


def check_expect(where, decision, expect, offset):
    for member, wanted in expect.items():
        got = decision.get(member)
        if member == "eligibleAt":
            wanted = wanted + offset
            if got is None or abs(got - wanted) > 0.001:
                fail(f"{where}: eligibleAt {got}, expected {wanted}")
        elif member == "copy":
            for field, text in wanted.items():
                if (got or {}).get(field) != text:
                    fail(f"{where}: copy.{field} {(got or {}).get(field)!r}, expected {text!r}")
        elif got != wanted:
            fail(f"{where}: {member} {got!r}, expected {wanted!r}")


def main():
    base = sys.argv[1].rstrip("/")
    app = sys.argv[2] if len(sys.argv) > 2 else "demo"
    app_base = f"{base}/v1/apps/{app}"
    api.set_provider(OFREPProvider(app_base, timeout=10))
    client = api.get_client()

    vectors = sorted(glob.glob(os.path.join(REPO, "Tests/ContractVectors/*.json")))
    steps = 0
    posted = 0
    run = os.urandom(6).hex()
    for path in vectors:
        vector = json.load(open(path))
        if vector.get("policy") != "config/demo-policy.json":
            fail(f"{path}: runs against {vector.get('policy')}, this check serves the demo policy")
        context = vector["context"]
        for index, step in enumerate(vector["steps"]):
            where = f"{vector['name']} step {index + 1}"
            offset = int(time.time()) - step["at"]
            state = shifted_state(step["state"], offset)
            feature = state.pop("feature")
            attributes = {name: context[name] for name in CONTEXT_MEMBERS if name in context}
            attributes.update(state)
            evaluation = EvaluationContext(targeting_key=context["installId"], attributes=attributes)

            # 1. The SDK's evaluation against the vector.
            details = client.get_object_details(feature, {"action": "default"}, evaluation)
            if details.error_code is not None:
                fail(f"{where}: {details.error_code} {details.error_message}")
            decision = details.value
            if decision.get("feature") != feature:
                fail(f"{where}: value is not the decision for {feature}: {decision}")
            check_expect(where, decision, step["expect"], offset)
            plan = decision.get("events", {})
            # As Tests/PreludeTestSupport/ContractVector.swift's events(plan:user:): a system request that returned
            # undecided (tracking's "Additional Information") has its own event whatever the plan.
            # A request that completed with no knowable answer (HealthKit's read access) likewise.
            sent = [OWN_EVENTS[action] if action in OWN_EVENTS else plan[USER_TO_PLAN[action]]
                    for action in step["user"]
                    if action in OWN_EVENTS or (action in USER_TO_PLAN and USER_TO_PLAN[action] in plan)]
            if sent != step["events"]:
                fail(f"{where}: the event plan gives {sent}, the vector sends {step['events']}")
            variant = (decision.get("variant") or {}).get("variant")
            if details.variant != (variant or decision["action"]):
                fail(f"{where}: variant {details.variant!r}")
            if (details.reason == Reason.SPLIT) != (variant is not None):
                fail(f"{where}: reason {details.reason} with variant {variant!r}")

            # 2. The same inputs through decide.
            decide_body = {"installId": context["installId"], **{k: v for k, v in attributes.items()
                                                                  if k in CONTEXT_MEMBERS},
                           "features": [dict(state, feature=feature)]}
            status, _, body = post(f"{app_base}/decide", decide_body)
            if status != 200:
                fail(f"{where}: decide answered {status}: {body[:300]!r}")
            decided = json.loads(body)["decisions"][0]
            if decided != decision:
                fail(f"{where}: OFREP {json.dumps(decision)} != decide {json.dumps(decided)}")

            # 3. The bulk call: the same value for this feature, and 304 for its own ETag.
            bulk_context = {"targetingKey": context["installId"],
                            **{k: v for k, v in attributes.items() if k in CONTEXT_MEMBERS},
                            "features": {feature: state}}
            status, headers, body = post(f"{app_base}/ofrep/v1/evaluate/flags", {"context": bulk_context})
            if status != 200:
                fail(f"{where}: bulk answered {status}: {body[:300]!r}")
            flags = {flag["key"]: flag for flag in json.loads(body)["flags"]}
            if flags.get(feature, {}).get("value") != decision:
                fail(f"{where}: bulk value {flags.get(feature)} != {decision}")
            etag = headers.get("ETag") or headers.get("Etag")
            status, _, body = post(f"{app_base}/ofrep/v1/evaluate/flags", {"context": bulk_context},
                                   {"If-None-Match": etag})
            if status != 304 or body:
                fail(f"{where}: If-None-Match {etag} answered {status}")

            # 4. The events the flow sends, as an OpenFeature app reports them: to the events endpoint, labelled
            #    with the decision's experiment and variant (OFREP has no tracking endpoint; evaluating counted none).
            if step["events"]:
                events = []
                for number, event_type in enumerate(step["events"]):
                    event = {"id": f"ofrep-{vector['name']}-{index}-{number}-{run}", "installId": context["installId"],
                             "type": event_type, "feature": feature, "occurredAt": int(time.time() * 1000)}
                    if decision.get("variant"):
                        event["experiment"] = decision["variant"]["experiment"]
                        event["variant"] = decision["variant"]["variant"]
                    events.append(event)
                status, _, body = post(f"{app_base}/events", {"events": events})
                if status != 202 or json.loads(body) != {"accepted": len(events), "duplicates": 0}:
                    fail(f"{where}: events answered {status}: {body[:300]!r}")
                posted += len(events)
            steps += 1

    # 5. Errors, as the SDK reports them (the caller gets its default).
    default = {"action": "default"}
    cases = [
        ("not-a-feature", EvaluationContext(targeting_key="ofrep-check"), ErrorCode.FLAG_NOT_FOUND),
        ("camera", EvaluationContext(attributes={"os": "17.4"}), ErrorCode.TARGETING_KEY_MISSING),
        ("camera", EvaluationContext(targeting_key="ofrep-check", attributes={"status": "provisional"}),
         ErrorCode.INVALID_CONTEXT),
    ]
    for key, evaluation, code in cases:
        details = client.get_object_details(key, default, evaluation)
        if details.error_code != code or details.value != default:
            fail(f"{key}: expected {code} and the default, got {details.error_code} {details.value}")

    print(f"check-ofrep: the OpenFeature Python SDK + OFREP provider evaluated {steps} steps of {len(vectors)} seed "
          f"flows: each equals its vector, decide and the bulk call (ETag 304); {posted} flow events stored; errors FLAG_NOT_FOUND, "
          f"TARGETING_KEY_MISSING, INVALID_CONTEXT surfaced")


if __name__ == "__main__":
    main()
