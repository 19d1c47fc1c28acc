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
        if let minimumOS = app.minimumOS { appObject["minimumOS"] = .string(minimumOS.description) }
        root["app"] = .object(appObject)
        if !defaults.isEmpty { root["defaults"] = defaults.jsonValue }
        var featuresObject = JSONObject()
        for policy in orderedFeatures {
            var body = policy.settings.jsonObject
            if !policy.access.isDefault { body["access"] = policy.access.jsonValue }
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
