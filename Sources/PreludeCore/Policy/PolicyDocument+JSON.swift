extension PolicyDocument {
    /// Reads a document from JSON, returning a best-effort document and every structural problem found.
    ///
    /// Use ``PolicyValidator/validate(_:)-(JSONValue)`` to also run the semantic checks; a document is usable
    /// only when that reports no problem.
    public static func decode(_ json: JSONValue) -> (document: PolicyDocument, problems: [ValidationProblem]) {
        var decoder = PolicyDocumentDecoder()
        let document = decoder.decode(json)
        return (document, decoder.problems)
    }

    /// The canonical JSON form: members in the documented order, features in catalogue order, locales sorted,
    /// copy screens and fields in their declared order, unset optional members left out.
    public var jsonValue: JSONValue {
        var root = JSONObject()
        root["schemaVersion"] = .integer(schemaVersion)
        var appObject = JSONObject()
        appObject["id"] = .string(app.id)
        appObject["name"] = .string(app.name)
        appObject["defaultLocale"] = .string(app.defaultLocale.description)
        root["app"] = .object(appObject)
        if !defaults.isEmpty { root["defaults"] = defaults.jsonValue }
        var featuresObject = JSONObject()
        for policy in orderedFeatures {
            var body = policy.settings.jsonObject
            if !policy.targeting.isEmpty {
                body["targeting"] = .array(policy.targeting.map(\.jsonValue))
            }
            featuresObject[policy.feature.rawValue] = .object(body)
        }
        root["features"] = .object(featuresObject)
        if !experiments.isEmpty { root["experiments"] = .array(experiments.map(\.jsonValue)) }
        return .object(root)
    }
}

extension FeatureOverride {
    /// The JSON form of the fields that are set.
    public var jsonValue: JSONValue { .object(jsonObject) }

    var jsonObject: JSONObject {
        var object = JSONObject()
        if let strategy { object["strategy"] = .string(strategy.rawValue) }
        if let style { object["style"] = .string(style.rawValue) }
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

extension CopySet {
    /// `{screen: {field: text}}` in declared order.
    public var jsonValue: JSONValue {
        var object = JSONObject()
        for screen in CopyScreen.allCases {
            var fields = JSONObject()
            for field in screen.fields {
                if let text = self[screen, field] { fields[field.rawValue] = .string(text) }
            }
            if !fields.isEmpty { object[screen.rawValue] = .object(fields) }
        }
        return .object(object)
    }
}

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
        object["when"] = .object(whenObject)
        object["set"] = set.jsonValue
        return .object(object)
    }
}

extension Experiment {
    /// `{key, feature, seed?, coverage, variants}`.
    public var jsonValue: JSONValue {
        var object = JSONObject()
        object["key"] = .string(key)
        object["feature"] = .string(feature.rawValue)
        if let seed { object["seed"] = .string(seed) }
        object["coverage"] = .number(coverage)
        object["variants"] = .array(
            variants.map { variant in
                var body = JSONObject()
                body["name"] = .string(variant.name)
                body["weight"] = .number(variant.weight)
                if !variant.set.isEmpty { body["set"] = variant.set.jsonValue }
                return .object(body)
            }
        )
        return .object(object)
    }
}
