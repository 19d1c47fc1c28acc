import PreludeCore
import Testing

/// The rollout's pure parts: the plan's assignment, the guard's tests and the state machine, on an injected clock.
@Suite struct RolloutMachineTests {
    static let hour: Int64 = 3_600_000
    static let plan = RolloutPlan(steps: [
        .init(percent: 5, minimumHoldMillis: hour, minimumExposed: 100),
        .init(percent: 25, minimumHoldMillis: hour, minimumExposed: 100),
        .init(percent: 50, minimumHoldMillis: hour, minimumExposed: 100),
        .init(percent: 100, minimumHoldMillis: 0, minimumExposed: 0),
    ])

    static func arm(exposed: Int, granted: Int, denied: Int = 0) -> FunnelCounts {
        FunnelCounts(exposed: exposed, systemGranted: granted, systemDenied: denied, granted: granted)
    }

    static func started(at now: Int64 = 0) throws -> RolloutState {
        try RolloutMachine.apply(.start, to: RolloutState(), now: now, rolloutExposed: 0).state
    }

    @Test func stepsServeOneSplitWithGrowingCoverage() {
        #expect(Self.plan.rolloutWeight == 50)
        #expect(Self.plan.assignment(step: 0).weights == [50, 50])
        #expect(Self.plan.assignment(step: 0).coverage == 0.1)
        #expect(Self.plan.assignment(step: 1).coverage == 0.5)
        #expect(Self.plan.assignment(step: 2).coverage == 1)
    }

    /// Every bucket a hash can give (four decimals): from one step to the next an install keeps its arm or, outside
    /// both before, joins one; it never moves from one arm to the other, and never leaves the new arm.
    @Test(arguments: [
        RolloutMachineTests.plan,
        RolloutPlan(steps: [
            .init(percent: 1, minimumHoldMillis: 0, minimumExposed: 0),
            .init(percent: 10, minimumHoldMillis: 0, minimumExposed: 0),
            .init(percent: 75, minimumHoldMillis: 0, minimumExposed: 0),
        ]),
    ])
    func aRampOnlyAddsInstalls(plan: RolloutPlan) {
        let ranges = plan.guardedSteps.indices.map { step in
            let (weights, coverage) = plan.assignment(step: step)
            return Bucketing.bucketRanges(count: 2, coverage: coverage, weights: weights.map { $0 / 100 })
        }
        var rolloutShare = [Int](repeating: 0, count: ranges.count)
        for bucket in 0..<10_000 {
            let n = Double(bucket) / 10_000
            let arms = ranges.map { Bucketing.chooseVariation(n, ranges: $0) }
            for (step, arm) in arms.enumerated() where arm == 1 { rolloutShare[step] += 1 }
            for step in arms.indices.dropFirst() {
                if let before = arms[step - 1] { #expect(arms[step] == before, "bucket \(n) moved at step \(step)") }
            }
        }
        for (step, share) in rolloutShare.enumerated() {
            #expect(abs(Double(share) / 100 - plan.guardedSteps[step].percent) < 0.02, "step \(step): \(share)")
        }
    }

    @Test func startPublishesTheFirstStepAndOtherOperationsFollowTheStatus() throws {
        let (running, action) = try RolloutMachine.apply(.start, to: RolloutState(), now: 7, rolloutExposed: 3)
        #expect(action == .publishStep(0))
        #expect(running.status == .running && running.stepStartedAt == 7 && running.stepStartExposed == 3)
        #expect(throws: RolloutMachine.TransitionError.self) {
            try RolloutMachine.apply(.start, to: running, now: 8, rolloutExposed: 0)
        }
        #expect(throws: RolloutMachine.TransitionError.self) {
            try RolloutMachine.apply(.resume, to: running, now: 8, rolloutExposed: 0)
        }
        let paused = try RolloutMachine.apply(.pause, to: running, now: 8, rolloutExposed: 0)
        #expect(paused.state.status == .paused && paused.action == nil)
        let resumed = try RolloutMachine.apply(.resume, to: paused.state, now: 9, rolloutExposed: 0)
        #expect(resumed.state.status == .running)
        #expect(try RolloutMachine.apply(.abort, to: resumed.state, now: 9, rolloutExposed: 0).action == .abort)
        #expect(try RolloutMachine.apply(.complete, to: paused.state, now: 9, rolloutExposed: 0).action == .complete)
        #expect(try RolloutMachine.apply(.abort, to: RolloutState(), now: 9, rolloutExposed: 0).action == nil)
        let completed = RolloutState(status: .completed)
        for operation in RolloutMachine.Operation.allCases {
            #expect(throws: RolloutMachine.TransitionError.self) {
                try RolloutMachine.apply(operation, to: completed, now: 9, rolloutExposed: 0)
            }
        }
    }

    @Test func aStepAdvancesOnlyAfterItsHoldAndItsExposures() throws {
        let state = try Self.started()
        let few = Self.arm(exposed: 60, granted: 24)
        let enough = Self.arm(exposed: 120, granted: 48)
        let early = RolloutMachine.evaluate(
            state, plan: Self.plan, control: enough, rollout: enough, now: Self.hour - 1)
        #expect(early.action == nil && early.state == state && early.holdEndsAt == Self.hour)
        let short = RolloutMachine.evaluate(state, plan: Self.plan, control: few, rollout: few, now: Self.hour)
        #expect(short.action == nil && short.state == state)
        let next = RolloutMachine.evaluate(state, plan: Self.plan, control: enough, rollout: enough, now: Self.hour)
        #expect(next.action == .publishStep(1))
        #expect(next.state.step == 1 && next.state.stepStartedAt == Self.hour && next.state.stepStartExposed == 120)
        #expect(next.holdEndsAt == 2 * Self.hour)
        // The next step counts its own exposures: 120 more are needed, not 100 in total.
        let more = Self.arm(exposed: 200, granted: 80)
        let stay = RolloutMachine.evaluate(
            next.state, plan: Self.plan, control: more, rollout: more, now: 3 * Self.hour)
        #expect(stay.action == nil)
    }

    @Test func passingTheLastGuardedStepCompletesOrAwaitsApproval() throws {
        var state = try Self.started()
        state.step = 2
        let counts = Self.arm(exposed: 300, granted: 120)
        let done = RolloutMachine.evaluate(state, plan: Self.plan, control: counts, rollout: counts, now: Self.hour)
        #expect(done.action == .complete && done.state.status == .completed)

        var approving = Self.plan
        approving.requiresApproval = true
        let waiting = RolloutMachine.evaluate(state, plan: approving, control: counts, rollout: counts, now: Self.hour)
        #expect(waiting.action == nil && waiting.state.status == .awaitingApproval)
        let approved = try RolloutMachine.apply(.complete, to: waiting.state, now: Self.hour, rolloutExposed: 300)
        #expect(approved.action == .complete && approved.state.status == .completed)
    }

    @Test func harmRollsBackEvenWhilePaused() throws {
        let control = Self.arm(exposed: 400, granted: 200, denied: 100)
        let harmful = Self.arm(exposed: 400, granted: 100, denied: 250)
        for status in [RolloutState.Status.running, .paused, .awaitingApproval] {
            var state = try Self.started()
            state.status = status
            let evaluation = RolloutMachine.evaluate(state, plan: Self.plan, control: control, rollout: harmful, now: 1)
            #expect(evaluation.state.status == .rolledBack)
            #expect(evaluation.state.trippedBy == [.grantRateHarm, .denialRateHarm])
            #expect(evaluation.action == .rollBack(evaluation.reading))
            #expect((evaluation.reading.grantHarmPValue ?? 1) < Self.plan.harmAlpha)
        }
    }

    @Test func theHarmTestsWaitForAHundredInstallsPerArm() throws {
        let state = try Self.started()
        let control = Self.arm(exposed: 99, granted: 99)
        let harmful = Self.arm(exposed: 99, granted: 0, denied: 99)
        let evaluation = RolloutMachine.evaluate(state, plan: Self.plan, control: control, rollout: harmful, now: 1)
        #expect(evaluation.state == state && evaluation.reading.grantHarmPValue == nil)
        let later = RolloutMachine.evaluate(
            state, plan: Self.plan, control: Self.arm(exposed: 100, granted: 100),
            rollout: Self.arm(exposed: 100, granted: 0, denied: 100), now: 1)
        #expect(later.state.status == .rolledBack)
    }

    @Test func aBrokenSplitHoldsTheRolloutByDefaultOrRollsBackWhenThePlanSaysSo() throws {
        let state = try Self.started()
        let reading = RolloutMachine.evaluate(
            state, plan: Self.plan, control: Self.arm(exposed: 400, granted: 160),
            rollout: Self.arm(exposed: 600, granted: 240), now: 1)
        #expect(reading.state.status == .paused && reading.state.heldBy == [.sampleRatioMismatch])
        #expect(reading.actions == [.hold([.sampleRatioMismatch], reading.reading)])
        var strict = Self.plan
        strict.actions.sampleRatioMismatch = .rollback
        let rolledBack = RolloutMachine.evaluate(
            state, plan: strict, control: Self.arm(exposed: 400, granted: 160),
            rollout: Self.arm(exposed: 600, granted: 240), now: 1)
        #expect(rolledBack.state.trippedBy == [.sampleRatioMismatch] && rolledBack.state.status == .rolledBack)
        let fine = RolloutMachine.evaluate(
            state, plan: Self.plan, control: Self.arm(exposed: 500, granted: 200),
            rollout: Self.arm(exposed: 510, granted: 204), now: 1)
        #expect(fine.state.status == .running && fine.reading.sampleRatioPValue == 1)
    }

    @Test func benefitFinishesEarly() throws {
        let state = try Self.started()
        let evaluation = RolloutMachine.evaluate(
            state, plan: Self.plan, control: Self.arm(exposed: 1000, granted: 400),
            rollout: Self.arm(exposed: 1000, granted: 520), now: 1)
        #expect(evaluation.reading.findings == [.benefit])
        #expect(evaluation.action == .complete)
    }

    @Test func oneSidedPValuesPointOneWay() throws {
        let lower = try #require(
            SequentialTest.oneSidedPValue(
                treatmentSuccesses: 350, treatmentTrials: 1000, controlSuccesses: 450, controlTrials: 1000,
                mixingVariance: 0.0004, side: .lower))
        let higher = try #require(
            SequentialTest.oneSidedPValue(
                treatmentSuccesses: 350, treatmentTrials: 1000, controlSuccesses: 450, controlTrials: 1000,
                mixingVariance: 0.0004, side: .higher))
        let twoSided = try #require(
            SequentialTest.pValue(
                treatmentSuccesses: 350, treatmentTrials: 1000, controlSuccesses: 450, controlTrials: 1000,
                mixingVariance: 0.0004))
        #expect(lower < 0.01 && higher == 1)
        // Half the mixture on the observed side: the one-sided evidence is at most twice the two-sided.
        #expect(lower >= twoSided / 2 && lower < twoSided)
    }

    @Test(arguments: [
        (
            [
                RolloutPlan.Step(percent: 50, minimumHoldMillis: 0, minimumExposed: 0),
                .init(percent: 25, minimumHoldMillis: 0, minimumExposed: 0),
            ], "steps/1/percent"
        ),
        ([.init(percent: 100, minimumHoldMillis: 0, minimumExposed: 0)], "steps"),
        ([.init(percent: 0, minimumHoldMillis: 0, minimumExposed: 0)], "steps/0/percent"),
        ([.init(percent: 5, minimumHoldMillis: -1, minimumExposed: 0)], "steps/0/minimumHoldSeconds"),
        ([.init(percent: 5, minimumHoldMillis: 0, minimumExposed: -1)], "steps/0/minimumExposed"),
        ([], "steps"),
    ])
    func unusablePlansNameTheMember(steps: [RolloutPlan.Step], member: String) {
        #expect(RolloutPlan(steps: steps).problems().contains { $0.member == member })
    }

    @Test func aGoodPlanHasNoProblemsAndSplitsAlpha() {
        #expect(Self.plan.problems().isEmpty)
        #expect(Self.plan.sampleRatioAlpha == 0.001)
        #expect(abs(2 * Self.plan.harmAlpha + Self.plan.sampleRatioAlpha - Self.plan.alpha) < 1e-15)
        var bad = Self.plan
        bad.alpha = 0.5
        bad.minimumEffect = 0
        #expect(Set(bad.problems().map(\.member)) == ["alpha", "minimumEffect"])
    }
}
