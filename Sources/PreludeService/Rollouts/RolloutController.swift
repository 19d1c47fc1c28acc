import PreludeCore
import PreludeHTTP
import PreludeStorage
import PreludeStore
import Synchronization

/// Carries out rollouts: operator requests and guard evaluations, one at a time, each ending in at most one
/// publication through the policy store's one publish path (``PolicyStore/commit(app:document:author:action:message:precondition:auditDetail:)``,
/// after ``PublishChecks``). The decisions are ``RolloutMachine``'s; this class reads the counters, publishes, and
/// stores the state. docs/rollouts.md describes the whole.
///
/// Publication comes before the state is stored, and publishing a document equal to the live one creates no
/// revision: after a crash between the two, the same transition is decided again and publishes nothing new.
package final class RolloutController: Sendable {
    /// The stored rollouts.
    package let repository: RolloutRepository
    /// The environments' rollout templates.
    package let templates: RolloutTemplateRepository
    private let store: PolicyStore
    private let apps: PolicyRepository
    private let clock: ServiceClock
    private let logger: Logger
    /// `prelude_rollout_guard_trips_total`: rollbacks decided by the guard.
    package let guardTrips = MetricCounter(
        name: "prelude_rollout_guard_trips_total",
        help: "Rollouts the guard stopped and rolled back (harm or sample-ratio mismatch).")
    /// `prelude_rollout_holds_total`: rollouts the guard held (paused) on a finding whose action is `hold`.
    package let holds = MetricCounter(
        name: "prelude_rollout_holds_total", help: "Rollouts the guard held (paused and notified) on a finding.")
    /// `prelude_rollout_warnings_total`: warnings the guard raised (findings whose action is `warn`).
    package let warnings = MetricCounter(
        name: "prelude_rollout_warnings_total", help: "Findings the rollout guard warned about without acting.")
    /// `prelude_rollout_segment_exclusions_total`: segments carved out of rollouts.
    package let segmentExclusions = MetricCounter(
        name: "prelude_rollout_segment_exclusions_total",
        help: "Segments the rollout guard carved out (kept on the old screen) while the rest ramped on.")
    /// `prelude_rollout_budget_exceeded_total`: rollouts whose harm bound exceeded their harm budget.
    package let budgetExceeded = MetricCounter(
        name: "prelude_rollout_budget_exceeded_total",
        help: "Rollouts whose bound on extra denied installs exceeded their harm budget.")
    /// Every counter of the controller, for the metrics registry.
    package var counters: [MetricCounter] {
        [guardTrips, evaluations, holds, warnings, segmentExclusions, budgetExceeded]
    }
    /// `prelude_rollout_evaluations_total`: guard evaluations of live rollouts.
    package let evaluations = MetricCounter(
        name: "prelude_rollout_evaluations_total", help: "Guard evaluations of live rollouts.")
    private let serial = Mutex(())
    /// False once an evaluation found no live rollout, until an operator request may have made one: then a wake
    /// after an ingested batch costs one atomic load.
    private let mayHaveActive = Atomic<Bool>(true)

    /// Now, on the controller's clock.
    package var clockNow: Int64 { clock.milliseconds }

    /// The actor named in audit records of what the guard and the scheduler decide.
    package static let guardActor = "rollout-guard"

    /// A controller over the rollouts, templates and apps of `repositories`, publishing through `store`, at
    /// `clock`'s time.
    package init(repositories: Store, store: PolicyStore, clock: ServiceClock, logger: Logger) {
        repository = repositories.rollouts
        templates = repositories.rolloutTemplates
        apps = repositories.policies
        self.store = store
        self.clock = clock
        self.logger = logger
    }

    // MARK: - Operator requests

    /// What ``create(appID:environment:body:actor:authority:)`` did.
    package struct Created: Sendable {
        /// The rollout as stored.
        package var rollout: Rollout
        /// True when the body asked to start it but its environment requires approval and `authority` was a plain
        /// writer: it stays a draft until a change request carrying its plan is approved and applied.
        package var awaitsApproval: Bool
    }

    /// Creates a draft (or, with `start`, a running) rollout of `app` from a request body (docs/rollouts.md,
    /// "API"). Throws a problem naming the member for bad input; nothing is stored then. On an environment that
    /// requires approvals, `start` starts it only with `authority` `bypass` (audited); otherwise it stays a draft
    /// and ``Created/awaitsApproval`` says so (the caller proposes its plan as a change request).
    package func create(
        appID: String, environment: String, body: JSONValue, actor: String,
        authority: GovernanceGate.Authority = .writer
    ) throws -> Created {
        var template: (name: String, plan: JSONObject)?
        if let named = body["template"] {
            guard let name = named.stringValue,
                let stored = try templates.template(appID: appID, environment: environment, name: name),
                case .object(let plan) = stored.plan
            else {
                throw AdminProblem.invalidRequest(
                    "environment \"\(environment)\" has no rollout template \(named.serialized()) (GET "
                        + "…/environments/\(environment)/rollout-templates lists them)",
                    pointer: "/template", code: "template.unknown", status: .unprocessableContent)
            }
            template = (name, plan)
        }
        let request = try RolloutRequest(body, template: template)
        if let floor = try templates.template(appID: appID, environment: environment, name: RolloutTemplate.floorName) {
            let problems = RolloutTemplate.floorProblems(request.plan, floor: floor.plan)
            if !problems.isEmpty {
                throw ProblemDetails(
                    status: .unprocessableContent, type: RequestProblem.validationType,
                    title: "The plan is weaker than the environment's floor",
                    detail:
                        "\(problems.count) member\(problems.count == 1 ? "" : "s") below the floor of \(environment) "
                        + "(its rollout template \"floor\"); nothing was changed",
                    errors: problems.map {
                        FieldProblem(pointer: "/" + $0.member, code: "plan.belowFloor", detail: $0.message)
                    })
            }
        }
        return try serial.withLock { _ in
            let live = try served(appID, environment: environment)
            let document = live.document
            guard document.features[request.feature] != nil else {
                throw AdminProblem.invalidRequest(
                    "\(request.feature.rawValue) is not configured under features, so there is nothing to roll out",
                    pointer: "/feature", code: "experiment.unknownFeature", status: .unprocessableContent)
            }
            if let audience = request.audience { try Self.checkAudience(audience, in: document) }
            if let other = document.experiments.first(where: { $0.feature == request.feature }) {
                throw ProblemDetails(
                    status: .conflict,
                    detail: "experiment \"\(other.key)\" already tests \(request.feature.rawValue); conclude or delete "
                        + "it first (one experiment per feature)")
            }
            let now = clock.milliseconds
            let key = request.key ?? "rollout-\(request.feature.rawValue)-\(now / 1000)"
            if document.experiments.contains(where: { $0.key == key }) {
                throw ProblemDetails(status: .conflict, detail: "the policy already has an experiment \"\(key)\"")
            }
            // Both documents the rollout will publish must be valid now: refuse the rollout, not a later step.
            let provisional = Rollout(
                id: 0, appID: appID, environment: environment, experimentKey: key, feature: request.feature,
                change: request.change, plan: request.plan, state: RolloutState(), baseRevision: nil,
                lastReading: nil, lastEvaluatedAt: nil, createdBy: actor, createdAt: now, updatedAt: now,
                audience: request.audience)
            let first = try candidate(for: .publishStep(0), of: provisional, live: live)
            _ = try candidate(for: .complete, of: provisional, live: live)
            if request.start { try contentGate(first, experimentKey: key) }
            // A refusal (another live rollout, a key with data) answers as its ProblemError conformance maps it.
            var rollout = try repository.create(
                appID: appID, environment: environment, experimentKey: key, feature: request.feature,
                change: request.change, plan: request.plan, audience: request.audience, createdBy: actor, at: now)
            guard request.start else { return Created(rollout: rollout, awaitsApproval: false) }
            do {
                let verdict = try GovernanceGate.rolloutStart(
                    try governance(appID, environment: environment), authority: authority)
                rollout = try operateLocked(.start, rollout: rollout, actor: actor, now: now, verdict: verdict)
                return Created(rollout: rollout, awaitsApproval: false)
            } catch GovernanceGate.Refusal.rolloutNeedsApproval {
                return Created(rollout: rollout, awaitsApproval: true)
            }
        }
    }

    /// Applies an operator's request (start, pause, resume, complete, abort) to rollout `id` of `app`. Starting
    /// one on an environment that requires approvals needs `authority` `bypass` or the approved change request
    /// carrying its plan (409 `approval-required` otherwise, naming `openChangeRequest` when one waits); the other
    /// operations only ever run the approved plan or restore, and need `write` alone.
    package func operate(
        _ operation: RolloutMachine.Operation, id: Int64, appID: String, environment: String, actor: String,
        authority: GovernanceGate.Authority = .writer, openChangeRequest: Int64? = nil
    ) throws -> Rollout {
        try serial.withLock { _ in
            guard let rollout = try repository.rollout(id: id, appID: appID, environment: environment) else {
                throw AdminProblem.notFound("app \"\(appID)\" has no rollout \(id)")
            }
            var verdict = GovernanceGate.Verdict.allowed
            if operation == .start, rollout.state.status == .draft {
                do {
                    verdict = try GovernanceGate.rolloutStart(
                        try governance(appID, environment: environment), authority: authority)
                } catch GovernanceGate.Refusal.rolloutNeedsApproval(let required) {
                    throw ChangeRequestProblem.rolloutApprovalRequired(
                        app: appID, environment: environment, rollout: id, requiredApprovals: required,
                        changeRequest: openChangeRequest)
                }
            }
            return try operateLocked(
                operation, rollout: rollout, actor: actor, now: clock.milliseconds, verdict: verdict)
        }
    }

    /// Refuses an audience the live `document` could not serve (422 naming `/condition/…`, as a targeting rule's
    /// condition is validated): an unknown operator or segment, a `$regex` outside the safe subset.
    static func checkAudience(_ audience: JSONValue, in document: PolicyDocument) throws(ProblemDetails) {
        let problems = RolloutAudience.problems(audience, segments: document.segmentsByName)
        guard !problems.isEmpty else { return }
        throw ProblemDetails(
            status: .unprocessableContent, type: RequestProblem.validationType,
            title: "The rollout's audience is not valid",
            detail: "\(problems.count) problem\(problems.count == 1 ? "" : "s") in the audience; nothing was changed",
            errors: problems.map {
                FieldProblem(
                    pointer: JSONPointer(tokens: ["condition"] + $0.pointer.tokens).description, code: $0.code.rawValue,
                    detail: $0.message)
            })
    }

    /// The governance settings of the environment a rollout ramps.
    private func governance(_ app: String, environment: String) throws -> GovernanceGate.Settings {
        guard let settings = try apps.environment(app: app, name: environment) else {
            throw ChangeRequestProblem.unknownEnvironment(environment, app: app)
        }
        return settings.governance
    }

    /// Content gate (docs/rollouts.md): the new arm's copy must have no lint error in any locale. Throws 422
    /// `rollout-content` naming each error's pointer in `document` (the first step's policy).
    private func contentGate(_ document: PolicyDocument, experimentKey: String) throws {
        guard let index = document.experiments.firstIndex(where: { $0.key == experimentKey }) else { return }
        let prefix = "/experiments/\(index)/variants/"
        let errors = PublishChecks.lintCheckers.lint(document).filter {
            $0.severity == .error && $0.pointer.description.hasPrefix(prefix)
        }
        if !errors.isEmpty { throw AdminProblem.rolloutContentErrors(errors) }
    }

    private func operateLocked(
        _ operation: RolloutMachine.Operation, rollout: Rollout, actor: String, now: Int64,
        verdict: GovernanceGate.Verdict = .allowed
    ) throws -> Rollout {
        if operation == .start, rollout.state.status == .draft {
            let live = try served(rollout.appID, environment: rollout.environment)
            try contentGate(
                try candidate(for: .publishStep(0), of: rollout, live: live), experimentKey: rollout.experimentKey)
        }
        let arms = try repository.arms(of: rollout)
        let transition: (state: RolloutState, action: RolloutMachine.Action?)
        do {
            transition = try RolloutMachine.apply(
                operation, to: rollout.state, now: now, rolloutExposed: arms.rollout.exposed)
        } catch {
            throw ProblemDetails(status: .conflict, detail: "\(error)")
        }
        mayHaveActive.store(true, ordering: .releasing)
        var next = rollout
        next.state = transition.state
        if operation == .start {
            next.baseRevision = store.snapshot(app: rollout.appID, environment: rollout.environment)?.revision
        }
        // What allowed a start on an environment that requires approvals goes into its audit record.
        var authorityDetail = JSONObject()
        if case .allowedBy(let authority) = verdict {
            switch authority {
            case .writer: break
            case .bypass:
                authorityDetail["bypass"] = .bool(true)
                logger.warning(
                    "rollout started without an approved plan (bypass)",
                    ["app": rollout.appID, "environment": rollout.environment, "by": actor],
                    numbers: ["rollout": Double(rollout.id)])
            case .changeRequest(let id): authorityDetail["changeRequest"] = .integer(Int(id))
            }
        }
        if let action = transition.action {
            try publish(action, of: next, actor: actor, now: now, reading: nil, extra: authorityDetail)
        }
        try repository.save(next, at: now)
        logger.info(
            "rollout \(operation.rawValue)",
            ["app": rollout.appID, "by": actor, "status": next.state.status.rawValue],
            numbers: ["rollout": Double(rollout.id)])
        return next
    }

    // MARK: - Guard evaluation

    /// Evaluates every running, paused or approval-waiting rollout at the clock's time and carries out what the
    /// state machine decides. Returns how many rollouts changed state. Failures are logged; the next evaluation
    /// retries.
    @discardableResult
    package func evaluateAll() -> Int {
        guard mayHaveActive.load(ordering: .acquiring) else { return 0 }
        let now = clock.milliseconds
        let active: [Rollout]
        do {
            active = try repository.active()
        } catch {
            logger.error("rollout evaluation failed", ["error": "\(error)"])
            return 0
        }
        if active.isEmpty {
            // An operator request in between sets it back to true after this store, under the same lock.
            serial.withLock { _ in
                if (try? repository.active().isEmpty) == true { mayHaveActive.store(false, ordering: .releasing) }
            }
            return 0
        }
        var changed = 0
        for rollout in active {
            do {
                if try serial.withLock({ _ in try evaluateLocked(rollout.id, rollout: rollout, now: now) }) {
                    changed += 1
                }
            } catch {
                logger.error(
                    "rollout evaluation failed", ["app": rollout.appID, "error": "\(error)"],
                    numbers: ["rollout": Double(rollout.id)])
            }
        }
        return changed
    }

    private func evaluateLocked(_ id: Int64, rollout stale: Rollout, now: Int64) throws -> Bool {
        // Re-read under the lock: an operator request may have changed it since the list was read.
        guard let rollout = try repository.rollout(id: id, appID: stale.appID, environment: stale.environment) else {
            return false
        }
        let observation = try repository.observation(of: rollout)
        evaluations.add()
        let evaluation = RolloutMachine.evaluate(
            rollout.state, plan: rollout.plan, observation: observation, now: now,
            carvable: RolloutCarveOut.carvableDimensions(rollout.change))
        guard evaluation.state != rollout.state || !evaluation.actions.isEmpty else { return false }
        var next = rollout
        next.state = evaluation.state
        next.lastReading = evaluation.reading.jsonValue
        next.lastEvaluatedAt = now
        var notices: [RolloutRepository.Notice] = []
        let budget = evaluation.reading.findings.contains(.harmBudgetExceeded)
        for action in evaluation.actions {
            switch action {
            case .publishStep, .rollBack, .complete, .abort, .excludeSegments:
                try publish(action, of: next, actor: Self.guardActor, now: now, reading: evaluation.reading)
            case .hold(let findings, let reading):
                notices.append(
                    notice(
                        "rollout.held", of: next, findings: findings, reading: reading,
                        events: [.rolloutHeld]
                            + (budget && findings.contains(.harmBudgetExceeded)
                                ? [.rolloutBudgetExceeded] : [])))
            case .warn(let findings, let reading):
                notices.append(
                    notice(
                        "rollout.warned", of: next, findings: findings, reading: reading,
                        events: budget && findings.contains(.harmBudgetExceeded) ? [.rolloutBudgetExceeded] : []))
            }
        }
        try repository.save(next, at: now, notices: notices)
        for action in evaluation.actions {
            let fields = ["app": rollout.appID, "environment": rollout.environment]
            let numbers = ["rollout": Double(rollout.id)]
            switch action {
            case .rollBack(let reading):
                guardTrips.add()
                if reading.findings.contains(.harmBudgetExceeded) { budgetExceeded.add() }
                // The publication enqueued `rollout.guardTripped` (and `revision.published`) webhook deliveries in
                // its transaction, beside the audit record; the metric counts it.
                logger.warning(
                    "rollout guard tripped",
                    fields.merging(["findings": reading.findings.map(\.rawValue).joined(separator: ",")]) { $1 },
                    numbers: numbers)
            case .hold(let findings, _):
                holds.add()
                if findings.contains(.harmBudgetExceeded) { budgetExceeded.add() }
                logger.warning(
                    "rollout held",
                    fields.merging(["findings": findings.map(\.rawValue).joined(separator: ",")]) { $1 },
                    numbers: numbers)
            case .warn(let findings, _):
                warnings.add()
                if findings.contains(.harmBudgetExceeded) { budgetExceeded.add() }
                logger.warning(
                    "rollout warning",
                    fields.merging(["findings": findings.map(\.rawValue).joined(separator: ",")]) { $1 },
                    numbers: numbers)
            case .excludeSegments(let segments, _):
                segmentExclusions.add(UInt64(segments.count))
                logger.warning(
                    "rollout segment excluded",
                    fields.merging(["segments": segments.map(\.description).joined(separator: ",")]) { $1 },
                    numbers: numbers)
            case .publishStep, .complete, .abort:
                logger.info(
                    "rollout advanced", fields.merging(["status": next.state.status.rawValue]) { $1 },
                    numbers: numbers.merging(["step": Double(next.state.step)]) { $1 })
            }
        }
        if evaluation.actions.isEmpty {
            logger.info(
                "rollout advanced", ["app": rollout.appID, "status": next.state.status.rawValue],
                numbers: ["rollout": Double(rollout.id), "step": Double(next.state.step)])
        }
        return true
    }

    /// The audit record and webhook payload of a hold or warning: the rollout, what was found and the figures.
    private func notice(
        _ action: String, of rollout: Rollout, findings: [RolloutReading.Finding], reading: RolloutReading,
        events: [WebhookEventType]
    ) -> RolloutRepository.Notice {
        RolloutRepository.Notice(
            actor: Self.guardActor, action: action,
            detail: .object(
                JSONObject([
                    ("app", .string(rollout.appID)), ("environment", .string(rollout.environment)),
                    ("rollout", .integer(Int(rollout.id))), ("experiment", .string(rollout.experimentKey)),
                    ("action", .string(action)), ("status", .string(rollout.state.status.rawValue)),
                    ("findings", .array(findings.map { .string($0.rawValue) })), ("figures", reading.jsonValue),
                ])),
            events: events)
    }

    // MARK: - Publishing

    /// Publishes what `action` asks for `rollout` through the policy store (no revision when the live document is
    /// already that), with its audit record.
    private func publish(
        _ action: RolloutMachine.Action, of rollout: Rollout, actor: String, now: Int64, reading: RolloutReading?,
        extra: JSONObject = JSONObject()
    ) throws {
        let live = try served(rollout.appID, environment: rollout.environment)
        let document = try candidate(for: action, of: rollout, live: live)
        guard JSONDiff.changes(from: live.document.jsonValue, to: document.jsonValue).isEmpty == false else { return }
        let lintStrict = try apps.lintStrict(app: rollout.appID, environment: rollout.environment) ?? false
        let findings = try PublishChecks.check(
            document, canonicalSize: document.jsonValue.serializedBytes().count, lintStrict: lintStrict)
        var detail = JSONObject([
            ("rollout", .integer(Int(rollout.id))), ("experiment", .string(rollout.experimentKey)),
            ("environment", .string(rollout.environment)), ("status", .string(rollout.state.status.rawValue)),
        ])
        let auditAction: String
        // Every rollout revision is a publish; a guard trip and a completion are also their own event types.
        var events: [WebhookEventType] = [.revisionPublished]
        switch action {
        case .publishStep(let step):
            auditAction = "rollout.step"
            detail["step"] = .integer(step)
            detail["percent"] = .number(rollout.plan.guardedSteps[step].percent)
        case .rollBack(let reading):
            auditAction = "rollout.guardTripped"
            events.append(.rolloutGuardTripped)
            if reading.findings.contains(.harmBudgetExceeded) { events.append(.rolloutBudgetExceeded) }
            detail["baseRevision"] = rollout.baseRevision.map { .integer($0) } ?? .null
        case .complete:
            auditAction = "rollout.complete"
            events.append(.rolloutCompleted)
            if rollout.audience != nil {
                detail["rule"] = .string(RolloutAudience.ruleName(experimentKey: rollout.experimentKey))
            }
        case .abort: auditAction = "rollout.abort"
        case .excludeSegments(let segments, _):
            auditAction = "rollout.segmentExcluded"
            events.append(.rolloutSegmentExcluded)
            detail["segments"] = .array(segments.map(\.jsonValue))
            detail["rules"] = .array(
                segments.map { .string(RolloutCarveOut.ruleName(experimentKey: rollout.experimentKey, segment: $0)) })
        case .hold, .warn:
            return
        }
        for (key, value) in extra { detail[key] = value }
        if let reading { detail["figures"] = reading.jsonValue }
        if !findings.isEmpty { detail["lint"] = .array(findings.map(\.jsonValue)) }
        try store.commit(
            app: rollout.appID, environment: rollout.environment, document: document, author: actor,
            action: auditAction, message: "rollout \(rollout.id): \(auditAction)", precondition: nil,
            auditDetail: .object(detail), events: events)
    }

    /// The live document after `action`: the rollout's experiment at the step (added or replaced), removed
    /// (rollback, abort), or removed with its change merged into the feature (complete: RFC 7396, as concluding an
    /// experiment with a winner does) — or, for a rollout with an audience, added as the targeting rule
    /// ``RolloutAudience/completionRule(experimentKey:audience:change:)`` after the feature's other rules
    /// (``RolloutAudience/ordered(_:experimentKey:audienceRule:keepRules:)``). Carved-out segments
    /// (``RolloutState/excludedSegments``) keep their targeting rules
    /// (``RolloutCarveOut/keepRule(segment:change:base:feature:experimentKey:)``, limited to the audience) while the
    /// rollout is served and after completion; a rollback or abort removes them with the experiment. 422 listing
    /// the problems when the result is not a valid policy.
    private func candidate(for action: RolloutMachine.Action, of rollout: Rollout, live: ServedPolicy) throws
        -> PolicyDocument
    {
        var json = live.document.jsonValue
        var experiments = (json["experiments"]?.arrayValue ?? []).filter {
            $0["key"]?.stringValue != rollout.experimentKey
        }
        var keepRules: [JSONValue] = []
        var audienceRule: JSONValue?
        switch action {
        case .publishStep(let step):
            experiments.append(rollout.experiment(step: step))
        case .excludeSegments:
            experiments.append(rollout.experiment(step: rollout.state.step))
        case .rollBack, .abort, .hold, .warn:
            break
        case .complete:
            if let audience = rollout.audience {
                // Only the audience got the change: it stays theirs, as a rule (docs/rollouts.md, "Audience").
                audienceRule = RolloutAudience.completionRule(
                    experimentKey: rollout.experimentKey, audience: audience, change: rollout.servedChange)
            } else {
                json = json.mergePatch(
                    ["features": .object(JSONObject([(rollout.feature.rawValue, rollout.servedChange)]))])
            }
        }
        if case .object(var root) = json {
            root["experiments"] = .array(experiments)
            json = .object(root)
        }
        switch action {
        case .publishStep, .excludeSegments, .complete:
            if !rollout.state.excludedSegments.isEmpty {
                // Old texts as the live policy without the rollout's experiment and rules gives them (before
                // completion merged the change).
                var stripped = live.document.jsonValue
                Self.setRules(of: rollout.feature, in: &stripped) {
                    $0.filter { !RolloutAudience.isOwnRule($0, experimentKey: rollout.experimentKey) }
                }
                if case .object(var root) = stripped {
                    root["experiments"] = .array(
                        (root["experiments"]?.arrayValue ?? []).filter {
                            $0["key"]?.stringValue != rollout.experimentKey
                        })
                    stripped = .object(root)
                }
                if let document = PolicyValidator.validate(stripped).document {
                    keepRules = rollout.state.excludedSegments.compactMap {
                        RolloutCarveOut.keepRule(
                            segment: $0, change: rollout.change, base: document, feature: rollout.feature,
                            experimentKey: rollout.experimentKey
                        ).map { RolloutAudience.scoped($0, to: rollout.audience) }
                    }
                }
            }
        default: break
        }
        Self.setRules(of: rollout.feature, in: &json) { rules in
            RolloutAudience.ordered(
                rules, experimentKey: rollout.experimentKey, audienceRule: audienceRule, keepRules: keepRules)
        }
        let validation = PolicyValidator.validate(json)
        guard let document = validation.document else {
            let count = validation.problems.count
            throw AdminProblem.invalidPolicy(
                validation.problems,
                detail: "\(count) problem\(count == 1 ? "" : "s") in the policy the rollout would publish (pointers "
                    + "refer to it; the change is the rollout variant's set); nothing was changed")
        }
        return document
    }

    /// Rewrites the `targeting` array of `feature` in `json` (left out when it becomes empty and was absent).
    private static func setRules(
        of feature: Feature, in json: inout JSONValue, _ transform: ([JSONValue]) -> [JSONValue]
    ) {
        guard case .object(var root) = json, case .object(var features) = root["features"] ?? .null,
            case .object(var entry) = features[feature.rawValue] ?? .null
        else { return }
        let before = entry["targeting"]?.arrayValue
        let after = transform(before ?? [])
        if before == nil && after.isEmpty { return }
        entry["targeting"] = .array(after)
        features[feature.rawValue] = .object(entry)
        root["features"] = .object(features)
        json = .object(root)
    }

    /// The live policy of the environment a rollout ramps (a rollout of staging starts from, and publishes to,
    /// staging's live document).
    private func served(_ app: String, environment: String) throws -> ServedPolicy {
        guard let snapshot = store.snapshot(app: app, environment: environment) else {
            if store.unavailability(app: app, environment: environment) != nil {
                throw ProblemDetails(
                    status: .conflict,
                    detail:
                        "environment \"\(environment)\" of app \"\(app)\" is not being served; a rollout needs its live policy"
                )
            }
            throw PolicyStoreProblem.unknownApp(app)
        }
        return snapshot
    }
}
