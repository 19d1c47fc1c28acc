extension Experiment {
    /// `{key, feature, seed?, coverage, variants, alpha?, minimumEffect?}` (the two analysis settings only when the
    /// document names them, so an older revision encodes to the same bytes).
    public var jsonValue: JSONValue {
        var object = JSONObject()
        object["key"] = .string(key)
        object["feature"] = .string(feature.rawValue)
        if let seed { object["seed"] = .string(seed) }
        object["coverage"] = .number(coverage)
        if let alpha { object["alpha"] = .number(alpha) }
        if let minimumEffect { object["minimumEffect"] = .number(minimumEffect) }
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
