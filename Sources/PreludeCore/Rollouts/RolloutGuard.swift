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
        read(RolloutObservation(control: control, rollout: rollout), plan: plan)
    }

    /// Reads `observation` against `plan`: the tests of ``read(control:rollout:plan:)`` and
    ///
    /// - the harm bound (``RolloutHarmBound``) against ``RolloutPlan/harmBudget``;
    /// - per guarded segment (``RolloutPlan/segmentGuard``), the grant and denial harm tests, Holm-corrected over
    ///   the plan's fixed family at ``RolloutPlan/segmentAlpha``; segments in `excluded` (already carved out) are
    ///   not tested again;
    /// - the settings signal at ``RolloutPlan/signalAlpha``;
    /// - the mislabelled share against ``RolloutPlan/mislabelledShare``.
    public static func read(
        _ observation: RolloutObservation, plan: RolloutPlan, excluded: Set<RolloutSegment> = []
    ) -> RolloutReading {
        let control = observation.control
        let rollout = observation.rollout
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
        var signal: Double?
        if control.exposed >= RolloutPlan.minimumExposedPerArm, rollout.exposed >= RolloutPlan.minimumExposedPerArm {
            signal = SequentialTest.oneSidedPValue(
                treatmentSuccesses: rollout.settingsOpened, treatmentTrials: rollout.exposed,
                controlSuccesses: control.settingsOpened, controlTrials: control.exposed,
                mixingVariance: SequentialTest.mixingVariance(minimumEffect: plan.minimumEffect), side: .higher)
        }
        if let grantHarm, grantHarm < plan.harmAlpha { findings.append(.grantRateHarm) }
        if let denialHarm, denialHarm < plan.harmAlpha { findings.append(.denialRateHarm) }
        let bound = RolloutHarmBound.extraDenied(control: control, rollout: rollout, minimumEffect: plan.minimumEffect)
        if let budget = plan.harmBudget, bound > Double(budget) { findings.append(.harmBudgetExceeded) }
        let segments = segmentReadings(observation.segments, plan: plan, excluded: excluded)
        if segments.contains(where: \.harmed) { findings.append(.segmentHarm) }
        let labelled = observation.mislabelledEvents + observation.events
        let mislabelled = labelled > 0 ? Double(observation.mislabelledEvents) / Double(labelled) : nil
        if let mislabelled, labelled >= RolloutPlan.minimumEventsForMislabelling, mislabelled > plan.mislabelledShare {
            findings.append(.mislabelledEvents)
        }
        if let signal, signal < plan.signalAlpha { findings.append(.settingsSignal) }
        if findings.isEmpty, let grantBenefit, grantBenefit < plan.alpha { findings.append(.benefit) }
        var reading = RolloutReading(
            control: control, rollout: rollout, plannedShare: share, grantDifference: grantDifference,
            grantHarmPValue: grantHarm, grantBenefitPValue: grantBenefit, denialDifference: denialDifference,
            denialHarmPValue: denialHarm, sampleRatioPValue: srm, findings: findings)
        reading.harmBound = bound
        reading.harmBudget = plan.harmBudget
        reading.segments = segments
        reading.settingsSignalPValue = signal
        reading.mislabelledShare = mislabelled
        return reading
    }

    /// The per-segment tests: for each guarded dimension the ``RolloutPlan/segmentsPerDimension`` most exposed
    /// values with both arms at ``RolloutPlan/minimumExposedPerArm`` (never `unknown` or `other`, never one in
    /// `excluded`), each with a one-sided grant-harm and denial-harm test; every p-value Holm-adjusted over the
    /// plan's fixed family (untested members count as p = 1, which only makes the correction stricter).
    static func segmentReadings(
        _ rows: [RolloutSegmentCounts], plan: RolloutPlan, excluded: Set<RolloutSegment>
    ) -> [RolloutReading.SegmentReading] {
        guard !plan.segmentGuard.isEmpty else { return [] }
        var tested: [RolloutSegmentCounts] = []
        for dimension in plan.segmentGuard {
            let candidates = rows.filter {
                $0.segment.dimension == dimension && $0.segment.value != EventSegment.unknownValue
                    && $0.segment.value != EventSegment.otherValue && !excluded.contains($0.segment)
                    && $0.control.exposed >= RolloutPlan.minimumExposedPerArm
                    && $0.rollout.exposed >= RolloutPlan.minimumExposedPerArm
            }
            .sorted {
                let left = $0.control.exposed + $0.rollout.exposed
                let right = $1.control.exposed + $1.rollout.exposed
                return left != right ? left > right : $0.segment.value < $1.segment.value
            }
            tested += candidates.prefix(RolloutPlan.segmentsPerDimension)
        }
        guard !tested.isEmpty else { return [] }
        let tau2 = SequentialTest.mixingVariance(minimumEffect: plan.minimumEffect)
        var raw: [Double] = []
        for row in tested {
            raw.append(
                SequentialTest.oneSidedPValue(
                    treatmentSuccesses: row.rollout.granted, treatmentTrials: row.rollout.exposed,
                    controlSuccesses: row.control.granted, controlTrials: row.control.exposed, mixingVariance: tau2,
                    side: .lower) ?? 1)
            raw.append(
                SequentialTest.oneSidedPValue(
                    treatmentSuccesses: row.rollout.systemDenied, treatmentTrials: row.rollout.exposed,
                    controlSuccesses: row.control.systemDenied, controlTrials: row.control.exposed,
                    mixingVariance: tau2, side: .higher) ?? 1)
        }
        let family = max(plan.segmentFamilySize, raw.count)
        let adjusted = MultipleComparisons.holm(raw + [Double](repeating: 1, count: family - raw.count))
        return tested.enumerated().map { index, row in
            func rate(_ count: Int, _ of: Int) -> Double { Double(count) / Double(of) }
            let grant = adjusted[2 * index]
            let denial = adjusted[2 * index + 1]
            return RolloutReading.SegmentReading(
                segment: row.segment, controlExposed: row.control.exposed, rolloutExposed: row.rollout.exposed,
                grantDifference: rate(row.rollout.granted, row.rollout.exposed)
                    - rate(row.control.granted, row.control.exposed),
                denialDifference: rate(row.rollout.systemDenied, row.rollout.exposed)
                    - rate(row.control.systemDenied, row.control.exposed),
                grantHarmAdjusted: grant, denialHarmAdjusted: denial,
                harmed: min(grant, denial) < plan.segmentAlpha)
        }
    }
}
