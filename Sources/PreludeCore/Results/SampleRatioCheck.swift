/// The sample-ratio-mismatch (SRM) check: do exposures split across variants as the configured weights say?
///
/// Pearson's chi-square goodness of fit of the observed exposures against N·wᵢ (weights normalized to sum to 1),
/// with k − 1 degrees of freedom over the variants with a positive weight. A mismatch is flagged when the p-value
/// is below ``threshold`` (0.001 by default, the value used across the industry — Kohavi et al., "Trustworthy
/// Online Controlled Experiments", ch. 21 — because the check runs on every look at every experiment and a false
/// alarm must be rare, while a real assignment bug on thousands of installs yields p-values far smaller).
/// An install exposed to a variant whose weight is 0 is a mismatch outright: such a variant should get nobody.
public struct SampleRatioCheck: Sendable, Hashable {
    /// Exposures per variant, in report order.
    public var observed: [Int]
    /// Expected exposures per variant, N·wᵢ.
    public var expected: [Double]
    /// The chi-square statistic, or `nil` when the test does not apply (fewer than two weighted variants, or no
    /// exposures).
    public var chiSquare: Double?
    /// Degrees of freedom: the number of variants with a positive weight, minus one.
    public var degreesOfFreedom: Int
    /// The p-value P(χ²_df ≥ statistic), or `nil` when the test does not apply.
    public var pValue: Double?
    /// The p-value below which a mismatch is flagged.
    public var threshold: Double
    /// Whether the exposures contradict the weights.
    public var isMismatch: Bool
    /// A loud, human sentence when ``isMismatch``; `nil` otherwise.
    public var message: String?

    /// Runs the check on exposures and non-negative weights (same order, same count; weights need not sum to 1).
    public init(observed: [Int], weights: [Double], names: [String], threshold: Double = 0.001) {
        precondition(observed.count == weights.count && names.count == weights.count, "one weight per variant")
        self.observed = observed
        self.threshold = threshold
        let total = observed.reduce(0, +)
        let weightSum = weights.reduce(0, +)
        precondition(weightSum > 0, "weights must have a positive sum")
        expected = weights.map { Double(total) * $0 / weightSum }
        let weighted = weights.indices.filter { weights[$0] > 0 }
        degreesOfFreedom = max(0, weighted.count - 1)
        let strays = weights.indices.filter { weights[$0] == 0 && observed[$0] > 0 }

        if !strays.isEmpty {
            chiSquare = .infinity
            pValue = 0
            isMismatch = true
        } else if total > 0, degreesOfFreedom > 0 {
            var statistic = 0.0
            for i in weighted {
                let difference = Double(observed[i]) - expected[i]
                statistic += difference * difference / expected[i]
            }
            let p = SpecialFunctions.chiSquareSurvival(statistic, degreesOfFreedom: degreesOfFreedom)
            chiSquare = statistic
            pValue = p
            isMismatch = p < threshold
        } else {
            chiSquare = nil
            pValue = nil
            isMismatch = false
        }

        guard isMismatch else {
            message = nil
            return
        }
        let split = names.indices.map { i in
            "\(names[i]) \(observed[i]) (expected \(DecimalFormat.fixed(expected[i], digits: 0)))"
        }.joined(separator: ", ")
        var text = "SAMPLE RATIO MISMATCH: exposures do not match the configured weights: \(split)"
        if strays.isEmpty, let chiSquare, let pValue {
            text +=
                "; chi-square \(DecimalFormat.fixed(chiSquare, digits: 2)) with \(degreesOfFreedom) df, "
                + "p = \(DecimalFormat.scientific(pValue)) < \(DecimalFormat.shortest(threshold))"
        } else {
            let strayNames = strays.map { names[$0] }.joined(separator: ", ")
            text += "; installs were exposed to variants weighted 0 (\(strayNames))"
        }
        text +=
            ". Assignment or event logging is broken: do not trust any other number of this experiment until "
            + "the cause is found."
        message = text
    }
}
