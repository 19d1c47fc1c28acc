/// The rollout's state machine: pure, with the time and the counts as input, returning the new state and what to
/// publish. The service's scheduler (on the primary only) calls it on operator requests, after ingested batches
/// and on a timer, and carries out the action through the one publish path. docs/rollouts.md, "States".
public enum RolloutMachine {
    /// What the caller must do after a transition.
    public enum Action: Sendable, Hashable {
        /// Serve guarded step `index` (``RolloutPlan/assignment(step:)``).
        case publishStep(Int)
        /// The guard tripped: serve the previous revision again, audit "guard tripped" with the reading.
        case rollBack(RolloutReading)
        /// Serve the change to everyone.
        case complete
        /// An operator stopped the rollout: serve the previous revision again.
        case abort
        /// The guard held the rollout (paused) on these findings: notify (webhook `rollout.held`), audit.
        case hold([RolloutReading.Finding], RolloutReading)
        /// The guard warns about these findings: audit and notify; nothing else changes.
        case warn([RolloutReading.Finding], RolloutReading)
        /// Carve these segments out: serve them the old screen while the rest ramps on (webhook
        /// `rollout.segmentExcluded`); the state's ``RolloutState/excludedSegments`` already lists them.
        case excludeSegments([RolloutSegment], RolloutReading)
    }

    /// An operator's request.
    public enum Operation: String, Sendable, Hashable, CaseIterable {
        /// Publish the first step (draft only).
        case start
        /// Hold at the step (running only).
        case pause
        /// Advance again (paused only).
        case resume
        /// Publish the change to everyone (running, paused or awaiting approval).
        case complete
        /// Stop and publish the policy without the rollout (any live status).
        case abort
    }

    /// An operation the current status does not allow.
    public struct TransitionError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The status the rollout is in.
        public var status: RolloutState.Status
        /// The refused operation.
        public var operation: Operation
        /// A sentence for the operator.
        public var description: String {
            "a rollout that is \(status.rawValue) cannot \(operation.rawValue)"
        }
    }

    /// Applies an operator's request at `now`, with the new arm's exposed installs so far.
    public static func apply(
        _ operation: Operation, to state: RolloutState, now: Int64, rolloutExposed: Int
    ) throws(TransitionError) -> (state: RolloutState, action: Action?) {
        var next = state
        switch (operation, state.status) {
        case (.start, .draft):
            next.status = .running
            next.step = 0
            next.stepStartedAt = now
            next.stepStartExposed = rolloutExposed
            return (next, .publishStep(0))
        case (.pause, .running):
            next.status = .paused
            return (next, nil)
        case (.resume, .paused):
            next.status = .running
            next.heldBy = []
            return (next, nil)
        case (.complete, .running), (.complete, .paused), (.complete, .awaitingApproval):
            next.status = .completed
            return (next, .complete)
        case (.abort, .draft):
            next.status = .aborted
            return (next, nil)
        case (.abort, .running), (.abort, .paused), (.abort, .awaitingApproval):
            next.status = .aborted
            return (next, .abort)
        default:
            throw TransitionError(status: state.status, operation: operation)
        }
    }

    /// One evaluation: the result of ``evaluate(_:plan:observation:now:carvable:)``.
    public struct Evaluation: Sendable, Hashable {
        /// The state after it.
        public var state: RolloutState
        /// What to carry out, in order (a rollback is always alone).
        public var actions: [Action]
        /// The first action, if any.
        public var action: Action? { actions.first }
        /// The figures it decided on.
        public var reading: RolloutReading
        /// The earliest time a step may advance (the step's hold end), if the rollout is running and the hold has
        /// not passed; otherwise nil (the next ingested batch or timer tick decides).
        public var holdEndsAt: Int64?
    }

    /// Evaluates the guard on the arms' cumulative counts at `now` and advances the ramp when the step's hold and
    /// exposures allow:
    ///
    /// 1. in any live status (running, paused, awaiting approval), a reading that trips the guard rolls back (with
    ///    the default actions; see ``evaluate(_:plan:observation:now:carvable:)``);
    /// 2. running, with evidence of benefit: finish (completed, or awaiting approval when the plan asks for it);
    /// 3. running, the step held ``RolloutPlan/Step/minimumHoldMillis`` and its new arm gained
    ///    ``RolloutPlan/Step/minimumExposed`` installs: the next guarded step, or finish after the last one.
    public static func evaluate(
        _ state: RolloutState, plan: RolloutPlan, control: FunnelCounts, rollout: FunnelCounts, now: Int64
    ) -> Evaluation {
        evaluate(state, plan: plan, observation: RolloutObservation(control: control, rollout: rollout), now: now)
    }

    /// Evaluates the guard on `observation` at `now` (docs/rollouts.md, "Actions per finding"):
    ///
    /// 1. in any live status, a finding whose action is `rollback` rolls back (alone);
    /// 2. harmed segments whose action is `exclude` and whose dimension is in `carvable` (where the change can be
    ///    carved out for them, ``RolloutCarveOut/carvableDimensions(_:)``) are excluded; the others hold;
    /// 3. findings whose action is `hold`, not handled before, pause a running rollout and notify;
    /// 4. findings whose action is `warn`, not handled before, notify;
    /// 5. then, still running, benefit finishes and the ramp advances as in ``evaluate(_:plan:control:rollout:now:)``.
    ///
    /// `noTraffic` is found here: running, the step started at least ``RolloutPlan/noTrafficGraceMillis`` ago and
    /// the new arm gained no install since.
    public static func evaluate(
        _ state: RolloutState, plan: RolloutPlan, observation: RolloutObservation, now: Int64,
        carvable: Set<SegmentBreakdown.Dimension> = []
    ) -> Evaluation {
        var reading = RolloutGuard.read(observation, plan: plan, excluded: Set(state.excludedSegments))
        let rollout = observation.rollout
        var next = state
        let live = state.status == .running || state.status == .paused || state.status == .awaitingApproval
        guard live else { return Evaluation(state: state, actions: [], reading: reading, holdEndsAt: nil) }
        if state.status == .running, let started = state.stepStartedAt, now - started >= plan.noTrafficGraceMillis,
            rollout.exposed <= state.stepStartExposed
        {
            reading.findings.removeAll { $0 == .benefit }
            reading.findings.append(.noTraffic)
        }
        let found = reading.findings.filter { $0 != .benefit }
        let rollbacks = found.filter { plan.actions.response(to: $0) == .rollback }
        if !rollbacks.isEmpty {
            next.status = .rolledBack
            next.trippedBy = rollbacks
            next.heldBy = []
            return Evaluation(state: next, actions: [.rollBack(reading)], reading: reading, holdEndsAt: nil)
        }
        var actions: [Action] = []
        var holds = found.filter { plan.actions.response(to: $0) == .hold }
        if found.contains(.segmentHarm), plan.actions.segmentHarm == .exclude {
            let harmed = reading.harmedSegments
            let carved = harmed.filter { carvable.contains($0.dimension) }
            if !carved.isEmpty {
                next.excludedSegments += carved
                actions.append(.excludeSegments(carved, reading))
            }
            if carved.count < harmed.count { holds.append(.segmentHarm) }
        }
        holds.removeAll { state.handled.contains($0) }
        if !holds.isEmpty {
            if next.status == .running { next.status = .paused }
            next.heldBy = holds
            next.handled += holds
            actions.append(.hold(holds, reading))
        }
        let warns = found.filter { plan.actions.response(to: $0) == .warn && !next.handled.contains($0) }
        if !warns.isEmpty {
            next.handled += warns
            actions.append(.warn(warns, reading))
        }
        guard next.status == .running else {
            return Evaluation(state: next, actions: actions, reading: reading, holdEndsAt: nil)
        }
        if reading.findings.contains(.benefit) {
            var finished = finish(next, plan: plan, reading: reading)
            finished.actions = actions + finished.actions
            return finished
        }
        let steps = plan.guardedSteps
        let step = steps[min(state.step, steps.count - 1)]
        let started = state.stepStartedAt ?? now
        let holdEnds = started + step.minimumHoldMillis
        guard now >= holdEnds else {
            return Evaluation(state: next, actions: actions, reading: reading, holdEndsAt: holdEnds)
        }
        guard rollout.exposed - state.stepStartExposed >= step.minimumExposed else {
            return Evaluation(state: next, actions: actions, reading: reading, holdEndsAt: nil)
        }
        guard state.step + 1 < steps.count else {
            var finished = finish(next, plan: plan, reading: reading)
            finished.actions = actions + finished.actions
            return finished
        }
        next.step = state.step + 1
        next.stepStartedAt = now
        next.stepStartExposed = rollout.exposed
        return Evaluation(
            state: next, actions: actions + [.publishStep(next.step)], reading: reading,
            holdEndsAt: now + steps[next.step].minimumHoldMillis)
    }

    private static func finish(_ state: RolloutState, plan: RolloutPlan, reading: RolloutReading) -> Evaluation {
        var next = state
        if plan.requiresApproval {
            next.status = .awaitingApproval
            return Evaluation(state: next, actions: [], reading: reading, holdEndsAt: nil)
        }
        next.status = .completed
        return Evaluation(state: next, actions: [.complete], reading: reading, holdEndsAt: nil)
    }
}
