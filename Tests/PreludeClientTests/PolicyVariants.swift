import Foundation
import PreludeCore
import PreludeStore

/// Policies for the differential test, derived from the demo policy so their copy is complete.
enum PolicyVariants {
    private static func demo() -> [String: Any] {
        try! JSONSerialization.jsonObject(with: Data(ClientFixture.demoPolicyText.utf8)) as! [String: Any]
    }

    private static func text(_ object: [String: Any]) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// Every catalogue feature configured; targeting on platform, OS, app version and locales; experiments on
    /// strategy, cadence, settings and copy with partial coverage; partial grants set to upgrade or a picker.
    static let everyFeature: String = {
        var root = demo()
        var features = root["features"] as! [String: Any]
        let camera = features["camera"] as! [String: Any]
        let location = features["locationWhenInUse"] as! [String: Any]
        let cameraCopy = camera["copy"]!
        let upgradeCopy = location["copy"]!
        features["locationAlways"] = [
            "copy": upgradeCopy, "partial": ["whenInUse": "upgrade", "reducedAccuracy": "proceed"],
        ]
        features["calendars"] = ["copy": upgradeCopy, "partial": ["writeOnly": "upgrade"], "strategy": "direct"]
        for name in ["bluetooth", "reminders", "motion", "speech", "health", "localNetwork"] {
            features[name] = ["copy": cameraCopy]
        }
        var cameraPolicy = camera
        cameraPolicy["targeting"] = [
            [
                "name": "fr-old-app", "when": ["locales": ["fr"], "appVersion": "<2.0.0"],
                "set": ["strategy": "direct"],
            ],
            [
                "name": "old-os", "when": ["os": "<16"],
                "set": ["cadence": ["prime": ["minIntervalHours": 24, "backoff": 1.5, "maxShows": 5]]],
            ],
            [
                "name": "mac", "when": ["platform": "macos"],
                "set": ["settings": ["delayMs": 0, "leaveScreenFirst": false]],
            ],
        ]
        features["camera"] = cameraPolicy
        root["features"] = features
        // One experiment per feature: the demo's photos-ask-vs-picker gives way to photos-strategy below.
        // The demo's photos and notifications experiments make way for this policy's own on those features.
        var experiments = (root["experiments"] as! [[String: Any]]).filter {
            !["photos", "notifications"].contains($0["feature"] as? String ?? "")
        }
        experiments.append([
            "key": "mic-cadence", "feature": "microphone", "coverage": 0.8,
            "variants": [
                ["name": "a", "weight": 30],
                [
                    "name": "b", "weight": 70,
                    "set": ["cadence": ["prime": ["minIntervalHours": 12, "backoff": 3, "maxShows": 4]]],
                ],
            ],
        ])
        experiments.append([
            "key": "photos-strategy", "feature": "photos", "seed": "photos-2026", "coverage": 0.6,
            "variants": [
                ["name": "prime", "weight": 40], ["name": "direct", "weight": 30, "set": ["strategy": "direct"]],
                ["name": "picker", "weight": 30, "set": ["strategy": "permissionless"]],
            ],
        ])
        experiments.append([
            "key": "location-strategy", "feature": "locationWhenInUse", "coverage": 1,
            "variants": [
                ["name": "button", "weight": 40, "set": ["strategy": "button"]],
                ["name": "direct", "weight": 30, "set": ["strategy": "direct"]],
                [
                    "name": "slow-nudge", "weight": 30,
                    "set": ["cadence": ["settings": ["minIntervalHours": 720, "backoff": 1, "maxShows": 1]]],
                ],
            ],
        ])
        experiments.append([
            "key": "notifications-settings", "feature": "notifications", "coverage": 0.5,
            "variants": [
                ["name": "fast", "weight": 50, "set": ["settings": ["delayMs": 50, "leaveScreenFirst": false]]],
                ["name": "slow", "weight": 50, "set": ["settings": ["delayMs": 900]]],
            ],
        ])
        root["experiments"] = experiments
        return text(root)
    }()

    /// The every-feature policy with short, capped cadences everywhere.
    static let strict: String = {
        var root = try! JSONSerialization.jsonObject(with: Data(everyFeature.utf8)) as! [String: Any]
        var defaults = root["defaults"] as! [String: Any]
        defaults["cadence"] = [
            "prime": ["minIntervalHours": 1, "backoff": 1, "maxShows": 1],
            "settings": ["minIntervalHours": 0, "backoff": 1, "maxShows": 0],
            "upgrade": ["minIntervalHours": 2, "backoff": 10, "maxShows": 20],
        ]
        root["defaults"] = defaults
        return text(root)
    }()

    /// The every-feature policy with conditions (issue 38): segments naming segments, rules on attributes with most
    /// operators, `ask` rules on moments, on a condition over `prelude.launchCount`, and an experiment varying `ask`.
    static let conditioned: String = {
        var root = try! JSONSerialization.jsonObject(with: Data(everyFeature.utf8)) as! [String: Any]
        root["attributes"] = ["sessionCount": "number", "plan": "string", "beta": "boolean", "build": "version"]
        root["segments"] = [
            "engaged": ["sessionCount": ["$gte": 3]],
            "paying": ["plan": ["$in": ["pro", "team"]]],
            "engagedPaying": ["$and": [["$inSegment": "engaged"], ["$inSegment": "paying"]]],
            "testers": ["$or": [["beta": true], ["build": ["$vgte": "2.0.0-beta.1", "$vlt": "3.0.0"]]]],
        ]
        var features = root["features"] as! [String: Any]
        var microphone = features["microphone"] as! [String: Any]
        microphone["ask"] = ["after": ["moment": "noteRecorded", "atLeast": 2]]
        microphone["targeting"] = [
            [
                "name": "paying-direct", "when": ["condition": ["$inSegment": "engagedPaying"]],
                "set": ["strategy": "direct"],
            ],
            ["name": "testers-anytime", "when": ["condition": ["$inSegment": "testers"]], "set": ["ask": "anytime"]],
        ]
        features["microphone"] = microphone
        var notifications = features["notifications"] as! [String: Any]
        notifications["ask"] = [
            "condition": [
                "$or": [
                    ["prelude.launchCount": ["$gte": 3]], ["prelude.moment.orderPlaced.count": ["$gte": 2]],
                ]
            ]
        ]
        notifications["targeting"] = [
            [
                "name": "plan-regex",
                "when": ["condition": ["plan": ["$regex": "^(pro|team)$"], "sessionCount": ["$lt": 10]]],
                "set": ["cadence": ["prime": ["minIntervalHours": 1]]],
            ],
            [
                "name": "not-free", "when": ["condition": ["$nor": [["plan": "free"]], "beta": ["$exists": true]]],
                "set": ["style": "single"],
            ],
        ]
        features["notifications"] = notifications
        root["features"] = features
        var experiments = (root["experiments"] as! [[String: Any]]).filter {
            $0["feature"] as? String != "notifications"
        }
        // Experiment audiences: a segment, and a condition on an attribute and a moment.
        for index in experiments.indices where experiments[index]["key"] as? String == "photos-strategy" {
            experiments[index]["condition"] = ["$inSegment": "engaged"]
        }
        for index in experiments.indices where experiments[index]["key"] as? String == "mic-cadence" {
            experiments[index]["condition"] = [
                "$or": [["plan": ["$ne": "free"]], ["prelude.moment.noteRecorded.count": ["$gte": 1]]]
            ]
        }
        experiments.append([
            "key": "notifications-moment", "feature": "notifications", "coverage": 1,
            "condition": ["$not": ["$inSegment": "testers"]],
            "variants": [
                ["name": "policy-moment", "weight": 50],
                ["name": "first-use", "weight": 50, "set": ["ask": "anytime"]],
            ],
        ])
        root["experiments"] = experiments
        return text(root)
    }()

    /// The conditioned policy with rollouts that have an audience, as the service serves them: a running one on
    /// reminders (its experiment built by ``Rollout/experiment(step:)`` at its first step) and a completed one on
    /// bluetooth (its targeting rule, ``RolloutAudience/completionRule(experimentKey:audience:change:)``).
    static let rollouts: String = {
        var root = try! JSONSerialization.jsonObject(with: Data(conditioned.utf8)) as! [String: Any]
        func any(_ value: JSONValue) -> Any {
            try! JSONSerialization.jsonObject(with: Data(value.serialized().utf8), options: [.fragmentsAllowed])
        }
        let audience: JSONValue = [
            "$or": [["$inSegment": "engaged"], ["prelude.moment.orderPlaced.count": ["$gte": 1]]]
        ]
        let rollout = Rollout(
            id: 1, appID: "demo", environment: "production", experimentKey: "reminders-direct", feature: .reminders,
            change: ["strategy": "direct"],
            plan: RolloutPlan(steps: [
                .init(percent: 10, minimumHoldMillis: 0, minimumExposed: 0),
                .init(percent: 40, minimumHoldMillis: 0, minimumExposed: 0),
            ]),
            state: RolloutState(), baseRevision: nil, lastReading: nil, lastEvaluatedAt: nil, createdBy: "test",
            createdAt: 0, updatedAt: 0, audience: audience)
        root["experiments"] = (root["experiments"] as! [[String: Any]]) + [any(rollout.experiment(step: 0))]
        var features = root["features"] as! [String: Any]
        var bluetooth = features["bluetooth"] as! [String: Any]
        bluetooth["targeting"] = [
            any(
                RolloutAudience.completionRule(
                    experimentKey: "bluetooth-direct", audience: ["$inSegment": "paying"],
                    change: ["strategy": "direct"]))
        ]
        features["bluetooth"] = bluetooth
        root["features"] = features
        return text(root)
    }()
}
