import PreludeCore
import PreludeHTTP
import PreludeStore

/// The one way the admin routes change an environment's policy, and what they ask of its live revision: every route
/// that edits a policy (whole, a feature, an experiment, a promotion, a rollback, a change request applied) reads
/// the live snapshot here, checks `If-Match`, and commits through ``write(_:app:ifMatch:context:action:status:extraDetail:message:extraBody:events:)``
/// — validated as a whole, size- and lint-checked, audited, one revision.
struct PolicyWriter: Sendable {
    /// The live policies; every write goes through them.
    let store: PolicyStore
    /// The apps and revisions as stored (an unservable live document, lint mode, whether an app exists).
    let apps: PolicyRepository
    /// Change requests: the environments' approval rules a direct write obeys.
    let changes: ChangeRequests

    typealias Context = AdminAPI.Context

    /// The live policy of `context`'s environment read, changed by `edit` and written (the routes that change one
    /// part of a policy: a feature, an experiment): `If-Match` checked first, then `body` read, then the live
    /// snapshot (409 when it cannot be served), then `edit` given both.
    func splice<Body>(
        _ context: Context, reading body: () throws -> Body, _ edit: (Body, ServedPolicy) throws -> Splice
    ) throws -> HTTPResponse {
        let app = context.parameter("app")
        let ifMatch = try requireIfMatch(context, app: app)
        let body = try body()
        let splice = try edit(body, try servedPolicy(context.target))
        return try write(
            splice.document, app: app, ifMatch: ifMatch, context: context, action: splice.action,
            status: splice.status, extraDetail: splice.detail)
    }

    /// ``splice(_:reading:_:)`` for a route without a body.
    func splice(_ context: Context, _ edit: (ServedPolicy) throws -> Splice) throws -> HTTPResponse {
        try splice(context, reading: {}) { _, snapshot in try edit(snapshot) }
    }

    /// What a splice makes of the live policy: the whole new document, the audit action, the status of the answer
    /// and the audit detail.
    struct Splice {
        var document: JSONValue
        var action: String
        var status: HTTPStatus = .ok
        var detail = JSONObject()
    }

    /// Validates `candidate` as the whole new policy of `app` and commits it through the policy store: refused
    /// (422 with every problem, 412 on a stale `If-Match`) without changing anything, or one new revision with
    /// its audit record (`action`, the token's name, the diff summary) in one transaction.
    ///
    /// A candidate equal to the live policy (after canonicalisation) creates no revision: 200 with `changed: false`.
    ///
    /// `message` replaces the request's `?message=`; `extraBody` members are added to the response body.
    func write(
        _ candidate: JSONValue, app: String, ifMatch: String, context: Context, action: String,
        status: HTTPStatus = .ok, extraDetail: JSONObject = JSONObject(), message explicitMessage: String? = nil,
        extraBody: JSONObject = JSONObject(), events: [WebhookEventType] = [.revisionPublished]
    ) throws -> HTTPResponse {
        let target = PolicyStore.Key(app: app, environment: context.environment)
        let live = try knownApp(target)
        // One read of the environment's settings serves the approval gate and the strict-lint check.
        let rules = try changes.rules(app: target.app, environment: target.environment)
        let extraDetail = try approvalCheck(
            target, rules: rules, context: context, action: action, extraDetail: extraDetail)
        let (document, canonical) = try validatedCandidateAndCanonicalJSON(
            candidate,
            consequence: " (pointers refer to the app's policy document after the change); nothing was changed")
        let changes = JSONDiff.changes(from: try liveJSON(target), to: canonical)
        if changes.isEmpty, let live {
            guard live.matchesIfMatch(ifMatch) else { throw PolicyStoreProblem.preconditionFailed(current: live) }
            return writeResponse(
                live, changes: [], changed: false, lint: PublishChecks.lintCheckers.lint(document),
                pretty: context.pretty, status: .ok, extraBody: extraBody)
        }
        // The checks every publishing path shares (size, strict lint: docs/admin.md, "One set of checks").
        let prepared = ServedPolicy.PreparedDocument(canonical: canonical.serializedBytes())
        let findings = try PublishChecks.check(
            document, canonicalSize: prepared.canonical.count, lintStrict: rules.lintStrict)
        var detail = JSONDiff.summary(changes).objectValue ?? JSONObject()
        if !findings.isEmpty { detail["lint"] = .array(findings.map(\.jsonValue)) }
        for (key, value) in extraDetail { detail[key] = value }
        let message = try explicitMessage ?? AdminAPI.message(context.request)
        if let message { detail["message"] = .string(message) }
        let snapshot = try store.commit(
            app: app, environment: target.environment, document: document, author: context.token.name, action: action,
            message: message, precondition: RevisionPrecondition(ifMatch: ifMatch), auditDetail: .object(detail),
            events: events, prepared: prepared)
        context.logger.info(
            "policy changed",
            ["app": app, "environment": target.environment, "action": action, "by": context.token.name],
            numbers: ["revision": Double(snapshot.revision)])
        // A text a running experiment's variant overrides changes nothing for that arm: say so (docs/admin.md).
        let overrides = VariantCopyOverride.find(old: live?.document, new: document).map { found -> JSONValue in
            [
                "code": "experiment.overridesCopy", "pointer": .string(found.pointer(in: document).description),
                "experiment": .string(found.experiment), "variant": .string(found.variant),
                "detail": .string(found.message),
            ]
        }
        // Which findings the live policy already had: a first edit is not answered with findings it did not cause.
        let earlier = live.map { Set(PublishChecks.lintCheckers.lint($0.document)) }
        return writeResponse(
            snapshot, changes: changes, changed: true, lint: findings, pretty: context.pretty, status: status,
            findings: overrides, extraBody: extraBody, earlierLint: earlier)
    }

    /// Refuses a direct write to an environment whose `rules` require approvals (409 `approval-required`, naming the
    /// change-request path), unless the token has the `bypass` capability: then the write goes through, its audit
    /// detail says `bypass: true` with the approvals it skipped, and the log warns (docs/change-management.md).
    /// Returns `extraDetail` with those members added.
    func approvalCheck(
        _ target: PolicyStore.Key, rules: EnvironmentRules, context: Context, action: String, extraDetail: JSONObject
    ) throws -> JSONObject {
        guard rules.approval.requiresChangeRequest else { return extraDetail }
        guard AdminAPI.mayBypass(context.token) else {
            throw ChangeRequestProblem.approvalRequired(
                app: target.app, environment: target.environment, required: rules.approval.requiredApprovals)
        }
        var detail = extraDetail
        detail["bypass"] = .bool(true)
        detail["requiredApprovals"] = .integer(rules.approval.requiredApprovals)
        context.logger.warning(
            "policy written without approval (bypass)",
            ["app": target.app, "environment": target.environment, "action": action, "by": context.token.name])
        return detail
    }

    /// `{"app", "revision", "etag", "changed", "changes", "lint", "findings"}` with the new `ETag`; `lint` lists the
    /// findings of the policy now live, each `{"ruleId", "severity", "pointer", "message"}` as `prelude policy lint
    /// --json` and the validate endpoint give them, plus `preexisting` when `earlierLint` (the findings of the
    /// policy the write replaced) is given: true for a finding the replaced policy had too; `findings` the changed
    /// texts a running experiment's variant overrides, each `{"code", "pointer", "experiment", "variant",
    /// "detail"}` (``VariantCopyOverride``).
    func writeResponse(
        _ snapshot: ServedPolicy, changes: [JSONDiff.Change], changed: Bool, lint: [LintFinding], pretty: Bool,
        status: HTTPStatus, findings: [JSONValue] = [], extraBody: JSONObject = JSONObject(),
        earlierLint: Set<LintFinding>? = nil
    ) -> HTTPResponse {
        let lintJSON = lint.map { finding -> JSONValue in
            guard let earlierLint, case .object(var object) = finding.jsonValue else { return finding.jsonValue }
            object["preexisting"] = .bool(earlierLint.contains(finding))
            return .object(object)
        }
        var body: JSONValue = [
            "app": .string(snapshot.appID), "environment": .string(snapshot.environment),
            "revision": .integer(snapshot.revision),
            "etag": .string(snapshot.etag.headerValue), "changed": .bool(changed),
            "changes": JSONDiff.jsonValue(changes), "lint": .array(lintJSON),
            "findings": .array(findings),
        ]
        if !extraBody.isEmpty, case .object(var object) = body {
            for (key, value) in extraBody { object[key] = value }
            body = .object(object)
        }
        return AdminResponse.json(body, pretty: pretty, status: status, headers: ["ETag": snapshot.etag.headerValue])
    }

    /// The request's `If-Match` (all field lines joined, RFC 9110 §5.3), or 428 naming the current ETag
    /// (RFC 6585 §3): every write must say which revision it was based on.
    ///
    /// A value that does not name the live revision is refused here with 412, before the body is read, parsed,
    /// validated or linted (RFC 9110 §13.2.1: preconditions are evaluated before the method's work). The store
    /// checks again inside its write lock, so a revision committed in between still makes the write stale.
    func requireIfMatch(_ context: Context, app: String) throws(ProblemDetails) -> String {
        let values = context.request.headers.values(for: "If-Match")
        guard values.isEmpty else {
            let joined = values.joined(separator: ", ")
            try AdminAPI.checkEntityTags(joined)
            let environment = context.environment
            if let live = store.snapshot(app: app, environment: environment) {
                guard live.matchesIfMatch(joined) else { throw PolicyStoreProblem.preconditionFailed(current: live) }
            } else if store.unavailability(app: app, environment: environment) != nil,
                !ETag.parseList(joined).isWildcard
            {
                // An app whose live revision cannot be served has no current ETag: only `*` matches.
                throw PolicyStoreProblem.preconditionFailed(current: nil)
            }
            return joined
        }
        let current = store.snapshot(app: app, environment: context.environment)
        var headers = HTTPHeaders()
        if let current { headers.set("ETag", current.etag.headerValue) }
        let policyPath =
            context.environment == EnvironmentName.production
            ? "/v1/admin/apps/\(app)/policy" : "/v1/admin/apps/\(app)/environments/\(context.environment)/policy"
        throw ProblemDetails(
            status: .preconditionRequired,
            detail: "this write needs If-Match with the ETag of the policy it is based on"
                + (current.map { " (now \($0.etag.headerValue)); GET \(policyPath) shows it" } ?? ""),
            headers: headers)
    }

    /// Whether the environment refuses writes with lint errors (`environments.lint_strict`, migration 0011); 404 for
    /// an unknown app or environment.
    func lintStrict(_ target: PolicyStore.Key) throws -> Bool {
        guard let flag = try apps.lintStrict(app: target.app, environment: target.environment) else {
            throw try missing(target)
        }
        return flag
    }

    /// The live document as canonical JSON, the stored text of an unservable one (null for an environment without
    /// a revision), or 404 for an unknown app or environment.
    func liveJSON(_ target: PolicyStore.Key) throws -> JSONValue {
        if let snapshot = store.snapshot(app: target.app, environment: target.environment) {
            return snapshot.canonicalJSON
        }
        guard let text = try apps.liveDocument(app: target.app, environment: target.environment) else {
            guard try apps.liveRevision(app: target.app, environment: target.environment) != nil else {
                throw try missing(target)
            }
            return .null
        }
        return (try? JSONValue(parsing: text)) ?? .null
    }

    /// The stored text of the environment's live revision; 404 when the app or environment is unknown (or has none).
    func storedLiveDocument(_ target: PolicyStore.Key) throws -> String {
        guard let text = try apps.liveDocument(app: target.app, environment: target.environment) else {
            throw try missing(target)
        }
        return text
    }

    /// 404 for an unknown app, or for an unknown environment of a known one.
    func missing(_ target: PolicyStore.Key) throws -> ProblemDetails {
        try apps.app(target.app) == nil
            ? PolicyStoreProblem.unknownApp(target.app)
            : PolicyStoreProblem.unknownEnvironment(app: target.app, environment: target.environment)
    }

    /// The live snapshot of the app's environment; 404 for an unknown app or environment, 409 for one whose live revision cannot be served (the
    /// routes that edit part of a policy need one; replacing the whole policy does not).
    func servedPolicy(_ target: PolicyStore.Key) throws -> ServedPolicy {
        let app = target.app
        guard let snapshot = store.snapshot(app: app, environment: target.environment) else {
            if let unavailable = store.unavailability(app: app, environment: target.environment) {
                let path =
                    target.environment == EnvironmentName.production
                    ? "/v1/admin/apps/\(app)/policy" : "/v1/admin/apps/\(app)/environments/\(target.environment)/policy"
                throw ProblemDetails(
                    status: .conflict,
                    detail: "\(target.environment == EnvironmentName.production ? "app" : "environment") "
                        + "\"\(target)\" is not being served (\(unavailable.reason)); replace the whole policy with "
                        + "PUT \(path) and If-Match: *")
            }
            throw try missing(target)
        }
        return snapshot
    }

    /// The live snapshot of the app's environment, nil when it exists but its live revision cannot be served (or it
    /// has none yet); 404 for an unknown app or environment.
    func knownApp(_ target: PolicyStore.Key) throws -> ServedPolicy? {
        let live = store.snapshot(app: target.app, environment: target.environment)
        if live == nil, store.unavailability(app: target.app, environment: target.environment) == nil {
            throw try missing(target)
        }
        return live
    }

    /// `candidate` as a valid document; else 422 listing every problem, the count followed by `consequence`.
    func validatedCandidate(_ candidate: JSONValue, consequence: String) throws -> PolicyDocument {
        try validatedCandidateAndCanonicalJSON(candidate, consequence: consequence).document
    }

    /// ``validatedCandidate(_:consequence:)`` with the document's canonical JSON (`document.jsonValue`), which the
    /// validation built: a write diffs, sizes and stores it without building it again.
    func validatedCandidateAndCanonicalJSON(_ candidate: JSONValue, consequence: String) throws -> (
        document: PolicyDocument, canonical: JSONValue
    ) {
        let validation = PolicyValidator.validate(candidate)
        guard let document = validation.document else {
            let count = validation.problems.count
            throw AdminProblem.invalidPolicy(
                validation.problems, detail: "\(count) problem\(count == 1 ? "" : "s")" + consequence)
        }
        return (document, validation.canonicalJSON ?? document.jsonValue)
    }
}
