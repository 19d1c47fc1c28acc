import PreludeCore
import PreludeHTTP
import PreludeStorage
import PreludeStore

/// Change requests that carry an environment's settings or a rollout's plan instead of a policy document
/// (docs/change-management.md, "What a change request can carry"): the same state machine, approvals, schedule and
/// audit; applying one changes the settings or starts the rollout.
extension ChangeRequests {
    /// Proposes new settings for `app`'s `environment` (a `settings` request): `{"requiredApprovals": 0, ...}`
    /// as the reviewers will read it. Its author's approval never counts.
    package func proposeSettings(
        app: String, environment: String, change: EnvironmentSettings.Change, message: String?, submit: Bool,
        by actor: Actor
    ) throws -> ChangeRequestRecord {
        precondition(!change.isEmpty, "validated by the caller")
        return try propose(
            .settings, app: app, environment: environment, payload: change.jsonValue, message: message,
            submit: submit, by: actor)
    }

    /// Proposes the plan of draft rollout `id` of `app`'s `environment` (a `rollout` request): applying it once
    /// approved starts the rollout. 404 for an unknown rollout, 409 when it is not a draft or a request for it is
    /// already open.
    package func proposeRollout(
        app: String, environment: String, rollout id: Int64, message: String?, submit: Bool, by actor: Actor
    ) throws -> ChangeRequestRecord {
        _ = try rules(app: app, environment: environment)
        guard let rollout = try rollouts.repository.rollout(id: id, appID: app, environment: environment) else {
            throw AdminProblem.notFound("app \"\(app)\" has no rollout \(id) in environment \"\(environment)\"")
        }
        guard rollout.state.status == .draft else {
            throw ProblemDetails(
                status: .conflict, type: ChangeRequestProblem.wrongStateType,
                title: "The rollout is not a draft",
                detail: "rollout \(id) is \(rollout.state.status.rawValue): only a draft's plan can be proposed; "
                    + "nothing was changed")
        }
        if let open = try openRolloutRequest(app: app, environment: environment, rollout: id) {
            throw ProblemDetails(
                status: .conflict, type: ChangeRequestProblem.wrongStateType,
                title: "The rollout's plan is already proposed",
                detail: "change request \(open) already carries rollout \(id)'s plan; nothing was changed")
        }
        return try propose(
            .rollout, app: app, environment: environment, payload: Self.plan(of: rollout),
            message: message ?? "rollout \(id) of \(rollout.feature.rawValue)", submit: submit, by: actor)
    }

    /// The open (not final, not stale) `rollout` request carrying rollout `id`'s plan, if any.
    package func openRolloutRequest(app: String, environment: String, rollout id: Int64) throws -> Int64? {
        try repository.list(
            app: app, environment: environment, states: [.draft, .review, .approved], limit: 200
        ).first { record in
            record.kind == .rollout && (try? JSONValue(parsing: record.document))?["rollout"]?.intValue == Int(id)
        }?.id
    }

    /// What a `rollout` request carries for its reviewers: `{"rollout", "experimentKey", "feature", "set",
    /// "condition"?, "plan"}` (the audience only when the rollout has one).
    static func plan(of rollout: Rollout) -> JSONValue {
        .object(
            JSONObject(
                [
                    ("rollout", .integer(Int(rollout.id))), ("experimentKey", .string(rollout.experimentKey)),
                    ("feature", .string(rollout.feature.rawValue)), ("set", rollout.change),
                ] + (rollout.audience.map { [("condition", $0)] } ?? []) + [("plan", rollout.plan.jsonValue)]))
    }

    /// Applies a `settings` or `rollout` request: refused unless approved under the environment's rules now
    /// (``ChangeRequestMachine/apply(_:rules:liveRevision:bypass:)``; neither kind goes stale). A settings request
    /// changes the settings, its audit record (`changeRequest.apply`) holding the before and after values, in the
    /// transaction that marks it applied; a rollout request starts the rollout, then is marked applied.
    func applyGovernance(_ record: ChangeRequestRecord, bypass: Bool, by actor: Actor) throws -> Applied {
        let rules = try rules(for: record)
        // Not based on a revision: pass its own base so the machine never finds it stale.
        _ = try machine {
            try ChangeRequestMachine.apply(
                record.status, rules: rules.approval, liveRevision: record.baseRevision, bypass: bypass)
        }
        let approved =
            record.state == .approved
            && rules.approval.isSatisfied(by: record.approvals.map(\.approver), author: record.author)
        let authority: GovernanceGate.Authority = approved ? .changeRequest(record.id) : .bypass
        let now = clock.milliseconds
        var applied = record
        applied.status = ChangeRequestMachine.applied(record.status)
        let changes = try diff(record)
        let notice = ChangeRequestRepository.Notice(.changeRequestApplied) { [self] stored in
            event(stored, action: "changeRequest.apply", by: actor, changes: changes).jsonValue
        }
        switch record.kind {
        case .policy: preconditionFailure("a policy request is applied by apply(_:bypass:by:)")
        case .settings:
            let change = try Self.settingsChange(record)
            do {
                _ = try updateSettings(
                    app: record.app, environment: record.environment, change: change, action: "changeRequest.apply",
                    authority: authority, by: actor,
                    applying: ChangeRequestRepository.Application(record, notice: notice, at: now))
                applied.version += 1
                applied.updatedAt = now
            } catch ChangeRequestRepository.Refusal.changed(let id) {
                throw ChangeRequestProblem.changed(id: id, current: nil, status: .conflict)
            }
            logger.info(
                "settings change request applied", ["app": record.app, "environment": record.environment],
                numbers: ["changeRequest": Double(record.id)])
        case .rollout:
            guard let id = (try? JSONValue(parsing: record.document))?["rollout"]?.intValue else {
                throw ChangeRequestProblem.wrongKind(id: record.id, kind: record.kind, action: "applied")
            }
            // Start first: a rollout that cannot start (aborted meanwhile, another one live) leaves the request
            // approved, and the refusal says why.
            _ = try rollouts.operate(
                .start, id: Int64(id), appID: record.app, environment: record.environment, actor: actor.name,
                authority: authority)
            var detail = JSONObject()
            detail["rollout"] = .integer(id)
            if authority == .bypass { detail["bypass"] = .bool(true) }
            applied = try save(applied, action: "changeRequest.apply", by: actor, detail: detail)
        }
        return Applied(
            record: applied, snapshot: store.snapshot(app: record.app, environment: record.environment),
            changes: changes)
    }

    /// The settings a `settings` request sets, as stored.
    static func settingsChange(_ record: ChangeRequestRecord) throws -> EnvironmentSettings.Change {
        let object = (try? JSONValue(parsing: record.document))?.objectValue ?? JSONObject()
        return EnvironmentSettings.Change(
            requiredApprovals: object["requiredApprovals"]?.intValue.map {
                min(max($0, 0), EnvironmentSettings.maximumApprovals)
            },
            allowSelfApproval: object["allowSelfApproval"]?.boolValue, lintStrict: object["lintStrict"]?.boolValue)
    }

    /// Stores a new request of `kind` carrying `payload`, not based on a revision, with its audit record and
    /// `changeRequest.created` deliveries.
    private func propose(
        _ kind: ChangeRequestKind, app: String, environment: String, payload: JSONValue, message: String?,
        submit: Bool, by actor: Actor
    ) throws -> ChangeRequestRecord {
        let rules = try rules(app: app, environment: environment)
        let status = ChangeRequestMachine.create(
            author: actor.name, baseRevision: nil, submit: submit, rules: kind.rules(rules.approval))
        var detail = JSONObject()
        if let message { detail["message"] = .string(message) }
        let notice = creationNotice(by: actor)
        let record = try storing {
            try repository.create(
                app: app, environment: environment, kind: kind, status: status, document: payload.serialized(),
                patch: nil, changes: nil, authorTokenID: actor.tokenID, message: message, findings: "[]",
                detail: detail,
                notice: notice, at: clock.milliseconds)
        }
        logger.info(
            "change request created",
            [
                "app": app, "environment": environment, "by": actor.name, "kind": kind.rawValue,
                "state": record.state.rawValue,
            ], numbers: ["changeRequest": Double(record.id)])
        return record
    }
}
