/// One arm of an experiment.
public struct Variant: Sendable, Hashable {
    /// A name unique within the experiment ("control", "short-copy").
    public var name: String
    /// The share of enrolled installs, in percent; the weights of an experiment sum to 100.
    public var weight: Double
    /// What the variant changes (copy, style, strategy, cadence, ...); empty for a control arm.
    public var set: FeatureOverride

    /// A variant with the given parts.
    public init(name: String, weight: Double, set: FeatureOverride = FeatureOverride()) {
        self.name = name
        self.weight = weight
        self.set = set
    }
}
