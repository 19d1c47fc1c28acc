/// The harm bound in installs (docs/rollouts.md, "The harm bound in installs"): an upper bound, valid at every
/// evaluation at once, on the extra denied installs the new arm has caused so far,
///
///     H_t = n_r,t · θ        θ = p_r − p_c, the denial rates (systemDenied / exposed) of the new arm and the control
///
/// — the installs of the new arm that denied the system alert and would not have in the control, in expectation.
/// With U_t the upper end of the 1 − α_H normal-mixture confidence sequence of θ (the one of docs/results.md,
/// "Looking every day", τ² = minimumEffect²), P(θ ≤ U_t at every t) ≥ 1 − α_H, so
///
///     B_t = min(n_r,t, n_r,t · max(0, U_t))
///
/// bounds H_t at every evaluation simultaneously with probability at least 1 − α_H. Below
/// ``RolloutPlan/minimumExposedPerArm`` installs per arm it is the trivial bound n_r (each exposed install may have
/// been harmed). The variance uses (x + 1)/(n + 2) for each rate, so that arms with no denial at all do not claim
/// a zero-width interval.
public enum RolloutHarmBound {
    /// α_H: the bound is a 95 % confidence sequence, whatever the rollout's α (the budget is a cap on harm, not a
    /// test, and spends none of α).
    public static let alpha = 0.05

    /// B_t for the arms' cumulative funnels, with τ² from `minimumEffect`.
    public static func extraDenied(control: FunnelCounts, rollout: FunnelCounts, minimumEffect: Double) -> Double {
        let nr = rollout.exposed
        guard nr > 0 else { return 0 }
        let trivial = Double(nr)
        let nc = control.exposed
        guard nc >= RolloutPlan.minimumExposedPerArm, nr >= RolloutPlan.minimumExposedPerArm else { return trivial }
        guard let upper = upperDifference(control: control, rollout: rollout, minimumEffect: minimumEffect) else {
            return trivial
        }
        return min(trivial, trivial * max(0, upper))
    }

    /// U_t: the upper end of the 1 − ``alpha`` confidence sequence of the denial-rate difference; nil without
    /// exposures in either arm or with an unusable minimum effect.
    public static func upperDifference(control: FunnelCounts, rollout: FunnelCounts, minimumEffect: Double) -> Double? {
        let tau2 = SequentialTest.mixingVariance(minimumEffect: minimumEffect)
        let nr = Double(rollout.exposed)
        let nc = Double(control.exposed)
        guard nr > 0, nc > 0, tau2 > 0, tau2.isFinite else { return nil }
        let theta = Double(rollout.systemDenied) / nr - Double(control.systemDenied) / nc
        let pr = (Double(rollout.systemDenied) + 1) / (nr + 2)
        let pc = (Double(control.systemDenied) + 1) / (nc + 2)
        let v = pr * (1 - pr) / nr + pc * (1 - pc) / nc
        let radius =
            (2 * v * (v + tau2) / tau2 * (SpecialFunctions.log(1 / alpha) + 0.5 * SpecialFunctions.log((v + tau2) / v)))
            .squareRoot()
        return theta + radius
    }
}
