/// Turns per-variant funnel counts into an ``ExperimentReport``: a pure function, no I/O.
///
/// The formulas and thresholds are described in docs/results.md.
public enum ExperimentAnalysis {
    /// The thresholds of an analysis, with the conventional defaults.
    public struct Settings: Sendable, Hashable {
        /// Two-sided significance level of the test and 1 − confidence level of every interval (0.05).
        public var alpha: Double
        /// Power used for the sample still needed (0.8).
        public var power: Double
        /// Below this many exposed installs in a variant or in the control the verdict is `insufficientData` (100):
        /// the normal approximations behind the z-test are poor on tiny samples, and early results swing wildly.
        public var minimumExposures: Int
        /// Sample-ratio-mismatch p-value threshold (0.001).
        public var sampleRatioThreshold: Double

        /// Creates settings; every argument defaults to the conventional value.
        public init(
            alpha: Double = 0.05, power: Double = 0.8, minimumExposures: Int = 100,
            sampleRatioThreshold: Double = 0.001
        ) {
            self.alpha = alpha
            self.power = power
            self.minimumExposures = minimumExposures
            self.sampleRatioThreshold = sampleRatioThreshold
        }

        /// alpha 0.05, power 0.8, 100 installs minimum, SRM at p < 0.001.
        public static let standard = Settings()
    }

    /// The default minimum effect: two percentage points of grant rate.
    public static let defaultMinimumEffect = 0.02

    /// The smallest minimum effect accepted: 0.0001 (a hundredth of a point). Below it the planned sample no longer
    /// fits a count and the sequential test's mixing variance (δ²) underflows towards zero.
    public static let smallestMinimumEffect = 0.0001

    /// Whether `value` is a usable minimum effect: finite, at least ``smallestMinimumEffect`` and below 1.
    public static func isValidMinimumEffect(_ value: Double) -> Bool {
        value.isFinite && value >= smallestMinimumEffect && value < 1
    }

    /// What a usable minimum effect is, for error messages.
    public static let minimumEffectRule =
        "must be an absolute grant-rate change from 0.0001 (a hundredth of a point) up to, not including, 1 (0.02 = 2 points)"

    /// Analyses one experiment.
    ///
    /// - Parameters:
    ///   - variants: name, configured weight (any non-negative scale; normalized here) and funnel of each variant,
    ///     in display order. A single variant is allowed: it gets its rate and interval, nothing to compare.
    ///   - controlName: the variant every other one is compared with.
    ///   - minimumEffect: the smallest absolute grant-rate change worth detecting, in [0.0001, 1).
    /// - Throws: ``ExperimentAnalysisError`` for unusable input (unknown control, bad weights, impossible counts...).
    public static func analyze(
        experimentKey: String, feature: String, variants: [(name: String, weight: Double, counts: FunnelCounts)],
        controlName: String, minimumEffect: Double = defaultMinimumEffect, settings: Settings = .standard
    ) throws(ExperimentAnalysisError) -> ExperimentReport {
        try validate(variants: variants, controlName: controlName, minimumEffect: minimumEffect, settings: settings)
        let weightSum = variants.reduce(0) { $0 + $1.weight }
        let z = SpecialFunctions.normalQuantile(1 - settings.alpha / 2)
        let control = variants.first { $0.name == controlName }!.counts
        let controlRate = control.exposed > 0 ? Double(control.granted) / Double(control.exposed) : nil
        let required = controlRate.flatMap {
            ProportionStatistics.sampleSizePerArm(
                baseline: $0, minimumEffect: minimumEffect, alpha: settings.alpha, power: settings.power)
        }

        let mixingVariance = SequentialTest.mixingVariance(minimumEffect: minimumEffect)
        let taskControl = (control.taskCompleted, control.taskStarted)
        var results = variants.map { variant in
            let counts = variant.counts
            let isControl = variant.name == controlName
            let rate = counts.exposed > 0 ? Double(counts.granted) / Double(counts.exposed) : nil
            let interval = ProportionStatistics.wilsonInterval(successes: counts.granted, trials: counts.exposed, z: z)
            let taskRate = counts.taskStarted > 0 ? Double(counts.taskCompleted) / Double(counts.taskStarted) : nil
            let taskInterval = ProportionStatistics.wilsonInterval(
                successes: counts.taskCompleted, trials: counts.taskStarted, z: z)
            var comparison: VariantComparison?
            var taskComparison: VariantComparison?
            var additional: Int?
            if !isControl {
                comparison = compare(
                    (counts.granted, counts.exposed), with: (control.granted, control.exposed), z: z,
                    alpha: settings.alpha, mixingVariance: mixingVariance)
                taskComparison = compare(
                    (counts.taskCompleted, counts.taskStarted), with: taskControl, z: z, alpha: settings.alpha,
                    mixingVariance: mixingVariance)
                additional = required.map { max(0, $0 - min(counts.exposed, control.exposed)) }
            }
            return VariantResult(
                name: variant.name, isControl: isControl, weight: variant.weight / weightSum, funnel: counts,
                grantRate: rate, grantRateInterval: interval, comparison: comparison, verdict: nil,
                additionalInstallsPerArm: additional, taskCompletionRate: taskRate,
                taskCompletionRateInterval: taskInterval, taskComparison: taskComparison, taskVerdict: nil)
        }
        // Holm over the comparisons of each metric (docs/results.md, "More than two arms"), then the verdicts.
        adjust(&results, \.comparison)
        adjust(&results, \.taskComparison)
        for index in results.indices where !results[index].isControl {
            let counts = results[index].funnel
            results[index].verdict = decide(
                trials: counts.exposed, controlTrials: control.exposed, comparison: results[index].comparison,
                settings: settings)
            results[index].taskVerdict = decide(
                trials: counts.taskStarted, controlTrials: control.taskStarted,
                comparison: results[index].taskComparison, settings: settings)
        }

        let sampleRatio = SampleRatioCheck(
            observed: variants.map(\.counts.exposed), weights: variants.map(\.weight), names: variants.map(\.name),
            threshold: settings.sampleRatioThreshold)
        return ExperimentReport(
            experimentKey: experimentKey, feature: feature, controlName: controlName, settings: settings,
            minimumEffect: minimumEffect, variants: results, sampleRatio: sampleRatio, requiredInstallsPerArm: required)
    }

    /// Replaces every comparison's adjusted sequential p-value by Holm's over the comparisons present.
    private static func adjust(
        _ results: inout [VariantResult], _ path: WritableKeyPath<VariantResult, VariantComparison?>
    ) {
        let indices = results.indices.filter { results[$0][keyPath: path] != nil }
        let adjusted = MultipleComparisons.holm(indices.map { results[$0][keyPath: path]!.sequentialPValue })
        for (index, value) in zip(indices, adjusted) { results[index][keyPath: path]!.adjustedSequentialPValue = value }
    }

    /// One rate against the control's: `counts` and `control` are (successes, trials).
    private static func compare(
        _ arm: (successes: Int, trials: Int), with reference: (successes: Int, trials: Int), z: Double, alpha: Double,
        mixingVariance: Double
    ) -> VariantComparison? {
        let counts = (granted: arm.successes, exposed: arm.trials)
        let control = (granted: reference.successes, exposed: reference.trials)
        guard
            let interval = ProportionStatistics.newcombeDifferenceInterval(
                treatmentSuccesses: counts.granted, treatmentTrials: counts.exposed,
                controlSuccesses: control.granted, controlTrials: control.exposed, z: z),
            let test = ProportionStatistics.twoProportionZTest(
                treatmentSuccesses: counts.granted, treatmentTrials: counts.exposed,
                controlSuccesses: control.granted, controlTrials: control.exposed),
            let sequentialP = SequentialTest.pValue(
                treatmentSuccesses: counts.granted, treatmentTrials: counts.exposed,
                controlSuccesses: control.granted, controlTrials: control.exposed, mixingVariance: mixingVariance),
            let sequence = SequentialTest.interval(
                treatmentSuccesses: counts.granted, treatmentTrials: counts.exposed,
                controlSuccesses: control.granted, controlTrials: control.exposed, mixingVariance: mixingVariance,
                alpha: alpha)
        else { return nil }
        let rate = Double(counts.granted) / Double(counts.exposed)
        let controlRate = Double(control.granted) / Double(control.exposed)
        return VariantComparison(
            difference: rate - controlRate, differenceInterval: interval,
            relativeDifference: controlRate > 0 ? (rate - controlRate) / controlRate : nil,
            zStatistic: test.z, pValue: test.pValue, sequentialPValue: sequentialP, sequentialInterval: sequence)
    }

    // The verdict follows the always-valid p-value of the mixture SPRT alone (docs/results.md, "Looking every day"),
    // the direction from the observed difference: it may be read at every look without inflating false positives,
    // which the fixed-horizon z-test cannot (peeking at it daily makes a false "better" several times as likely).
    // With more than one comparison the always-valid p-value is first adjusted by Holm's step-down procedure.
    private static func decide(
        trials: Int, controlTrials: Int, comparison: VariantComparison?, settings: Settings
    ) -> ExperimentVerdict {
        guard trials >= settings.minimumExposures, controlTrials >= settings.minimumExposures, let comparison
        else { return .insufficientData }
        guard comparison.adjustedSequentialPValue < settings.alpha else { return .notSignificant }
        return comparison.difference > 0 ? .better : .worse
    }

    private static func validate(
        variants: [(name: String, weight: Double, counts: FunnelCounts)], controlName: String, minimumEffect: Double,
        settings: Settings
    ) throws(ExperimentAnalysisError) {
        guard settings.alpha > 0, settings.alpha < 1 else {
            throw .invalidSetting(name: "alpha", value: settings.alpha)
        }
        guard settings.power > 0, settings.power < 1 else {
            throw .invalidSetting(name: "power", value: settings.power)
        }
        guard settings.minimumExposures >= 1 else {
            throw .invalidSetting(name: "minimumExposures", value: Double(settings.minimumExposures))
        }
        guard settings.sampleRatioThreshold > 0, settings.sampleRatioThreshold < 1 else {
            throw .invalidSetting(name: "sampleRatioThreshold", value: settings.sampleRatioThreshold)
        }
        guard isValidMinimumEffect(minimumEffect) else { throw .invalidMinimumEffect(minimumEffect) }
        guard !variants.isEmpty else { throw .noVariants }
        var seen: Set<String> = []
        for variant in variants {
            guard seen.insert(variant.name).inserted else { throw .duplicateVariant(variant.name) }
            guard variant.weight.isFinite, variant.weight >= 0 else {
                throw .invalidWeight(variant: variant.name, weight: variant.weight)
            }
            let problems = variant.counts.validationProblems()
            guard problems.isEmpty else { throw .inconsistentCounts(variant: variant.name, problems: problems) }
        }
        guard seen.contains(controlName) else { throw .unknownControl(controlName) }
        guard variants.contains(where: { $0.weight > 0 }) else { throw .zeroTotalWeight }
    }
}
