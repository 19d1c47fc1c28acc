import Foundation

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
        var experiments = (root["experiments"] as! [[String: Any]]).filter { $0["feature"] as? String != "photos" }
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
}
