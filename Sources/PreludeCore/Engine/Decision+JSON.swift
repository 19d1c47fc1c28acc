extension Decision {
    /// The JSON form the decide endpoint returns; absent members mean "does not apply".
    ///
    /// `{"feature", "action", "reason", "screen", "copy": {field: text}, "style", "variant": {"experiment",
    /// "variant"}, "countsAgainst", "eligibleAt" (Unix seconds), "settingsDelayMs", "leaveScreenFirst",
    /// "events": {"onShow", "onContinue", "onDismiss", "onGranted", "onDenied"}}`
    public var jsonValue: JSONValue {
        var object = JSONObject()
        object["feature"] = .string(feature.rawValue)
        object["action"] = .string(action.rawValue)
        object["reason"] = .string(reason.rawValue)
        if let screen {
            object["screen"] = .string(screen.rawValue)
            var copyObject = JSONObject()
            for field in screen.fields {
                if let text = copy[field] { copyObject[field.rawValue] = .string(text) }
            }
            object["copy"] = .object(copyObject)
        }
        if let style { object["style"] = .string(style.rawValue) }
        if let variant { object["variant"] = variant.jsonValue }
        if let countsAgainst { object["countsAgainst"] = .string(countsAgainst.rawValue) }
        if let eligibleAt { object["eligibleAt"] = .number(eligibleAt.secondsSinceEpoch) }
        if let settingsDelayMs { object["settingsDelayMs"] = .integer(settingsDelayMs) }
        if let leaveScreenFirst { object["leaveScreenFirst"] = .bool(leaveScreenFirst) }
        object["events"] = events.jsonValue
        return .object(object)
    }
}

extension AnalyticsPlan {
    /// `{"onShow": "primeShown", ...}` with only the steps that exist.
    public var jsonValue: JSONValue {
        var object = JSONObject()
        let steps: [(String, AnalyticsEvent?)] = [
            ("onShow", onShow), ("onContinue", onContinue), ("onDismiss", onDismiss), ("onGranted", onGranted),
            ("onDenied", onDenied),
        ]
        for (name, event) in steps {
            if let event { object[name] = .string(event.rawValue) }
        }
        return .object(object)
    }
}
