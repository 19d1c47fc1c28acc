extension FeatureOverride {
    /// The JSON form of the fields that are set.
    public var jsonValue: JSONValue { .object(jsonObject) }

    var jsonObject: JSONObject {
        var object = JSONObject()
        if let strategy { object["strategy"] = .string(strategy.rawValue) }
        if let style { object["style"] = .string(style.rawValue) }
        if let ask { object["ask"] = ask.jsonValue }
        if !cadence.isEmpty {
            var cadenceObject = JSONObject()
            for kind in CadenceKind.allCases {
                guard let rule = cadence[kind] else { continue }
                var ruleObject = JSONObject()
                if let value = rule.minIntervalHours { ruleObject["minIntervalHours"] = .number(value) }
                if let value = rule.backoff { ruleObject["backoff"] = .number(value) }
                if let value = rule.maxShows { ruleObject["maxShows"] = .integer(value) }
                cadenceObject[kind.rawValue] = .object(ruleObject)
            }
            object["cadence"] = .object(cadenceObject)
        }
        if settingsDelayMs != nil || settingsLeaveScreenFirst != nil {
            var settingsObject = JSONObject()
            if let value = settingsDelayMs { settingsObject["delayMs"] = .integer(value) }
            if let value = settingsLeaveScreenFirst { settingsObject["leaveScreenFirst"] = .bool(value) }
            object["settings"] = .object(settingsObject)
        }
        if !partial.isEmpty {
            var partialObject = JSONObject()
            for status in AuthorizationStatus.allCases {
                if let action = partial[status] { partialObject[status.rawValue] = .string(action.rawValue) }
            }
            object["partial"] = .object(partialObject)
        }
        if !copy.isEmpty {
            var copyObject = JSONObject()
            for locale in copy.keys.sorted(by: { $0.description < $1.description }) {
                copyObject[locale.description] = copy[locale]!.jsonValue
            }
            object["copy"] = .object(copyObject)
        }
        return object
    }
}
