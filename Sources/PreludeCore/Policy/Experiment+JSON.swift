extension Experiment {
    /// `{key, feature, seed?, coverage, condition?, alpha?, minimumEffect?, variants}` (the audience and the two
    /// analysis settings only when the document names them, so an older revision encodes to the same bytes).
    public var jsonValue: JSONValue { jsonValue(includingAnalysisSettings: true) }

    /// The experiment as clients read it: ``jsonValue`` without `alpha` and `minimumEffect`, which only the
    /// server's analysis reads (docs/policy.md, "What clients receive").
    public var clientJSONValue: JSONValue { jsonValue(includingAnalysisSettings: false) }

    /// Whether the experiment names an analysis setting (``alpha`` or ``minimumEffect``), which
    /// ``clientJSONValue`` leaves out.
    public var hasAnalysisSettings: Bool { alpha != nil || minimumEffect != nil }

    private func jsonValue(includingAnalysisSettings: Bool) -> JSONValue {
        var object = JSONObject()
        object["key"] = .string(key)
        object["feature"] = .string(feature.rawValue)
        if let seed { object["seed"] = .string(seed) }
        object["coverage"] = .number(coverage)
        if let condition { object["condition"] = condition.source }
        if includingAnalysisSettings {
            if let alpha { object["alpha"] = .number(alpha) }
            if let minimumEffect { object["minimumEffect"] = .number(minimumEffect) }
        }
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
