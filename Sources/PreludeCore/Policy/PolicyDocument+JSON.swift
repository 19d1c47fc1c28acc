extension PolicyDocument {
    /// Reads a document from JSON, returning a best-effort document and every structural problem found.
    ///
    /// Use ``PolicyValidator/validate(_:)-(JSONValue)`` to also run the semantic checks; a document is usable
    /// only when that reports no problem.
    ///
    /// - Parameter unknownMembers: whether a member this build does not know is a problem everywhere (the default,
    ///   for what is published) or skipped inside experiments (what a client reads from a newer server).
    public static func decode(_ json: JSONValue, unknownMembers: UnknownMembers = .refused)
        -> (document: PolicyDocument, problems: [ValidationProblem])
    {
        var decoder = PolicyDocumentDecoder()
        decoder.unknownMembers = unknownMembers
        let document = decoder.decode(json)
        return (document, decoder.problems)
    }

    /// The canonical JSON form: members in the documented order, features in catalogue order, locales sorted,
    /// copy screens and fields in their declared order, unset optional members left out.
    ///
    /// What is stored, exported and shown by the admin API; clients fetch ``clientJSONValue``.
    public var jsonValue: JSONValue { jsonValue(experiment: \.jsonValue, purposeStrings: true) }

    /// The document clients fetch (`GET /v1/apps/{app}/policy/document`): the canonical form without the members
    /// only the server's analysis reads, the experiments' `alpha` and `minimumEffect` (docs/policy.md, "What
    /// clients receive"). A client release that predates a member it does not need never sees it, so it keeps
    /// accepting the document; when no experiment names such a member, the same bytes as ``jsonValue``.
    /// The features' intended `purposeStrings` (lint and preview only) are left out the same way.
    ///
    /// An experiment with an audience (`condition`) in a document without `segments` gains an empty top-level
    /// `segments`: clients before 0.3.0 skip unknown members of an experiment, so without it they would enrol
    /// installs outside the audience; with it they refuse the document and keep their last good copy, as for every
    /// other condition (docs/policy.md, "What clients receive").
    public var clientJSONValue: JSONValue { jsonValue(experiment: \.clientJSONValue, purposeStrings: false) }

    /// Whether ``clientJSONValue`` differs from ``jsonValue``: some experiment names an analysis setting, or has an
    /// audience in a document without segments, or some feature carries intended purpose strings.
    public var hasServerOnlyMembers: Bool {
        experiments.contains(where: \.hasAnalysisSettings) || needsSegmentsForOlderClients
            || features.values.contains { !$0.purposeStrings.isEmpty }
    }

    /// Whether the client form must carry an empty `segments` so that clients before 0.3.0 refuse it.
    private var needsSegmentsForOlderClients: Bool {
        segments.isEmpty && experiments.contains { $0.condition != nil }
    }

    private func jsonValue(experiment encode: (Experiment) -> JSONValue, purposeStrings: Bool) -> JSONValue {
        var root = JSONObject()
        root["schemaVersion"] = .integer(schemaVersion)
        var appObject = JSONObject()
        appObject["id"] = .string(app.id)
        appObject["name"] = .string(app.name)
        appObject["defaultLocale"] = .string(app.defaultLocale.description)
        if let minimumOS = app.minimumOS { appObject["minimumOS"] = .string(minimumOS.description) }
        root["app"] = .object(appObject)
        if !attributes.isEmpty {
            var declared = JSONObject()
            for name in attributes.keys.sorted() { declared[name] = .string(attributes[name]!.rawValue) }
            root["attributes"] = .object(declared)
        }
        if !segments.isEmpty {
            var named = JSONObject()
            for segment in segments { named[segment.name] = segment.condition.source }
            root["segments"] = .object(named)
        } else if !purposeStrings && needsSegmentsForOlderClients {  // the client form (see clientJSONValue)
            root["segments"] = .object(JSONObject())
        }
        if !defaults.isEmpty { root["defaults"] = defaults.jsonValue }
        var featuresObject = JSONObject()
        for policy in orderedFeatures {
            var body = policy.settings.jsonObject
            if !policy.access.isDefault { body["access"] = policy.access.jsonValue }
            if !policy.targeting.isEmpty {
                body["targeting"] = .array(policy.targeting.map(\.jsonValue))
            }
            if purposeStrings && !policy.purposeStrings.isEmpty {
                var byLocale = JSONObject()
                for locale in policy.purposeStrings.keys.sorted(by: { $0.description < $1.description }) {
                    var strings = JSONObject()
                    for (key, text) in (policy.purposeStrings[locale] ?? [:]).sorted(by: { $0.key < $1.key }) {
                        strings[key] = .string(text)
                    }
                    byLocale[locale.description] = .object(strings)
                }
                body["purposeStrings"] = .object(byLocale)
            }
            featuresObject[policy.feature.rawValue] = .object(body)
        }
        root["features"] = .object(featuresObject)
        if !experiments.isEmpty { root["experiments"] = .array(experiments.map(encode)) }
        return .object(root)
    }
}
