/// An app's policy for one client: targeting applied, variants assigned, copy localised.
public struct ResolvedPolicy: Sendable, Hashable {
    /// The app's id.
    public var appId: String
    /// The app's display name.
    public var appName: String
    /// The locale served (the best available match for the client; per-text fallbacks may use others).
    public var locale: LocaleTag
    /// The lowest OS a client of the app runs (``AppInfo/effectiveMinimumOS``).
    public var minimumOS: SemanticVersion
    /// The resolved features.
    public var features: [Feature: ResolvedFeature]
    /// Every experiment of the document and the variant this client got in it.
    public var experiments: [ExperimentAssignment]

    /// A resolved policy with the given parts.
    public init(
        appId: String, appName: String, locale: LocaleTag, features: [Feature: ResolvedFeature],
        experiments: [ExperimentAssignment], minimumOS: SemanticVersion = AppInfo.defaultMinimumOS
    ) {
        self.minimumOS = minimumOS
        self.appId = appId
        self.appName = appName
        self.locale = locale
        self.features = features
        self.experiments = experiments
    }

    /// The resolved feature, if the policy configures it.
    public subscript(feature: Feature) -> ResolvedFeature? { features[feature] }

    /// `{"schemaVersion", "app": {id, name, minimumOS}, "locale", "features": {...}, "experiments": [...]}`, features in
    /// catalogue order.
    public var jsonValue: JSONValue {
        var featuresObject = JSONObject()
        for feature in Feature.allCases {
            if let resolved = features[feature] { featuresObject[feature.rawValue] = resolved.jsonValue }
        }
        var root = JSONObject()
        root["schemaVersion"] = .integer(PolicySchema.currentVersion)
        root["app"] = [
            "id": .string(appId), "name": .string(appName), "minimumOS": .string(minimumOS.description),
        ]
        root["locale"] = .string(locale.description)
        root["features"] = .object(featuresObject)
        root["experiments"] = .array(experiments.map(\.jsonValue))
        return .object(root)
    }
}
