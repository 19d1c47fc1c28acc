/// An A/B test of one feature: variants with weights, the fraction of installs enrolled, and optionally the
/// audience (a condition) an install must match to be enrolled at all.
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
    /// The audience: only installs matching it are enrolled (others get the feature without any variant, as
    /// outside ``coverage``); nil enrols every install. The condition language of targeting rules, `$inSegment`
    /// included.
    public var condition: Condition?
    /// The significance level of the verdict, fixed before the data (docs/results.md, "Analysis settings fixed
    /// before the data"); `nil` in revisions written before the member existed, which analyse with ``defaultAlpha``.
    public var alpha: Double?
    /// The smallest absolute grant-rate change worth detecting, which sets the sequential test's mixing variance;
    /// `nil` in older revisions, which analyse with ``defaultMinimumEffect``.
    public var minimumEffect: Double?

    /// An experiment with the given parts.
    public init(
        key: String, feature: Feature, seed: String? = nil, coverage: Double = 1, variants: [Variant],
        alpha: Double? = nil, minimumEffect: Double? = nil, condition: Condition? = nil
    ) {
        self.key = key
        self.feature = feature
        self.seed = seed
        self.coverage = coverage
        self.variants = variants
        self.alpha = alpha
        self.minimumEffect = minimumEffect
        self.condition = condition
    }

    /// The alpha of an experiment that does not name one: 0.05.
    public static let defaultAlpha = 0.05
    /// The minimum effect of an experiment that does not name one: two points (``ExperimentAnalysis/defaultMinimumEffect``).
    public static let defaultMinimumEffect = ExperimentAnalysis.defaultMinimumEffect
    /// The smallest alpha a policy may fix: 0.0001.
    public static let smallestAlpha = 0.0001
    /// The largest alpha a policy may fix: 0.2 (a guard or verdict wrong one time in five is no guard).
    public static let largestAlpha = 0.2

    /// Whether `value` is an alpha a policy may fix: in [``smallestAlpha``, ``largestAlpha``].
    public static func isValidAlpha(_ value: Double) -> Bool {
        value.isFinite && value >= smallestAlpha && value <= largestAlpha
    }

    /// The alpha the verdict uses: ``alpha`` or ``defaultAlpha``.
    public var analysisAlpha: Double { alpha ?? Self.defaultAlpha }
    /// The minimum effect the verdict uses: ``minimumEffect`` or ``defaultMinimumEffect``.
    public var analysisMinimumEffect: Double { minimumEffect ?? Self.defaultMinimumEffect }

    /// The seed the bucketing hash uses: `seed`, or the key.
    public var hashSeed: String { seed ?? key }

    /// Whether `context` is in the experiment's audience (always, without a ``condition``).
    public func admits(_ context: ClientContext) -> Bool {
        condition?.matches(context) ?? true
    }
}
