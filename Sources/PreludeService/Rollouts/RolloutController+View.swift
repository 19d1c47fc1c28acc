import PreludeCore
import PreludeStore

extension RolloutController {
    /// A rollout as the admin API shows it: the definition, state, step, the guard's figures read now from the
    /// counters, and when it is evaluated next (docs/rollouts.md, "API").
    package func view(_ rollout: Rollout) throws -> JSONValue {
        let now = clockNow
        let arms = try repository.arms(of: rollout)
        let reading = RolloutGuard.read(control: arms.control, rollout: arms.rollout, plan: rollout.plan)
        let state = rollout.state
        let guarded = rollout.plan.guardedSteps
        var step = JSONObject()
        if state.status != .draft, guarded.indices.contains(state.step) {
            let current = guarded[state.step]
            let (weights, coverage) = rollout.plan.assignment(step: state.step)
            step["index"] = .integer(state.step)
            step["percent"] = .number(current.percent)
            step["weights"] = .array(weights.map { .number($0) })
            step["coverage"] = .number(coverage)
            step["startedAt"] = AdminTime.json(state.stepStartedAt)
            step["holdEndsAt"] = AdminTime.json(state.stepStartedAt.map { $0 + current.minimumHoldMillis })
            step["exposedSinceStart"] = .integer(arms.rollout.exposed - state.stepStartExposed)
            step["minimumExposed"] = .integer(current.minimumExposed)
        }
        var next = JSONObject()
        switch state.status {
        case .running, .paused, .awaitingApproval:
            next["guard"] = .string(
                "after every ingested event batch and every \(Int(RolloutScheduler.defaultInterval)) s on the primary")
            if state.status == .running, guarded.indices.contains(state.step), let started = state.stepStartedAt {
                let current = guarded[state.step]
                let holdEnds = started + current.minimumHoldMillis
                let missing = current.minimumExposed - (arms.rollout.exposed - state.stepStartExposed)
                next["stepMayAdvanceAt"] = AdminTime.json(max(holdEnds, now))
                let waiting: String =
                    if now < holdEnds {
                        "the step's minimum hold"
                    } else if missing > 0 {
                        "\(missing) more installs exposed to the new arm"
                    } else {
                        "the next evaluation"
                    }
                next["waitingFor"] = .string(waiting)
            } else if state.status == .paused {
                next["waitingFor"] = .string("resume (the guard still rolls back on harm)")
            } else if state.status == .awaitingApproval {
                next["waitingFor"] = .string("an operator's complete")
            }
        case .draft:
            next["waitingFor"] = .string("start")
        case .completed, .rolledBack, .aborted:
            break
        }
        return .object(
            JSONObject([
                ("id", .integer(Int(rollout.id))), ("app", .string(rollout.appID)),
                ("environment", .string(rollout.environment)), ("experimentKey", .string(rollout.experimentKey)),
                ("feature", .string(rollout.feature.rawValue)), ("set", rollout.change),
                ("plan", rollout.plan.jsonValue), ("status", .string(state.status.rawValue)),
                ("step", step.isEmpty ? .null : .object(step)),
                ("trippedBy", .array(state.trippedBy.map { .string($0.rawValue) })),
                ("baseRevision", rollout.baseRevision.map { .integer($0) } ?? .null),
                ("figures", reading.jsonValue),
                ("thresholds", thresholds(rollout.plan)),
                ("lastDecision", rollout.lastReading ?? .null),
                ("lastDecisionAt", AdminTime.json(rollout.lastEvaluatedAt)),
                ("nextEvaluation", next.isEmpty ? .null : .object(next)),
                ("createdBy", .string(rollout.createdBy)), ("createdAt", AdminTime.json(rollout.createdAt)),
                ("updatedAt", AdminTime.json(rollout.updatedAt)),
            ]))
    }

    private func thresholds(_ plan: RolloutPlan) -> JSONValue {
        .object(
            JSONObject([
                ("harmAlpha", .double(plan.harmAlpha)), ("sampleRatioAlpha", .double(plan.sampleRatioAlpha)),
                ("benefitAlpha", .double(plan.alpha)),
                ("minimumExposedPerArm", .integer(RolloutPlan.minimumExposedPerArm)),
            ]))
    }
}
