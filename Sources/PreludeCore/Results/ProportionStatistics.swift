/// Interval estimates, the two-proportion test and the sample-size formula behind experiment results.
///
/// Every formula is written out in docs/results.md and recomputed independently by scripts/stats-reference.py.
package enum ProportionStatistics {
    /// The Wilson score interval for `successes` out of `trials` at the two-sided critical value `z`
    /// (1.959964 for 95 %), or `nil` when there are no trials.
    ///
    /// centre = (p̂ + z²/2n) / (1 + z²/n), half-width = z/(1 + z²/n) · √(p̂(1−p̂)/n + z²/4n²).
    /// Chosen over the Wald interval p̂ ± z√(p̂(1−p̂)/n) because it keeps close to nominal coverage for small n and
    /// rates near 0 or 1, never leaves [0, 1], and never collapses to zero width at 0 % or 100 %
    /// (Brown, Cai & DasGupta 2001; Newcombe 1998).
    package static func wilsonInterval(successes: Int, trials: Int, z: Double) -> ConfidenceInterval? {
        precondition(successes >= 0 && successes <= trials, "successes must lie in 0...trials")
        guard trials > 0 else { return nil }
        let n = Double(trials)
        let p = Double(successes) / n
        let z2 = z * z
        let denominator = 1 + z2 / n
        let centre = (p + z2 / (2 * n)) / denominator
        let half = z / denominator * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
        // Exact bounds at the extremes: rounding must not push 0 % above 0 or 100 % below 1.
        let lower = successes == 0 ? 0 : max(0, centre - half)
        let upper = successes == trials ? 1 : min(1, centre + half)
        return ConfidenceInterval(lower: lower, upper: upper)
    }

    /// Newcombe's hybrid score interval (his method 10, 1998) for the difference p_t − p_c of two independent
    /// proportions, built from each arm's Wilson interval; `nil` when either arm has no trials.
    ///
    /// With δ = p_t − p_c and Wilson bounds (l_t, u_t), (l_c, u_c):
    /// lower = δ − √((p_t − l_t)² + (u_c − p_c)²), upper = δ + √((u_t − p_t)² + (p_c − l_c)²).
    package static func newcombeDifferenceInterval(
        treatmentSuccesses: Int, treatmentTrials: Int, controlSuccesses: Int, controlTrials: Int, z: Double
    ) -> ConfidenceInterval? {
        guard
            let t = wilsonInterval(successes: treatmentSuccesses, trials: treatmentTrials, z: z),
            let c = wilsonInterval(successes: controlSuccesses, trials: controlTrials, z: z)
        else { return nil }
        let pt = Double(treatmentSuccesses) / Double(treatmentTrials)
        let pc = Double(controlSuccesses) / Double(controlTrials)
        let delta = pt - pc
        let lowerSpread = ((pt - t.lower) * (pt - t.lower) + (c.upper - pc) * (c.upper - pc)).squareRoot()
        let upperSpread = ((t.upper - pt) * (t.upper - pt) + (pc - c.lower) * (pc - c.lower)).squareRoot()
        return ConfidenceInterval(lower: delta - lowerSpread, upper: delta + upperSpread)
    }

    /// The pooled two-proportion z-test of H₀: p_t = p_c; `nil` when either arm has no trials.
    ///
    /// p = (x_t + x_c)/(n_t + n_c), z = (p̂_t − p̂_c) / √(p(1−p)(1/n_t + 1/n_c)), two-sided p-value 2(1 − Φ(|z|)).
    /// When the pooled rate is 0 or 1 (both arms all-failure or all-success) the arms are identical and the
    /// statistic is 0/0: we report z = 0 and p = 1, the limit of no observed difference.
    /// It equals Pearson's chi-square test on the 2×2 table without continuity correction (z² = χ²).
    package static func twoProportionZTest(
        treatmentSuccesses: Int, treatmentTrials: Int, controlSuccesses: Int, controlTrials: Int
    ) -> (z: Double, pValue: Double)? {
        guard treatmentTrials > 0, controlTrials > 0 else { return nil }
        let nt = Double(treatmentTrials)
        let nc = Double(controlTrials)
        let pooled = Double(treatmentSuccesses + controlSuccesses) / (nt + nc)
        let variance = pooled * (1 - pooled) * (1 / nt + 1 / nc)
        guard variance > 0 else { return (0, 1) }
        let z = (Double(treatmentSuccesses) / nt - Double(controlSuccesses) / nc) / variance.squareRoot()
        return (z, SpecialFunctions.normalTwoSidedPValue(z))
    }

    /// Installs needed in each of two equal arms to detect an absolute change `minimumEffect` from `baseline`
    /// with a two-sided test at `alpha` and the given `power`; `nil` when the inputs are out of range or the sample is
    /// beyond 2⁵³ installs.
    ///
    /// n = ⌈(z_{1−α/2}·√(2p̄(1−p̄)) + z_{power}·√(p₁(1−p₁) + p₂(1−p₂)))² / δ²⌉ with p₁ = baseline,
    /// p₂ = p₁ + δ (or p₁ − δ when p₁ + δ > 1), p̄ = (p₁ + p₂)/2 — the pooled-variance-under-H₀ formula without
    /// continuity correction (Fleiss, Levin & Paik 2003, ch. 4), which matches the pooled z-test used for the verdict.
    package static func sampleSizePerArm(baseline: Double, minimumEffect: Double, alpha: Double, power: Double) -> Int?
    {
        guard baseline >= 0, baseline <= 1, minimumEffect > 0, minimumEffect < 1,
            alpha > 0, alpha < 1, power > 0, power < 1
        else { return nil }
        let p1 = baseline
        var p2 = baseline + minimumEffect
        if p2 > 1 { p2 = baseline - minimumEffect }
        guard p2 >= 0 else { return nil }
        let pBar = (p1 + p2) / 2
        let zAlpha = SpecialFunctions.normalQuantile(1 - alpha / 2)
        let zBeta = SpecialFunctions.normalQuantile(power)
        let root = zAlpha * (2 * pBar * (1 - pBar)).squareRoot() + zBeta * (p1 * (1 - p1) + p2 * (1 - p2)).squareRoot()
        let n = root * root / (minimumEffect * minimumEffect)
        // A sample no count can hold (a vanishing effect) is no plan at all; Int(_:) would trap on it.
        guard n.isFinite, n < 0x1p53 else { return nil }
        // Guard against a product like 1599.0000000000002 rounding a whole number up by one.
        return Int((n - 1e-9).rounded(.up))
    }
}
