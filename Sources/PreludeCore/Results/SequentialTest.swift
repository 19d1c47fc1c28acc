/// An always-valid test of the difference of two proportions: the mixture sequential probability ratio test
/// (mSPRT) with a normal mixing distribution, as in Johari, Koomen, Pekelis & Walsh, "Peeking at A/B Tests"
/// (KDD 2017, §4, normal approximation for two binomial streams), and its dual confidence sequence (Howard, Ramdas,
/// McAuliffe & Sekhon, "Time-uniform, nonparametric, nonasymptotic confidence sequences", Ann. Statist. 2021,
/// normal mixture boundary). docs/results.md, "Looking every day", writes the formulas out.
///
/// With θ̂ = p̂_t − p̂_c, V = p̂_t(1 − p̂_t)/n_t + p̂_c(1 − p̂_c)/n_c and the mixing variance τ²:
///
///     Λ = √(V / (V + τ²)) · exp(θ̂² τ² / (2 V (V + τ²)))        always-valid p = min(1, 1/Λ)
///     θ̂ ± √(2 V (V + τ²) / τ² · (ln(1/α) + ½ ln((V + τ²)/V)))  the 1 − α confidence sequence
///
/// Λ is a nonnegative martingale under H₀ (θ = 0) with mean 1, so by Ville's inequality the chance that it ever
/// reaches 1/α — at any of arbitrarily many looks — is at most α: a verdict read from this p-value stays valid
/// however often results are looked at. The price is width: at the planned sample the sequence is about 1.5 times
/// as wide as the fixed-horizon interval.
package enum SequentialTest {
    /// The always-valid p-value of H₀: p_t = p_c at this look; nil when either arm has no trials or the mixing
    /// variance is not a positive finite number.
    ///
    /// When both arms are all-success or all-failure (V = 0) there is no evidence of a difference unless the rates
    /// differ, which with V = 0 means one arm all-success and the other all-failure: p = 0 then, 1 otherwise.
    package static func pValue(
        treatmentSuccesses: Int, treatmentTrials: Int, controlSuccesses: Int, controlTrials: Int,
        mixingVariance tau2: Double
    ) -> Double? {
        guard tau2 > 0, tau2.isFinite,
            let (theta, v) = estimate(treatmentSuccesses, treatmentTrials, controlSuccesses, controlTrials)
        else {
            return nil
        }
        guard v > 0 else { return theta == 0 ? 1 : 0 }
        // ln Λ, so that a large statistic does not overflow exp.
        let logLambda = 0.5 * SpecialFunctions.log(v / (v + tau2)) + theta * theta * tau2 / (2 * v * (v + tau2))
        return min(1, SpecialFunctions.exp(-logLambda))
    }

    /// The 1 − `alpha` confidence sequence for p_t − p_c at this look; nil when either arm has no trials, the mixing
    /// variance is not a positive finite number or `alpha` is outside (0, 1).
    package static func interval(
        treatmentSuccesses: Int, treatmentTrials: Int, controlSuccesses: Int, controlTrials: Int,
        mixingVariance tau2: Double, alpha: Double
    ) -> ConfidenceInterval? {
        guard tau2 > 0, tau2.isFinite, alpha > 0, alpha < 1,
            let (theta, v) = estimate(treatmentSuccesses, treatmentTrials, controlSuccesses, controlTrials)
        else {
            return nil
        }
        guard v > 0 else { return ConfidenceInterval(lower: theta, upper: theta) }
        let radius =
            (2 * v * (v + tau2) / tau2 * (SpecialFunctions.log(1 / alpha) + 0.5 * SpecialFunctions.log((v + tau2) / v)))
            .squareRoot()
        return ConfidenceInterval(lower: theta - radius, upper: theta + radius)
    }

    /// The mixing variance for a planned minimum effect δ: τ² = δ².
    ///
    /// The sample size is planned so that the standard error at the planned sample is V* ≈ δ²/(z_{1−α/2} + z_power)²
    /// (≈ δ²/7.85 at α = 0.05, power 0.8); τ² = δ² thus puts τ²/V* near 7.85, where the sequence's width at the
    /// planned sample is close to its minimum (it is least at τ²/V* ≈ 8 for α = 0.05). It must not depend on the
    /// data, or the guarantee is lost: fix the minimum effect before the experiment starts.
    package static func mixingVariance(minimumEffect: Double) -> Double { minimumEffect * minimumEffect }

    private static func estimate(_ xt: Int, _ nt: Int, _ xc: Int, _ nc: Int) -> (theta: Double, variance: Double)? {
        guard nt > 0, nc > 0 else { return nil }
        let pt = Double(xt) / Double(nt)
        let pc = Double(xc) / Double(nc)
        return (pt - pc, pt * (1 - pt) / Double(nt) + pc * (1 - pc) / Double(nc))
    }
}
