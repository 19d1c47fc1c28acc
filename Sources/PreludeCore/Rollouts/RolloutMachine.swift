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

    /// One evaluation: the result of ``evaluate(_:plan:control:rollout:now:)``.
    public struct Evaluation: Sendable, Hashable {
        /// The state after it.
        public var state: RolloutState
        /// What to publish, if anything.
        public var action: Action?
        /// The figures it decided on.
        public var reading: RolloutReading
        /// The earliest time a step may advance (the step's hold end), if the rollout is running and the hold has
        /// not passed; otherwise nil (the next ingested batch or timer tick decides).
        public var holdEndsAt: Int64?
    }

    /// Evaluates the guard on the arms' cumulative counts at `now` and advances the ramp when the step's hold and
    /// exposures allow:
    ///
    /// 1. in any live status (running, paused, awaiting approval), a reading that trips the guard rolls back;
    /// 2. running, with evidence of benefit: finish (completed, or awaiting approval when the plan asks for it);
    /// 3. running, the step held ``RolloutPlan/Step/minimumHoldMillis`` and its new arm gained
    ///    ``RolloutPlan/Step/minimumExposed`` installs: the next guarded step, or finish after the last one.
    public static func evaluate(
        _ state: RolloutState, plan: RolloutPlan, control: FunnelCounts, rollout: FunnelCounts, now: Int64
    ) -> Evaluation {
        let reading = RolloutGuard.read(control: control, rollout: rollout, plan: plan)
        var next = state
        let live = state.status == .running || state.status == .paused || state.status == .awaitingApproval
        guard live else { return Evaluation(state: state, action: nil, reading: reading, holdEndsAt: nil) }
        if reading.tripsGuard {
            next.status = .rolledBack
            next.trippedBy = reading.findings.filter { $0 != .benefit }
            return Evaluation(state: next, action: .rollBack(reading), reading: reading, holdEndsAt: nil)
        }
        guard state.status == .running else {
            return Evaluation(state: state, action: nil, reading: reading, holdEndsAt: nil)
        }
        if reading.findings.contains(.benefit) {
            return finish(next, plan: plan, reading: reading)
        }
        let steps = plan.guardedSteps
        let step = steps[min(state.step, steps.count - 1)]
        let started = state.stepStartedAt ?? now
        let holdEnds = started + step.minimumHoldMillis
        guard now >= holdEnds else {
            return Evaluation(state: state, action: nil, reading: reading, holdEndsAt: holdEnds)
        }
        guard rollout.exposed - state.stepStartExposed >= step.minimumExposed else {
            return Evaluation(state: state, action: nil, reading: reading, holdEndsAt: nil)
        }
        guard state.step + 1 < steps.count else { return finish(next, plan: plan, reading: reading) }
        next.step = state.step + 1
        next.stepStartedAt = now
        next.stepStartExposed = rollout.exposed
        return Evaluation(
            state: next, action: .publishStep(next.step), reading: reading,
            holdEndsAt: now + steps[next.step].minimumHoldMillis)
    }

    private static func finish(_ state: RolloutState, plan: RolloutPlan, reading: RolloutReading) -> Evaluation {
        var next = state
        if plan.requiresApproval {
            next.status = .awaitingApproval
            return Evaluation(state: next, action: nil, reading: reading, holdEndsAt: nil)
        }
        next.status = .completed
        return Evaluation(state: next, action: .complete, reading: reading, holdEndsAt: nil)
    }
}
