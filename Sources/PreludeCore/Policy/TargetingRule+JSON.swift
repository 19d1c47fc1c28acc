extension TargetingRule {
    /// `{name, when, set}`.
    public var jsonValue: JSONValue {
        var object = JSONObject()
        object["name"] = .string(name)
        var whenObject = JSONObject()
        if when.platforms.count == 1 {
            whenObject["platform"] = .string(when.platforms[0].rawValue)
        } else if !when.platforms.isEmpty {
            whenObject["platform"] = .array(when.platforms.map { .string($0.rawValue) })
        }
        if let os = when.os { whenObject["os"] = .string(os.description) }
        if let appVersion = when.appVersion { whenObject["appVersion"] = .string(appVersion.description) }
        if !when.locales.isEmpty { whenObject["locales"] = .array(when.locales.map { .string($0.description) }) }
        if !when.regions.isEmpty { whenObject["region"] = .array(when.regions.map { .string($0) }) }
        if let ageRange = when.ageRange { whenObject["ageRange"] = .string(ageRange.description) }
        if let condition = when.condition { whenObject["condition"] = condition.source }
        object["when"] = .object(whenObject)
        object["set"] = set.jsonValue
        return .object(object)
    }
}
