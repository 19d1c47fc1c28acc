import PreludeCore
import PreludeHTTP
import PreludeStore

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

extension AdminAPI {
    /// `GET`/`PUT /v1/admin/apps/{app}/policy` and the dry run `POST /v1/admin/apps/{app}/policy/validate`.
    func registerPolicyRoutes(on group: inout AdminRouteGroup) {
        group.addEnvironmental(.get, "/policy", query: []) { [self] context in
            let app = context.parameter("app")
            guard let snapshot = store.snapshot(app: app, environment: context.environment) else {
                // An app whose live revision no longer validates: show what is stored, without an ETag (replace it
                // with If-Match: *).
                let text = try storedLiveDocument(context.target)
                return AdminResponse.json(
                    storedText: text, pretty: context.pretty, headers: ["Prelude-Policy-Status": "unavailable"])
            }
            let headers: HTTPHeaders = ["ETag": snapshot.etag.headerValue, "Cache-Control": "no-store"]
            if let notModified = ConditionalRequest.notModified(context.request, etag: snapshot.etag, headers: headers)
            {
                return notModified
            }
            return AdminResponse.json(
                storedText: String(decoding: snapshot.canonicalBytes, as: UTF8.self), pretty: context.pretty,
                headers: headers)
        }
        group.addEnvironmental(.put, "/policy", query: ["message"]) { [self] context in
            let app = context.parameter("app")
            let ifMatch = try requireIfMatch(context, app: app)
            let candidate = try AdminRequestBody.parse(context.request)
            return try write(candidate, app: app, ifMatch: ifMatch, context: context, action: "policy.replace")
        }
        // A dry run changes nothing, so a read token may use it.
        group.addEnvironmental(.post, "/policy/validate", scope: .read, query: []) { [self] context in
            let app = context.parameter("app")
            try AdminRequestBody.checkMediaType(context.request, accepting: [AdminRequestBody.json])
            let live = try liveJSON(context.target)
            let validation = PolicyValidator.validate(bytes: context.request.body)
            var problems = validation.problems
            if let document = validation.document, document.app.id != app {
                problems.append(
                    ValidationProblem(
                        JSONPointer.root.appending("app", "id"), .invalidValue,
                        "app.id must be \"\(app)\" at this address, not \"\(document.app.id)\"."))
            }
            var result = JSONObject()
            result["app"] = .string(app)
            result["valid"] = .bool(problems.isEmpty)
            result["errors"] = .array(problems.map(\.jsonValue))
            result["lint"] = .array(
                (validation.document.map(PublishChecks.lintCheckers.lint) ?? []).map(\.jsonValue))
            result["liveRevision"] =
                store.snapshot(app: app, environment: context.environment).map { .integer($0.revision) } ?? .null
            // The diff compares canonical forms, so layout and defaults spelled out do not show as changes.
            if let document = validation.document {
                let canonical = validation.canonicalJSON ?? document.jsonValue
                result["diff"] = JSONDiff.jsonValue(JSONDiff.changes(from: live, to: canonical))
            } else if let parsed = try? JSONValue(parsing: context.request.body) {
                result["diff"] = JSONDiff.jsonValue(JSONDiff.changes(from: live, to: parsed))
            } else {
                result["diff"] = .null
            }
            return AdminResponse.json(.object(result), pretty: context.pretty)
        }
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
        let extraDetail = try approvalCheck(target, context: context, action: action, extraDetail: extraDetail)
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
            document, canonicalSize: prepared.canonical.count, lintStrict: try lintStrict(target))
        var detail = JSONDiff.summary(changes).objectValue ?? JSONObject()
        if !findings.isEmpty { detail["lint"] = .array(findings.map(\.jsonValue)) }
        for (key, value) in extraDetail { detail[key] = value }
        let message = try explicitMessage ?? Self.message(context.request)
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

    /// Refuses a direct write to an environment that requires approvals (409 `approval-required`, naming the
    /// change-request path), unless the token has the `bypass` capability: then the write goes through, its audit
    /// detail says `bypass: true` with the approvals it skipped, and the log warns (docs/change-management.md).
    /// Returns `extraDetail` with those members added.
    func approvalCheck(_ target: PolicyStore.Key, context: Context, action: String, extraDetail: JSONObject) throws
        -> JSONObject
    {
        let rules = try changes.rules(app: target.app, environment: target.environment)
        guard rules.approval.requiresChangeRequest else { return extraDetail }
        guard Self.mayBypass(context.token) else {
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
            try Self.checkEntityTags(joined)
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

    /// 400 when `If-Match` is neither `*` nor a list of quoted entity tags (RFC 9110 §8.8.3: `"…"` or `W/"…"`):
    /// an unquoted tag would otherwise never match and be reported as stale.
    static func checkEntityTags(_ value: String) throws(ProblemDetails) {
        let entries = value.split(separator: ",").map { $0.trimmingWhitespace() }
        let quoted = entries.allSatisfy { entry in
            let tag = entry.hasPrefix("W/") ? entry.dropFirst(2) : Substring(entry)
            return tag.count >= 2 && tag.first == "\"" && tag.last == "\"" && !tag.dropFirst().dropLast().contains("\"")
        }
        guard value.trimmingWhitespace() == "*" || (!entries.isEmpty && quoted) else {
            throw AdminProblem.invalidRequest(
                "If-Match must be * or the ETag in double quotes, exactly as the ETag header gives it "
                    + "(If-Match: \"…\"), not \(value); nothing was changed",
                pointer: "/headers/If-Match", code: "header.invalid")
        }
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

    /// The optional `?message=` describing a change (at most 500 characters), stored on the revision.
    static func message(_ request: HTTPRequest) throws(ProblemDetails) -> String? {
        guard let message = request.queryValue("message"), !message.isEmpty else { return nil }
        guard message.count <= 500 else {
            throw AdminProblem.invalidRequest("query parameter 'message' is longer than 500 characters")
        }
        // The message is stored in the audit log and shown to people: no control characters or noncharacters.
        if let problem = StoredText.problem(in: message, subject: "The query parameter 'message'") {
            throw AdminProblem.invalidRequest(problem, pointer: "/query/message", code: "text.forbiddenCharacter")
        }
        return message
    }
}
