import PreludeCore
import PreludeHTTP
import PreludeStorage
import PreludeStore

/// Change management (docs/change-management.md): every operation on change requests, shared by the admin API, the
/// scheduler and `prelude changes`. Each one reads the request, asks ``ChangeRequestMachine`` what may happen, runs
/// the same checks as a direct write, and stores the result with its audit record in one transaction
/// (``ChangeRequestRepository``). Applying publishes exactly one revision through the policy store's one publish
/// path (``PublishChecks``, then ``PolicyStore/commit(app:environment:document:author:action:message:precondition:auditDetail:events:applying:prepared:)``),
/// in the same transaction that marks the request applied.
///
/// Refusals are thrown as ``PreludeHTTP/ProblemDetails`` (``ChangeRequestProblem``), the admin API's answer.
package final class ChangeRequests: Sendable {
    /// Who does something: a token's name and id (`cli` and `scheduler` have no token).
    package struct Actor: Sendable, Equatable {
        /// The name recorded as author, approver or audit actor.
        package var name: String
        /// The token's id.
        package var tokenID: Int64?

        /// An actor.
        package init(name: String, tokenID: Int64?) {
            self.name = name
            self.tokenID = tokenID
        }

        /// The primary's scheduler, applying a scheduled request.
        package static let scheduler = Actor(name: "scheduler", tokenID: nil)
    }

    /// What a request proposes: a whole document, or a JSON Merge Patch (RFC 7396) applied to the base revision.
    package enum Proposal: Sendable, Equatable {
        /// The whole new policy document.
        case document(JSONValue)
        /// A merge patch of the base document.
        case patch(JSONValue)
    }

    /// The store every publish goes through.
    package let store: PolicyStore
    /// Apps and revisions as stored.
    let policies: PolicyRepository
    /// The change requests.
    package let repository: ChangeRequestRepository
    /// The environments' rules.
    let rules: EnvironmentRules.Source
    /// The rollouts a `rollout` request starts when applied.
    package let rollouts: RolloutController
    /// Proposals this process validated and linted, reused by apply and show.
    package let checked = CheckedProposals()
    /// Audit and schedule times.
    let clock: ServiceClock
    let logger: Logger

    /// Change management over the change requests and apps of `repositories`, publishing through `store`.
    /// `rollouts` is the process's one rollout controller (its operations are serialised there); nil makes one
    /// (the command line).
    package init(
        repositories: Store, store: PolicyStore, rules: EnvironmentRules.Source? = nil, clock: ServiceClock = .system,
        logger: Logger, rollouts: RolloutController? = nil
    ) {
        self.rollouts =
            rollouts ?? RolloutController(repositories: repositories, store: store, clock: clock, logger: logger)
        self.store = store
        policies = repositories.policies
        repository = repositories.changeRequests
        self.rules = rules ?? EnvironmentRules.stored(repositories.policies)
        self.clock = clock
        self.logger = logger
    }

    // MARK: - Reading

    /// The rules of `app`'s `environment`; 404 for an unknown app or environment.
    package func rules(app: String, environment: String) throws -> EnvironmentRules {
        guard let found = try rules(app, environment) else {
            throw ChangeRequestProblem.unknownEnvironment(environment, app: app)
        }
        return found
    }

    /// The approval rules `record` follows now: its environment's, as its kind applies them
    /// (``ChangeRequestKind/rules(_:)``), with the environment's other rules.
    package func rules(for record: ChangeRequestRecord) throws -> (
        environment: EnvironmentRules, approval: ApprovalRules
    ) {
        let rules = try rules(app: record.app, environment: record.environment)
        return (rules, record.kind.rules(rules.approval))
    }

    /// Request `id` (its path segment) of `app`'s `environment`; 404 when there is none.
    package func record(app: String, environment: String, id text: String) throws -> ChangeRequestRecord {
        _ = try rules(app: app, environment: environment)
        guard let id = Int64(text), id > 0,
            let record = try repository.record(app: app, environment: environment, id: id)
        else { throw ChangeRequestProblem.unknown(text, app: app, environment: environment) }
        return record
    }

    /// The live revision number of `app`'s environment (nil when none).
    package func liveRevision(app: String, environment: String) -> Int? {
        store.snapshot(app: app, environment: environment)?.revision
            ?? store.unavailability(app: app, environment: environment)?.revision
    }

    /// Revision `number` of `app` in canonical form (as stored when it no longer validates); nil when there is none.
    /// Diffs and merge patches start from it, so defaults spelled out or left out do not show as changes.
    package func revisionDocument(app: String, environment: String, number: Int?) throws -> JSONValue? {
        // The served revision is already validated and in memory.
        if let number, let served = store.snapshot(app: app, environment: environment), served.revision == number {
            return served.document.jsonValue
        }
        guard let number,
            let revision = try policies.revision(app: app, environment: environment, number: number) ?? nil,
            let stored = try? JSONValue(parsing: revision.document)
        else { return nil }
        return PolicyValidator.validate(stored).document?.jsonValue ?? stored
    }

    /// The request's patch against its base revision (``JSONMerge``): as stored, or, for a request stored by a build
    /// before migration 0017, derived from its base revision and its document. A `settings` or `rollout` request has
    /// no base revision: its patch is its ``diff(_:)``.
    package func patch(_ record: ChangeRequestRecord) throws -> [JSONDiff.Change] {
        guard record.kind == .policy else { return try diff(record) }
        if let text = record.changes, let stored = try? JSONValue(parsing: text),
            let patch = JSONMerge.patch(parsing: stored)
        {
            return patch
        }
        let base =
            try revisionDocument(app: record.app, environment: record.environment, number: record.baseRevision)
            ?? .null
        return JSONMerge.patch(from: base, to: (try? JSONValue(parsing: record.document)) ?? .null)
    }

    /// The changes the request makes to its base revision; for a `settings` request, to the settings it sets as
    /// they are now; for a `rollout` request, its whole plan (added).
    package func diff(_ record: ChangeRequestRecord) throws -> [JSONDiff.Change] {
        let proposed = (try? JSONValue(parsing: record.document)) ?? .null
        switch record.kind {
        case .policy: break
        case .settings:
            var current = JSONObject()
            if let settings = try policies.environment(app: record.app, name: record.environment) {
                let now = EnvironmentUpdatedEvent.json(settings.governance)
                for key in proposed.objectValue?.keys ?? [] { current[key] = now[key] ?? .null }
            }
            return JSONDiff.changes(from: .object(current), to: proposed)
        case .rollout: return JSONDiff.changes(from: .object(JSONObject()), to: proposed)
        }
        let base =
            try revisionDocument(app: record.app, environment: record.environment, number: record.baseRevision)
            ?? .null
        return JSONDiff.changes(from: base, to: (try? JSONValue(parsing: record.document)) ?? .null)
    }

    /// A schedule's instant (epoch milliseconds) from an RFC 3339 date-time (``RFC3339``: seconds and a zone required,
    /// `2026-11-26T09:00:00Z`); anything else is 422 at `/at` whose detail shows an instant an hour after `now`. A
    /// date alone, a time without a zone or without seconds is refused, never read as midnight.
    package static func instant(_ text: String, now: Int64) throws(ProblemDetails) -> Int64 {
        guard let parsed = RFC3339.milliseconds(text) else {
            throw AdminProblem.invalidRequest(
                "\"at\" must be an RFC 3339 date-time with seconds and a zone (Z or ±hh:mm), such as "
                    + "\(RFC3339.example(now: now)), not '\(text)'",
                pointer: "/at", code: "value.invalid", status: .unprocessableContent)
        }
        return parsed
    }

    /// A message, comment or reason: at most 500 characters, no control character or noncharacter (422 at
    /// `/<name>`, as every stored string); nil when absent or empty.
    package static func text(_ text: String?, name: String) throws(ProblemDetails) -> String? {
        guard let text else { return nil }
        guard text.count <= 500 else {
            throw AdminProblem.invalidRequest(
                "\"\(name)\" must be a string of at most 500 characters", pointer: "/" + name,
                code: "type.mismatch", status: .unprocessableContent)
        }
        if let problem = StoredText.problem(in: text, subject: "\"\(name)\"") {
            throw AdminProblem.invalidRequest(
                problem, pointer: "/" + name, code: "text.forbiddenCharacter", status: .unprocessableContent)
        }
        return text.isEmpty ? nil : text
    }

    // MARK: - Transitions

    /// Proposes `proposal` for `app`'s `environment`, based on its live revision: validated and checked as a
    /// direct write would be (422 with every problem; 413 too large; strict lint), stored as a draft or, with
    /// `submit`, in review (approved at once when the environment needs no approval).
    package func create(
        app: String, environment: String, proposal: Proposal, message: String?, submit: Bool, by actor: Actor
    ) throws -> ChangeRequestRecord {
        let rules = try rules(app: app, environment: environment)
        let base = liveRevision(app: app, environment: environment)
        let (document, patch, changes, findings) = try prepare(
            proposal, app: app, environment: environment, base: base, rules: rules)
        let status = ChangeRequestMachine.create(
            author: actor.name, baseRevision: base, submit: submit, rules: rules.approval)
        var detail = JSONObject()
        if let message { detail["message"] = .string(message) }
        let notice = creationNotice(by: actor)
        let record = try storing {
            try repository.create(
                app: app, environment: environment, status: status, document: document, patch: patch,
                changes: changes, authorTokenID: actor.tokenID, message: message, findings: findings, detail: detail,
                notice: notice,
                at: clock.milliseconds)
        }
        logger.info(
            "change request created",
            ["app": app, "environment": environment, "by": actor.name, "state": record.state.rawValue],
            numbers: ["changeRequest": Double(record.id)])
        return record
    }

    /// Replaces the proposal (and the message, when given): every approval and the schedule are cleared.
    /// A message alone changes only the message.
    package func edit(
        _ record: ChangeRequestRecord, proposal: Proposal?, message: String??, by actor: Actor
    ) throws -> ChangeRequestRecord {
        var next = record
        if let message { next.message = message }
        var detail = JSONObject()
        if let proposal {
            guard record.kind == .policy else {
                throw ChangeRequestProblem.wrongKind(id: record.id, kind: record.kind, action: "edited")
            }
            let rules = try rules(app: record.app, environment: record.environment)
            next.status = try machine { try ChangeRequestMachine.edit(record.status, rules: rules.approval) }
            (next.document, next.patch, next.changes, next.findings) = try prepare(
                proposal, app: record.app, environment: record.environment, base: record.baseRevision, rules: rules)
            detail["approvalsCleared"] = .integer(record.approvals.count)
        } else if record.state.isFinal {
            throw ChangeRequestProblem.problem(for: .wrongState(action: "edit", state: record.state))
        }
        return try save(next, action: "changeRequest.edit", by: actor, detail: detail)
    }

    /// `draft → review` (or `approved` where no approval is required).
    package func submit(_ record: ChangeRequestRecord, by actor: Actor) throws -> ChangeRequestRecord {
        let rules = try rules(for: record)
        var next = record
        next.status = try machine { try ChangeRequestMachine.submit(record.status, rules: rules.approval) }
        return try save(next, action: "changeRequest.submit", by: actor, detail: JSONObject())
    }

    /// One approval by `actor`, with an optional comment.
    package func approve(_ record: ChangeRequestRecord, comment: String?, by actor: Actor) throws
        -> ChangeRequestRecord
    {
        let rules = try rules(for: record)
        let status = try machine {
            try ChangeRequestMachine.approve(record.status, by: actor.name, rules: rules.approval)
        }
        var next = record
        next.approvals.append(
            ChangeRequestApproval(
                approver: actor.name, tokenID: actor.tokenID, at: clock.milliseconds, comment: comment))
        next.status = status
        var detail = JSONObject()
        if let comment { detail["comment"] = .string(comment) }
        detail["approvals"] = .integer(next.approvals.count)
        detail["requiredApprovals"] = .integer(rules.approval.requiredApprovals)
        return try save(next, action: "changeRequest.approve", by: actor, detail: detail)
    }

    /// `review`/`approved` → `rejected`, with an optional reason.
    package func reject(_ record: ChangeRequestRecord, reason: String?, by actor: Actor) throws
        -> ChangeRequestRecord
    {
        try close(record, by: ChangeRequestMachine.reject, reason: reason, actor: actor, action: "changeRequest.reject")
    }

    /// Any open state → `cancelled`, with an optional reason.
    package func cancel(_ record: ChangeRequestRecord, reason: String?, by actor: Actor) throws
        -> ChangeRequestRecord
    {
        try close(record, by: ChangeRequestMachine.cancel, reason: reason, actor: actor, action: "changeRequest.cancel")
    }

    /// Closes `record` with `transition` (a rejection or a cancellation): who closed it and why, the reason in the
    /// audit detail.
    private func close(
        _ record: ChangeRequestRecord, by transition: (ChangeRequestStatus) throws -> ChangeRequestStatus,
        reason: String?, actor: Actor, action: String
    ) throws -> ChangeRequestRecord {
        var next = record
        next.status = try machine { try transition(record.status) }
        next.closedBy = actor.name
        next.reason = reason
        var detail = JSONObject()
        if let reason { detail["reason"] = .string(reason) }
        return try save(next, action: action, by: actor, detail: detail)
    }

    /// Schedules an approved request for `instant` (ms), or clears its schedule (nil).
    package func schedule(_ record: ChangeRequestRecord, at instant: Int64?, by actor: Actor) throws
        -> ChangeRequestRecord
    {
        let rules = try rules(for: record)
        var next = record
        let now = clock.milliseconds
        next.status = try machine {
            try ChangeRequestMachine.schedule(record.status, at: instant, now: now, rules: rules.approval)
        }
        var detail = JSONObject()
        detail["scheduledAt"] = instant.map { .string(AdminTime.iso8601($0)) } ?? .null
        return try save(next, action: "changeRequest.schedule", by: actor, detail: detail)
    }

    /// Bases the request on the live revision by a three-way merge (``JSONMerge``): its patch (what it changes
    /// against its base revision, ``patch(_:)``) is re-applied to the live document, so whatever was published in
    /// between survives. Refused with 409 `rebase-conflict` naming every pointer where both changed the same member
    /// differently, and with 422 and the validator's problems when the merged document does not validate; nothing
    /// changes then. Approvals and the schedule are cleared; it goes back to review.
    package func rebase(_ record: ChangeRequestRecord, by actor: Actor) throws -> ChangeRequestRecord {
        guard record.kind == .policy else {
            throw ChangeRequestProblem.wrongKind(id: record.id, kind: record.kind, action: "re-based")
        }
        let rules = try rules(app: record.app, environment: record.environment)
        let live = liveRevision(app: record.app, environment: record.environment)
        var next = record
        next.status = try machine {
            try ChangeRequestMachine.rebase(record.status, liveRevision: live, rules: rules.approval)
        }
        let theirs = try revisionDocument(app: record.app, environment: record.environment, number: live) ?? .null
        let merged: JSONValue
        switch JSONMerge.apply(try patch(record), onto: theirs) {
        case .merged(let document): merged = document
        case .conflicts(let conflicts):
            throw ChangeRequestProblem.rebaseConflict(
                id: record.id, base: record.baseRevision, live: live, conflicts: conflicts)
        }
        (next.document, _, next.changes, next.findings) = try prepare(
            .document(merged), app: record.app, environment: record.environment, base: live, rules: rules)
        var detail = JSONObject()
        detail["from"] = record.baseRevision.map { .integer($0) } ?? .null
        detail["to"] = live.map { .integer($0) } ?? .null
        return try save(next, action: "changeRequest.rebase", by: actor, detail: detail)
    }

    /// Publishes the request as one revision, audited (`changeRequest.apply`) with the request id, its author and
    /// approvers, in the transaction that marks it applied. Refused unless approved (``ChangeRequestMachine``),
    /// with `bypass` (a token with the bypass scope) also from draft or review, audited as such. A base revision
    /// that is not live any more marks the request stale and answers 409.
    ///
    /// - Returns: the applied request, the snapshot now served and what the request changed.
    package func apply(_ record: ChangeRequestRecord, bypass: Bool, by actor: Actor) throws -> Applied {
        guard record.kind == .policy else { return try applyGovernance(record, bypass: bypass, by: actor) }
        let rules = try rules(app: record.app, environment: record.environment)
        // One snapshot for the check and the commit's precondition, so a publish in between makes the commit stale.
        let served = store.snapshot(app: record.app, environment: record.environment)
        let live = served?.revision ?? store.unavailability(app: record.app, environment: record.environment)?.revision
        let verdict = try machine {
            try ChangeRequestMachine.apply(
                record.status, rules: rules.approval, liveRevision: live, bypass: bypass)
        }
        if case .stale(let status) = verdict { throw try markStale(record, status: status, live: live, by: actor) }
        // Validated and linted when it was proposed, if by this process; checked now otherwise (another build's
        // rules may differ).
        let entry: CheckedProposals.Entry
        switch checked.check(canonical: record.document) {
        case .success(let found): entry = found
        case .failure(let failure):
            throw AdminProblem.invalidPolicy(
                failure.problems,
                detail: "the proposed document no longer validates with this build; edit the change request")
        }
        let document = entry.document
        let findings = try PublishChecks.check(
            document, canonicalSize: record.document.utf8.count, lintStrict: rules.lintStrict,
            findings: entry.findings)
        let changes = try diff(record)
        var detail = JSONDiff.summary(changes).objectValue ?? JSONObject()
        detail["changeRequest"] = .integer(Int(record.id))
        detail["environment"] = .string(record.environment)
        detail["author"] = .string(record.author)
        detail["approvers"] = .array(record.approvals.map { .string($0.approver) })
        if let message = record.message { detail["message"] = .string(message) }
        if !findings.isEmpty { detail["lint"] = .array(findings.map(\.jsonValue)) }
        let approved = rules.approval.isSatisfied(by: record.approvals.map(\.approver), author: record.author)
        if bypass, !approved || record.state != .approved {
            // Loud: the audit record says so, and the log warns.
            detail["bypass"] = .bool(true)
            detail["requiredApprovals"] = .integer(rules.approval.requiredApprovals)
            logger.warning(
                "change request applied without approval (bypass)",
                ["app": record.app, "environment": record.environment, "by": actor.name],
                numbers: ["changeRequest": Double(record.id)])
        }
        let now = clock.milliseconds
        let snapshot: ServedPolicy
        do {
            snapshot = try store.commit(
                app: record.app, environment: record.environment, document: document, author: actor.name,
                action: "changeRequest.apply",
                message: record.message ?? "change request \(record.id)",
                precondition: served.map { RevisionPrecondition(ifMatch: $0.etag.headerValue) } ?? .anyRevision,
                auditDetail: .object(detail),
                applying: ChangeRequestRepository.Application(
                    record,
                    notice: ChangeRequestRepository.Notice(.changeRequestApplied) { [self] stored in
                        // Its webhook event commits with the revision (and that revision's `revision.published`).
                        event(
                            stored, action: "changeRequest.apply", by: actor,
                            revision: stored.appliedRevision.map { (live, $0) }, changes: changes
                        ).jsonValue
                    }, at: now))
        } catch PolicyStoreError.stale {
            // Another process published in between: the base is not live any more.
            let live = liveRevision(app: record.app, environment: record.environment)
            var status = record.status
            status.state = .stale
            status.scheduledAt = nil
            throw try markStale(record, status: status, live: live, by: actor)
        } catch ChangeRequestRepository.Refusal.changed(let id) {
            throw ChangeRequestProblem.changed(id: id, current: nil, status: .conflict)
        }
        var applied = record
        applied.status = ChangeRequestMachine.applied(record.status)
        applied.appliedRevision = snapshot.revision
        applied.version += 1
        applied.updatedAt = now
        logger.info(
            "change request applied",
            ["app": record.app, "environment": record.environment, "by": actor.name],
            numbers: ["changeRequest": Double(record.id), "revision": Double(snapshot.revision)])
        return Applied(record: applied, snapshot: snapshot, changes: changes)
    }

    /// What ``apply(_:bypass:by:)`` did.
    package struct Applied: Sendable {
        /// The request, now `applied`.
        package var record: ChangeRequestRecord
        /// The policy served now: the new revision (a `settings` request publishes none: the live one, if any).
        package var snapshot: ServedPolicy?
        /// The changes the new revision made to the one it replaced (the request's base).
        package var changes: [JSONDiff.Change]
    }

    /// Records a scheduled apply that was refused for another reason than staleness (the document no longer
    /// validates, strict lint, approvals now missing): the schedule is cleared, so it is not retried every tick, and
    /// the audit record (`changeRequest.scheduleFailed`) says why.
    package func scheduleFailed(_ record: ChangeRequestRecord, problem: ProblemDetails) throws {
        var next = record
        next.scheduledAt = nil
        var detail = JSONObject()
        detail["problem"] = .string(problem.type)
        detail["detail"] = problem.detail.map(JSONValue.string) ?? .null
        _ = try save(
            next, action: "changeRequest.scheduleFailed", by: .scheduler, detail: detail,
            reason: problem.detail ?? problem.type)
    }

    // MARK: - Internals

    private func markStale(_ record: ChangeRequestRecord, status: ChangeRequestStatus, live: Int?, by actor: Actor)
        throws -> ProblemDetails
    {
        var next = record
        next.status = status
        var detail = JSONObject()
        detail["baseRevision"] = record.baseRevision.map { .integer($0) } ?? .null
        detail["liveRevision"] = live.map { .integer($0) } ?? .null
        _ = try save(next, action: "changeRequest.stale", by: actor, detail: detail)
        logger.info(
            "change request stale", ["app": record.app, "environment": record.environment],
            numbers: ["changeRequest": Double(record.id)])
        return ChangeRequestProblem.stale(id: record.id, base: record.baseRevision, live: live)
    }

    /// Stores the next version of a request with its audit record and, for the actions webhooks hear of
    /// (``ChangeRequestEvent/type(forAction:)``), its deliveries, in one transaction. `reason` replaces the
    /// request's own in the event (a refused scheduled apply).
    func save(
        _ record: ChangeRequestRecord, action: String, by actor: Actor, detail: JSONObject, reason: String? = nil
    ) throws -> ChangeRequestRecord {
        let notice = ChangeRequestEvent.type(forAction: action).map { type in
            ChangeRequestRepository.Notice(type) { [self] stored in
                var payload = event(stored, action: action, by: actor)
                if let reason { payload.reason = reason }
                return payload.jsonValue
            }
        }
        return try storing {
            try repository.save(
                record, action: action, actor: actor.name, detail: detail, notice: notice, at: clock.milliseconds)
        }
    }

    /// The webhook payload of a change to `record` (as stored after it) by `actor`.
    func event(
        _ record: ChangeRequestRecord, action: String, by actor: Actor, revision: (before: Int?, after: Int)? = nil,
        changes: [JSONDiff.Change]? = nil
    ) -> ChangeRequestEvent {
        ChangeRequestEvent(
            app: record.app, environment: record.environment, actor: actor.name, action: action, id: record.id,
            state: record.state.rawValue, version: record.version, author: record.author, message: record.message,
            baseRevision: record.baseRevision, approvers: record.approvals.map(\.approver),
            scheduledAt: record.scheduledAt.map(AdminTime.iso8601), reason: record.reason, revision: revision,
            changes: changes, kind: record.kind)
    }

    /// The `changeRequest.created` webhook notice of a request `actor` opens (any kind): built from the stored record.
    func creationNotice(by actor: Actor) -> ChangeRequestRepository.Notice {
        ChangeRequestRepository.Notice(.changeRequestCreated) { [self] stored in
            event(stored, action: "changeRequest.create", by: actor, changes: (try? diff(stored)) ?? []).jsonValue
        }
    }

    /// The canonical proposed document, the merge patch text, the request's patch against `base` (``JSONMerge``) and
    /// the lint findings (JSON text) of `proposal` over revision `base`, after the checks a direct write makes.
    private func prepare(
        _ proposal: Proposal, app: String, environment: String, base: Int?, rules: EnvironmentRules
    ) throws -> (document: String, patch: String?, changes: String, findings: String) {
        let candidate: JSONValue
        var patchText: String?
        let baseDocument = try revisionDocument(app: app, environment: environment, number: base)
        switch proposal {
        case .document(let value): candidate = value
        case .patch(let patch):
            guard let baseDocument else {
                throw AdminProblem.invalidRequest(
                    "there is no live revision to apply a merge patch to; propose a whole document",
                    pointer: "/patch", code: "patch.noBase", status: .unprocessableContent)
            }
            candidate = baseDocument.mergePatch(patch)
            patchText = patch.serialized()
        }
        let validation = PolicyValidator.validate(candidate)
        guard let document = validation.document else {
            let count = validation.problems.count
            throw AdminProblem.invalidPolicy(
                validation.problems,
                detail: "\(count) problem\(count == 1 ? "" : "s") (pointers refer to the proposed policy document); "
                    + "nothing was changed")
        }
        guard document.app.id == app else {
            throw PolicyStoreProblem.appMismatch(app: app, documentApp: document.app.id)
        }
        let canonical = document.jsonValue.serialized()
        let findings = try PublishChecks.check(
            document, canonicalSize: canonical.utf8.count, lintStrict: rules.lintStrict)
        checked.remember(canonical: canonical, document: document, findings: findings)
        let changes = JSONMerge.patch(from: baseDocument ?? .null, to: document.jsonValue)
        return (
            canonical, patchText, JSONDiff.jsonValue(changes).serialized(),
            JSONValue.array(findings.map(\.jsonValue)).serialized()
        )
    }

    /// Runs a transition of ``ChangeRequestMachine``, its refusal thrown as the problem answering it.
    func machine<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let refusal as ChangeRequestRefusal {
            throw ChangeRequestProblem.problem(for: refusal)
        }
    }

    func storing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch ChangeRequestRepository.Refusal.changed(let id) {
            throw ChangeRequestProblem.changed(id: id, current: nil, status: .conflict)
        } catch ChangeRequestRepository.Refusal.unknownApp(let app) {
            throw PolicyStoreProblem.unknownApp(app)
        }
    }
}
