extension SequentialTest {
    /// The direction a one-sided test looks for.
    package enum Side: Sendable, Hashable {
        /// The treatment's rate is lower than the control's (θ < 0).
        case lower
        /// The treatment's rate is higher than the control's (θ > 0).
        case higher
    }

    /// The always-valid one-sided p-value of H₀: θ on the other side of 0 (θ ≥ 0 for `.lower`, θ ≤ 0 for `.higher`),
    /// from the normal mixture of ``pValue(treatmentSuccesses:treatmentTrials:controlSuccesses:controlTrials:mixingVariance:)``
    /// restricted to the alternatives on `side` (a half-normal mixing distribution, docs/rollouts.md, "The guard"):
    ///
    ///     Λ_side = 2 Λ Φ(±θ̂ τ / √(V (V + τ²)))     (+ for higher, − for lower)      p = min(1, 1/Λ_side)
    ///
    /// Under θ = 0 it is a nonnegative martingale with mean 1, and under the rest of H₀ a supermartingale, so by
    /// Ville's inequality the chance that p ever falls below α is at most α. Nil when either arm has no trials or the
    /// mixing variance is not a positive finite number.
    package static func oneSidedPValue(
        treatmentSuccesses: Int, treatmentTrials: Int, controlSuccesses: Int, controlTrials: Int,
        mixingVariance tau2: Double, side: Side
    ) -> Double? {
        guard tau2 > 0, tau2.isFinite, treatmentTrials > 0, controlTrials > 0 else { return nil }
        let pt = Double(treatmentSuccesses) / Double(treatmentTrials)
        let pc = Double(controlSuccesses) / Double(controlTrials)
        let theta = pt - pc
        let v = pt * (1 - pt) / Double(treatmentTrials) + pc * (1 - pc) / Double(controlTrials)
        let signed = side == .lower ? -theta : theta
        guard v > 0 else { return signed > 0 ? 0 : 1 }
        let logLambda = 0.5 * SpecialFunctions.log(v / (v + tau2)) + theta * theta * tau2 / (2 * v * (v + tau2))
        let z = signed * tau2.squareRoot() / (v * (v + tau2)).squareRoot()
        let tail = SpecialFunctions.normalCDF(z)
        guard tail > 0 else { return 1 }
        return min(1, SpecialFunctions.exp(-(logLambda + SpecialFunctions.log(2 * tail))))
    }
}
