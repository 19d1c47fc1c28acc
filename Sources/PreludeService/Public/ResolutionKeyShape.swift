import PreludeCore

/// Which client inputs can change the resolved policy of one document, and the experiments' bucketing inputs.
///
/// Computed once per revision. A ``ResolutionKey`` keeps only the inputs that matter, so clients that differ
/// only in, say, app version share one prepared response when no rule targets app versions.
package struct ResolutionKeyShape: Sendable {
    /// One experiment's bucketing inputs, in document order.
    package struct ExperimentInputs: Sendable {
        /// The hash seed.
        package let seed: String
        /// The variants' weights, in bucket order.
        package let weights: [Double]
        /// The enrolled fraction.
        package let coverage: Double
        /// The variants' bucket ranges, computed once as `Bucketing.assign` computes them per call; nil when the
        /// weights cannot be normalised (then nobody is enrolled).
        package let ranges: [Bucketing.BucketRange]?

        /// The inputs of one experiment.
        package init(seed: String, weights: [Double], coverage: Double) {
            self.seed = seed
            self.weights = weights
            self.coverage = coverage
            ranges = Bucketing.normalizedWeights(weights).map {
                Bucketing.bucketRanges(count: $0.count, coverage: coverage, weights: $0)
            }
        }

        /// The variant index `installId` draws, or nil when not enrolled; equal to `Bucketing.assign`.
        package func variant(for installId: String) -> Int? {
            guard let ranges, let n = Bucketing.hash(seed: seed, value: installId, version: 2) else { return nil }
            return Bucketing.chooseVariation(n, ranges: ranges)
        }
    }

    /// True when a rule matches on locales (then the client's *preferred* locale, not only the served one,
    /// changes the result).
    package let usesPreferredLocale: Bool
    /// True when a rule matches on the OS version or a strategy may be `button` (which needs the OS version).
    package let usesOSVersion: Bool
    /// True when a rule matches on the app version.
    package let usesAppVersion: Bool
    /// The experiments, in document order.
    package let experiments: [ExperimentInputs]

    /// The shape of `document`.
    package init(_ document: PolicyDocument) {
        var locales = false
        var os = false
        var app = false
        for policy in document.features.values {
            if policy.settings.strategy == .button { os = true }
            for rule in policy.targeting {
                if !rule.when.locales.isEmpty { locales = true }
                if rule.when.os != nil { os = true }
                if rule.when.appVersion != nil { app = true }
                if rule.set.strategy == .button { os = true }
            }
        }
        for experiment in document.experiments where experiment.variants.contains(where: { $0.set.strategy == .button })
        {
            os = true
        }
        usesPreferredLocale = locales
        usesOSVersion = os
        usesAppVersion = app
        experiments = document.experiments.map {
            ExperimentInputs(seed: $0.hashSeed, weights: $0.variants.map(\.weight), coverage: $0.coverage)
        }
    }
}
