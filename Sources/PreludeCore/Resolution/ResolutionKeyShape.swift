/// Which client inputs can change what ``PolicyResolver`` resolves for one document, with what the key needs to
/// serve and bucket: the document's locales and the experiments' precomputed bucket ranges.
///
/// Computed once per document (a server keeps it with the live revision). A ``ResolutionKey`` keeps only the
/// inputs that matter, so clients that differ only in, say, app version share one resolution when no rule
/// targets app versions. It lives next to the resolver because it must name every input the resolver reads:
/// `ResolutionKeyPropertyTests` checks over generated documents that equal keys give identical resolved policies.
public struct ResolutionKeyShape: Sendable {
    /// One experiment's bucketing inputs, in document order.
    public struct ExperimentInputs: Sendable {
        /// The hash seed.
        public let seed: String
        /// The variants' weights, in bucket order.
        public let weights: [Double]
        /// The enrolled fraction.
        public let coverage: Double
        /// The audience an install must match to be enrolled; nil for every install.
        public let condition: Condition?
        /// The variants' bucket ranges, computed once as `Bucketing.assign` computes them per call; nil when the
        /// weights cannot be normalised (then nobody is enrolled).
        public let ranges: [Bucketing.BucketRange]?
        /// `Bucketing.fnv1a32(seed)`, where every version-2 hash of an install id starts.
        private let seedHash: UInt32

        /// The inputs of one experiment.
        public init(seed: String, weights: [Double], coverage: Double, condition: Condition? = nil) {
            self.seed = seed
            self.condition = condition
            seedHash = Bucketing.fnv1a32(seed)
            self.weights = weights
            self.coverage = coverage
            ranges = Bucketing.normalizedWeights(weights).map {
                Bucketing.bucketRanges(count: $0.count, coverage: coverage, weights: $0)
            }
        }

        /// Whether `context` is in the audience (``Experiment/admits(_:)``).
        public func admits(_ context: borrowing ClientContext) -> Bool {
            guard let condition else { return true }
            return condition.matches(context)
        }

        /// The variant index `installId` draws, or nil when not enrolled; equal to `Bucketing.assign` (the audience
        /// is the caller's: ``admits(_:)``).
        public func variant(for installId: String) -> Int? {
            guard let ranges, let n = Bucketing.hash(seed: seed, value: installId, version: 2) else { return nil }
            return Bucketing.chooseVariation(n, ranges: ranges)
        }

        /// ``variant(for:)`` of an ASCII install id given as its bytes.
        package func variant(forASCII installId: UnsafeBufferPointer<UInt8>) -> Int? {
            guard let ranges else { return nil }
            return Bucketing.chooseVariation(
                Bucketing.hashVersion2(seedHash: seedHash, asciiValue: installId), ranges: ranges)
        }
    }

    /// True when a rule matches on locales (then the client's *preferred* locale, not only the served one,
    /// changes the result).
    public let usesPreferredLocale: Bool
    /// True when a rule matches on the OS version or a strategy may be `button` (which needs the OS version).
    public let usesOSVersion: Bool
    /// True when a rule matches on the app version.
    public let usesAppVersion: Bool
    /// True when a rule matches on the storefront region.
    public let usesRegion: Bool
    /// True when a rule matches on the declared age band.
    public let usesAgeRange: Bool
    /// The attributes some rule's or experiment audience's condition reads (segments included), sorted: only their values enter the key, so
    /// clients that differ in attributes no rule reads share one resolution.
    public let attributesRead: [String]
    /// ``attributesRead`` split once.
    let readPaths: [AttributePath]
    /// The experiments, in document order.
    public let experiments: [ExperimentInputs]
    /// Every locale with copy in the document, plus its default locale (what the served locale is chosen from).
    public let availableLocales: Set<LocaleTag>
    /// The document's default locale.
    public let defaultLocale: LocaleTag

    /// The shape of `document`: walks every override and rule the resolver may apply.
    public init(_ document: PolicyDocument) {
        var locales = false
        var os = document.defaults.strategy == .button
        var app = false
        var region = false
        var age = false
        for policy in document.features.values {
            if policy.settings.strategy == .button { os = true }
            for rule in policy.targeting {
                if !rule.when.locales.isEmpty { locales = true }
                if rule.when.os != nil { os = true }
                if rule.when.appVersion != nil { app = true }
                if !rule.when.regions.isEmpty { region = true }
                if rule.when.ageRange != nil { age = true }
                if rule.set.strategy == .button { os = true }
            }
        }
        for experiment in document.experiments where experiment.variants.contains(where: { $0.set.strategy == .button })
        {
            os = true
        }
        attributesRead = document.attributesRead.sorted()
        readPaths = attributesRead.map(AttributePath.init)
        usesPreferredLocale = locales
        usesOSVersion = os
        usesAppVersion = app
        usesRegion = region
        usesAgeRange = age
        experiments = document.experiments.map {
            ExperimentInputs(
                seed: $0.hashSeed, weights: $0.variants.map(\.weight), coverage: $0.coverage, condition: $0.condition)
        }
        availableLocales = document.availableLocales
        defaultLocale = document.app.defaultLocale
    }
}

extension ResolutionKeyShape {
    /// What the explicit locale `value` means for this document, or nil when there is none or it does not parse
    /// (then it is ignored, as ``LocaleResolver/resolve(explicit:acceptLanguage:available:defaultLocale:)`` does).
    public func explicitLocale(_ value: String?) -> ResolutionKey.ExplicitLocale? {
        guard let value, let tag = LocaleTag(parsingPrefixOf: value) else { return nil }
        return ResolutionKey.ExplicitLocale(tag: tag, match: LocaleResolver.firstAvailable(tag, availableLocales))
    }
}
