/// The guard of a rollout: a pure function from the two arms' counts to a ``RolloutReading``. Cheap (a few
/// logarithms), so it runs after every ingested batch as well as on each scheduler tick. docs/rollouts.md, "The
/// guard", gives the tests and why together they stop a harmless change with probability at most α.
public enum RolloutGuard {
    /// Reads the arms' cumulative counts (every install exposed since the rollout started) against `plan`.
    ///
    /// - the sample ratio: ``SampleRatioSequentialTest`` of the new arm's exposures against
    ///   ``RolloutPlan/plannedShare``, at ``RolloutPlan/sampleRatioAlpha``;
    /// - grant-rate harm: the one-sided mixture SPRT (``SequentialTest``) of the new arm granting less, at
    ///   ``RolloutPlan/harmAlpha``;
    /// - denial-rate harm: the same test on systemDenied / exposed, new arm higher, at ``RolloutPlan/harmAlpha``;
    /// - benefit: the one-sided test of the new arm granting more, at ``RolloutPlan/alpha`` (it only finishes early).
    ///
    /// The grant and denial tests run once both arms have ``RolloutPlan/minimumExposedPerArm`` exposures.
    public static func read(control: FunnelCounts, rollout: FunnelCounts, plan: RolloutPlan) -> RolloutReading {
        let share = plan.plannedShare
        let total = control.exposed + rollout.exposed
        let srm =
            share > 0 && share < 1
            ? SampleRatioSequentialTest.pValue(treatment: rollout.exposed, total: total, plannedShare: share) : 1
        var findings: [RolloutReading.Finding] = []
        if srm < plan.sampleRatioAlpha { findings.append(.sampleRatioMismatch) }

        var grantDifference: Double?
        var denialDifference: Double?
        if control.exposed > 0, rollout.exposed > 0 {
            grantDifference =
                Double(rollout.granted) / Double(rollout.exposed) - Double(control.granted) / Double(control.exposed)
            denialDifference =
                Double(rollout.systemDenied) / Double(rollout.exposed) - Double(control.systemDenied)
                / Double(control.exposed)
        }
        var grantHarm: Double?
        var grantBenefit: Double?
        var denialHarm: Double?
        if control.exposed >= RolloutPlan.minimumExposedPerArm, rollout.exposed >= RolloutPlan.minimumExposedPerArm {
            let tau2 = SequentialTest.mixingVariance(minimumEffect: plan.minimumEffect)
            grantHarm = SequentialTest.oneSidedPValue(
                treatmentSuccesses: rollout.granted, treatmentTrials: rollout.exposed,
                controlSuccesses: control.granted, controlTrials: control.exposed, mixingVariance: tau2, side: .lower)
            grantBenefit = SequentialTest.oneSidedPValue(
                treatmentSuccesses: rollout.granted, treatmentTrials: rollout.exposed,
                controlSuccesses: control.granted, controlTrials: control.exposed, mixingVariance: tau2, side: .higher)
            denialHarm = SequentialTest.oneSidedPValue(
                treatmentSuccesses: rollout.systemDenied, treatmentTrials: rollout.exposed,
                controlSuccesses: control.systemDenied, controlTrials: control.exposed, mixingVariance: tau2,
                side: .higher)
        }
        if let grantHarm, grantHarm < plan.harmAlpha { findings.append(.grantRateHarm) }
        if let denialHarm, denialHarm < plan.harmAlpha { findings.append(.denialRateHarm) }
        if findings.isEmpty, let grantBenefit, grantBenefit < plan.alpha { findings.append(.benefit) }
        return RolloutReading(
            control: control, rollout: rollout, plannedShare: share, grantDifference: grantDifference,
            grantHarmPValue: grantHarm, grantBenefitPValue: grantBenefit, denialDifference: denialDifference,
            denialHarmPValue: denialHarm, sampleRatioPValue: srm, findings: findings)
    }
}
