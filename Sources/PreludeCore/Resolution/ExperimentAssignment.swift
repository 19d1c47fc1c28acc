/// One experiment of the document and what it gave this client.
public struct ExperimentAssignment: Sendable, Hashable {
    /// The experiment's key.
    public var key: String
    /// The feature tested.
    public var feature: Feature
    /// The variant assigned, or nil when the install is outside coverage or sent no install id.
    public var variant: String?

    /// An assignment.
    public init(key: String, feature: Feature, variant: String?) {
        self.key = key
        self.feature = feature
        self.variant = variant
    }

    /// `{"key", "feature", "variant": name or null}`.
    public var jsonValue: JSONValue {
        ["key": .string(key), "feature": .string(feature.rawValue), "variant": variant.map(JSONValue.string) ?? .null]
    }
}
