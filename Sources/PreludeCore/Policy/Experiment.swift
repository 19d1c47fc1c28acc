/// An A/B test of one feature: variants with weights, and the fraction of installs enrolled.
public struct Experiment: Sendable, Hashable {
    /// A key unique in the document; also the hash seed unless `seed` is given.
    public var key: String
    /// The feature whose settings the variants override.
    public var feature: Feature
    /// The hash seed; set it to keep assignments when renaming the key, or change it to reshuffle.
    public var seed: String?
    /// The fraction (0...1) of installs enrolled; the others get the feature without any variant.
    public var coverage: Double
    /// The arms, in bucket order.
    public var variants: [Variant]

    /// An experiment with the given parts.
    public init(key: String, feature: Feature, seed: String? = nil, coverage: Double = 1, variants: [Variant]) {
        self.key = key
        self.feature = feature
        self.seed = seed
        self.coverage = coverage
        self.variants = variants
    }

    /// The seed the bucketing hash uses: `seed`, or the key.
    public var hashSeed: String { seed ?? key }
}
