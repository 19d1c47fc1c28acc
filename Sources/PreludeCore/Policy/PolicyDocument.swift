/// One app's policy: what each feature shows, in which words, how often, for whom, and which variants run.
///
/// Read it with ``PolicyDocument/decode(_:)`` (or ``PolicyValidator``), write it with ``jsonValue``.
/// The format is documented in docs/policy.md.
public struct PolicyDocument: Sendable, Hashable {
    /// The format version (``PolicySchema/currentVersion``).
    public var schemaVersion: Int
    /// The app.
    public var app: AppInfo
    /// Settings every feature inherits.
    public var defaults: FeatureOverride
    /// The features served, by feature.
    public var features: [Feature: FeaturePolicy]
    /// Experiments, in document order; at most one per feature.
    public var experiments: [Experiment]
    /// Named conditions that rules reuse through `$inSegment`, in document order.
    public var segments: [Segment]
    /// The attributes the app's clients declare they send, by name (the linter warns about a condition on any
    /// other attribute; `prelude.*` facts need no declaration).
    public var attributes: [String: AttributeKind]

    /// A document with the given parts.
    public init(
        schemaVersion: Int = PolicySchema.currentVersion,
        app: AppInfo,
        defaults: FeatureOverride = FeatureOverride(),
        features: [Feature: FeaturePolicy] = [:],
        experiments: [Experiment] = [],
        segments: [Segment] = [],
        attributes: [String: AttributeKind] = [:]
    ) {
        self.schemaVersion = schemaVersion
        self.app = app
        self.defaults = defaults
        self.features = features
        self.experiments = experiments
        self.segments = segments
        self.attributes = attributes
    }

    /// The segments by name.
    public var segmentsByName: [String: Condition] {
        Dictionary(segments.map { ($0.name, $0.condition) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every condition a targeting rule or an experiment's audience evaluates (segments are inlined in them).
    public var conditions: [Condition] {
        features.values.flatMap { $0.targeting.compactMap(\.when.condition) } + experiments.compactMap(\.condition)
    }

    /// Every `ask` rule of the document: defaults, features, targeting rules and experiment variants.
    public var askRules: [AskRule] {
        var rules = [defaults.ask]
        for policy in features.values {
            rules.append(policy.settings.ask)
            rules += policy.targeting.map(\.set.ask)
        }
        for experiment in experiments { rules += experiment.variants.map(\.set.ask) }
        return rules.compactMap { $0 }
    }

    /// Every attribute path a condition or `ask` rule of the document reads, segments included.
    public var attributesRead: Set<String> {
        Set(conditions.flatMap(\.attributesRead) + askRules.flatMap(\.attributesRead))
    }

    /// The configured features in catalogue order.
    public var orderedFeatures: [FeaturePolicy] {
        Feature.allCases.compactMap { features[$0] }
    }

    /// Every locale that has copy anywhere in the document, plus the default locale.
    public var availableLocales: Set<LocaleTag> {
        var locales: Set<LocaleTag> = [app.defaultLocale]
        locales.formUnion(defaults.copy.keys)
        for policy in features.values {
            locales.formUnion(policy.settings.copy.keys)
            for rule in policy.targeting { locales.formUnion(rule.set.copy.keys) }
        }
        for experiment in experiments {
            for variant in experiment.variants { locales.formUnion(variant.set.copy.keys) }
        }
        return locales
    }

    /// The experiment running on `feature`, if any.
    public func experiment(for feature: Feature) -> Experiment? {
        experiments.first { $0.feature == feature }
    }
}
