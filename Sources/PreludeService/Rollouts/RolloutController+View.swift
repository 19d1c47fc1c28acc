import PreludeCore
import PreludeStore

extension RolloutController {
    /// A rollout as the admin API shows it: the definition, state, step, the guard's figures read now from the
    /// counters, and when it is evaluated next (docs/rollouts.md, "API").
    package func view(_ rollout: Rollout) throws -> JSONValue {
        let now = clockNow
        let observation = try repository.observation(of: rollout)
        let arms = (control: observation.control, rollout: observation.rollout)
        let reading = RolloutGuard.read(
            observation, plan: rollout.plan, excluded: Set(rollout.state.excludedSegments))
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
            } else if state.status == .paused, !state.heldBy.isEmpty {
                next["waitingFor"] = .string(
                    "an operator: held by the guard on " + state.heldBy.map(\.rawValue).joined(separator: ", ")
                        + " (resume or abort; the guard still rolls back on harm)")
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
                ("condition", rollout.audience ?? .null), ("plan", rollout.plan.jsonValue),
                ("status", .string(state.status.rawValue)),
                ("step", step.isEmpty ? .null : .object(step)),
                ("trippedBy", .array(state.trippedBy.map { .string($0.rawValue) })),
                ("heldBy", .array(state.heldBy.map { .string($0.rawValue) })),
                ("excludedSegments", .array(state.excludedSegments.map(\.jsonValue))),
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
                ("benefitAlpha", .double(plan.alpha)), ("segmentAlpha", .double(plan.segmentAlpha)),
                ("segmentFamilySize", .integer(plan.segmentFamilySize)), ("signalAlpha", .double(plan.signalAlpha)),
                ("harmBoundConfidence", .double(1 - RolloutHarmBound.alpha)),
                ("minimumExposedPerArm", .integer(RolloutPlan.minimumExposedPerArm)),
            ]))
    }
}

extension RolloutController {
    /// The baseline a forecast of `feature` in `environment` uses: `override`'s members where given, the rest from
    /// the feature's experiments' daily aggregates over the last 14 days (``RolloutRepository/baseline``). Nil
    /// (with the members still missing) when neither gives all three.
    package func forecastBaseline(
        appID: String, environment: String, feature: Feature, override: JSONObject = JSONObject()
    ) throws -> (baseline: RolloutForecast.Baseline?, source: JSONValue, missing: [String]) {
        let today = Int(clockNow / 86_400_000)
        let counted = try repository.baseline(appID: appID, environment: environment, feature: feature, today: today)
        var perHour = override["installsPerHour"]?.doubleValue
        var grant = override["grantRate"]?.doubleValue
        var denial = override["denialRate"]?.doubleValue
        var source = JSONObject()
        if let counted {
            source["exposedInstalls"] = .integer(counted.exposed)
            source["days"] = .integer(counted.days)
            if perHour == nil { perHour = Double(counted.exposed) / Double(counted.days * 24) }
            if grant == nil { grant = Double(counted.granted) / Double(counted.exposed) }
            if denial == nil { denial = Double(counted.denied) / Double(counted.exposed) }
        }
        source["from"] = .string(
            counted == nil
                ? "request" : override.isEmpty ? "aggregates" : "aggregates and request")
        var missing: [String] = []
        if perHour == nil { missing.append("installsPerHour") }
        if grant == nil { missing.append("grantRate") }
        if denial == nil { missing.append("denialRate") }
        guard let perHour, let grant, let denial else { return (nil, .object(source), missing) }
        source["installsPerHour"] = .double(perHour)
        source["grantRate"] = .double(grant)
        source["denialRate"] = .double(denial)
        return (
            RolloutForecast.Baseline(installsPerHour: perHour, grantRate: grant, denialRate: denial),
            .object(source), []
        )
    }

    /// The forecast of `plan` for `feature` (docs/rollouts.md, "Time to detection") as the admin API shows it:
    /// `{"baseline", "estimates": [...]}`, or `{"baseline", "missing": [...]}` when no baseline is known.
    ///
    /// With an `audience` the baseline says what it cannot know: the share of the feature's installs in the
    /// audience. Attributes are never stored with events, so no aggregate measures it and none is assumed: the
    /// traffic is every install's (the hours are then a lower bound) unless the request's `installsPerHour` gives
    /// the audience's own.
    package func forecast(
        appID: String, environment: String, feature: Feature, plan: RolloutPlan, audience: JSONValue? = nil,
        override: JSONObject = JSONObject()
    ) throws -> JSONValue {
        let computed = try forecastBaseline(
            appID: appID, environment: environment, feature: feature, override: override)
        let (baseline, missing) = (computed.baseline, computed.missing)
        var source = computed.source
        if audience != nil, case .object(var members) = source {
            members["audienceShare"] = .null
            members["audience"] = .string(
                override["installsPerHour"] != nil
                    ? "installsPerHour from the request, taken as the audience's own traffic"
                    : "the share of installs in the audience is not measured (attributes are never stored with "
                        + "events): installsPerHour counts every install reaching the feature, so the rollout's "
                        + "hours are a lower bound; give the audience's installsPerHour to simulate it")
            source = .object(members)
        }
        guard let baseline else {
            return .object(
                JSONObject([
                    ("baseline", source), ("missing", .array(missing.map { .string($0) })),
                    (
                        "note",
                        .string(
                            "no exposures of \(feature.rawValue) were counted in the last 14 days; give "
                                + "installsPerHour, grantRate and denialRate to simulate")
                    ),
                ]))
        }
        return .object(
            JSONObject([
                ("baseline", source),
                ("estimates", .array(RolloutForecast.estimate(plan, baseline: baseline).map(\.jsonValue))),
            ]))
    }
}
