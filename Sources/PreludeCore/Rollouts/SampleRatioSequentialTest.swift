/// An always-valid test that exposures split as planned: a beta-binomial mixture likelihood ratio against the
/// planned share (the two-arm case of Lindon & Malek, "Anytime-valid inference for multinomial count data",
/// NeurIPS 2022, with a Dirichlet mixture), so the sample ratio may be checked at every ingested batch without
/// inflating false alarms. docs/rollouts.md, "The guard", writes it out:
///
///     a = c·p₀, b = c·(1 − p₀)
///     BF = B(a + x, b + n − x) / B(a, b) / (p₀ˣ (1 − p₀)ⁿ⁻ˣ)        p = min(1, 1/BF)
///
/// with x the exposures of the treatment arm, n the exposures of both and c the prior concentration. BF is a
/// nonnegative martingale with mean 1 while the split is p₀, so P(p ever < α) ≤ α.
package enum SampleRatioSequentialTest {
    /// The prior concentration c: 100, a prior standard deviation of about five points around p₀ at a 50/50 split,
    /// so broken assignments of a few points are caught within a few thousand installs and gross ones within
    /// hundreds.
    package static let concentration = 100.0

    /// The always-valid p-value that `treatment` of `total` exposures arise from a planned share `plannedShare` in
    /// (0, 1); 1 when there is nothing to test.
    package static func pValue(treatment x: Int, total n: Int, plannedShare p0: Double) -> Double {
        precondition(p0 > 0 && p0 < 1, "a planned share strictly between 0 and 1")
        guard n > 0, x >= 0, x <= n else { return 1 }
        let a = concentration * p0
        let b = concentration * (1 - p0)
        let xs = Double(x)
        let rest = Double(n - x)
        let logBF =
            logBeta(a + xs, b + rest) - logBeta(a, b) - xs * SpecialFunctions.log(p0)
            - rest * SpecialFunctions.log(1 - p0)
        return min(1, SpecialFunctions.exp(-logBF))
    }

    private static func logBeta(_ a: Double, _ b: Double) -> Double {
        SpecialFunctions.logGamma(a) + SpecialFunctions.logGamma(b) - SpecialFunctions.logGamma(a + b)
    }
}
