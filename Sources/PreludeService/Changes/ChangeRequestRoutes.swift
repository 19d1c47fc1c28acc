import PreludeCore
import PreludeHTTP
import PreludeStore

/// `/v1/admin/apps/{app}/environments/{env}/change-requests…` and its `production` alias without an environment
/// (docs/change-management.md): create, list, show (and its proposed document), edit, submit, approve, reject,
/// schedule, apply, rebase, cancel. Holds the change requests, the primary's publish scheduler (woken when a request
/// is scheduled or unscheduled) and the clock (a schedule's time read against now).
struct ChangeRequestRoutes: AdminRouteCollection {
    let changes: ChangeRequests
    let scheduler: PublishSchedulerTask
    let clock: ServiceClock

    /// The request body members each route accepts.
    private static let createMembers = ["document", "patch", "settings", "rollout", "message", "draft"]
    private static let editMembers = ["document", "patch", "message"]

    func register(on group: inout AdminRouteGroup) {
        for prefix in [
            "/v1/admin/apps/{app}/environments/{env}/change-requests", "/v1/admin/apps/{app}/change-requests",
        ] {
            registerRequestRoutes(on: &group, prefix: prefix)
            registerTransitionRoutes(on: &group, item: prefix + "/{id}")
        }
    }

    private func registerRequestRoutes(on group: inout AdminRouteGroup, prefix: String) {
        let item = prefix + "/{id}"
        group.add(.get, prefix, query: ["state", "limit", "cursor"]) { [self] context in
            let (app, environment) = Self.address(context)
            _ = try changes.rules(app: app, environment: environment)
            let limit = try AdminAPI.integerQuery(context.request, "limit", default: 50, range: 1...200)
            let states = try AdminQuery.enumValue(
                context.request, "state", among: ChangeRequestState.allCases.map(\.rawValue)
            ).flatMap(ChangeRequestState.init(rawValue:))
            let rows = try changes.repository.list(
                app: app, environment: environment, states: states.map { [$0] } ?? [],
                before: try AdminAPI.cursor(context.request), limit: limit + 1)
            let live = changes.liveRevision(app: app, environment: environment)
            let items = rows.prefix(limit).map { ChangeRequestView.summary($0, live: live) }
            let next: JSONValue = rows.count > limit ? rows[limit - 1].id.description.jsonString : .null
            return AdminResponse.json(
                ["changeRequests": .array(Array(items)), "nextCursor": next], pretty: context.pretty)
        }
        group.add(.post, prefix, query: []) { [self] context in
            let (app, environment) = Self.address(context)
            let body = try Self.changeBody(context.request, allowed: Self.createMembers, required: true)
            let draft = try Self.bool(body, "draft") ?? false
            let message = try Self.text(body, "message")
            let record: ChangeRequestRecord
            switch try Self.kindOfProposal(body) {
            case .settings:
                let change = try AdminAPI.settingsChange(body["settings"] ?? .null, complete: false)
                guard !change.isEmpty else {
                    throw AdminProblem.invalidRequest(
                        "\"settings\" must set at least one of \(AdminAPI.environmentSettings.joined(separator: ", "))",
                        pointer: "/settings", code: "value.missing", status: .unprocessableContent)
                }
                record = try changes.proposeSettings(
                    app: app, environment: environment, change: change, message: message, submit: !draft,
                    by: AdminAPI.actor(context))
            case .rollout:
                guard let id = body["rollout"]?.intValue, id > 0 else {
                    throw AdminProblem.invalidRequest(
                        "\"rollout\" is the id of a draft rollout of this environment", pointer: "/rollout",
                        code: "type.mismatch", status: .unprocessableContent)
                }
                record = try changes.proposeRollout(
                    app: app, environment: environment, rollout: Int64(id), message: message, submit: !draft,
                    by: AdminAPI.actor(context))
            case .policy:
                guard let proposal = try Self.proposal(body) else {
                    throw AdminProblem.invalidRequest(
                        "give the proposed policy as \"document\" (the whole document) or \"patch\" (a JSON Merge "
                            + "Patch of the live document), or \"settings\" or \"rollout\"", pointer: "/document",
                        code: "value.missing", status: .unprocessableContent)
                }
                record = try changes.create(
                    app: app, environment: environment, proposal: proposal, message: message, submit: !draft,
                    by: AdminAPI.actor(context))
            }
            return try respond(
                record, context, status: .created,
                location: context.request.path.split(separator: "?").first.map { "\($0)/\(record.id)" })
        }
        group.add(.get, item, query: []) { [self] context in
            try conditionalRead(context) { record, headers in
                AdminResponse.json(
                    .object(try ChangeRequestView.detail(record, changes: changes)), pretty: context.pretty,
                    headers: headers)
            }
        }
        group.add(.get, item + "/document", query: []) { [self] context in
            try conditionalRead(context) { record, headers in
                AdminResponse.json(storedText: record.document, pretty: context.pretty, headers: headers)
            }
        }
        group.add(.patch, item, query: []) { [self] context in
            let record = try changeRecord(context)
            try Self.requireChangeIfMatch(context, record, required: true)
            let body = try Self.changeBody(context.request, allowed: Self.editMembers, required: true)
            let proposal = try Self.proposal(body)
            let message: String?? = body["message"] == nil ? nil : .some(try Self.text(body, "message"))
            guard proposal != nil || message != nil else {
                throw AdminProblem.invalidRequest(
                    "give \"document\", \"patch\" or \"message\" to change", pointer: "/document",
                    code: "value.missing", status: .unprocessableContent)
            }
            let edited = try changes.edit(record, proposal: proposal, message: message, by: AdminAPI.actor(context))
            return try respond(edited, context)
        }
    }

    /// `POST …/change-requests/{id}/submit`, `approve`, `reject`, `cancel`, `schedule`, `rebase` and `apply`.
    private func registerTransitionRoutes(on group: inout AdminRouteGroup, item: String) {
        addTransition(on: &group, item + "/submit") { [self] record, _, context in
            try respond(try changes.submit(record, by: AdminAPI.actor(context)), context)
        }
        addTransition(on: &group, item + "/approve", approving: true, members: ["comment"]) {
            [self] record, body, context in
            try respond(
                try changes.approve(record, comment: try Self.text(body, "comment"), by: AdminAPI.actor(context)),
                context)
        }
        addTransition(on: &group, item + "/reject", approving: true, members: ["reason"]) {
            [self] record, body, context in
            try respond(
                try changes.reject(record, reason: try Self.text(body, "reason"), by: AdminAPI.actor(context)), context)
        }
        addTransition(on: &group, item + "/cancel", members: ["reason"]) { [self] record, body, context in
            try respond(
                try changes.cancel(record, reason: try Self.text(body, "reason"), by: AdminAPI.actor(context)), context)
        }
        addTransition(on: &group, item + "/schedule", members: ["at"], bodyRequired: true) {
            [self] record, body, context in
            let now = clock.milliseconds
            let instant: Int64?
            switch body["at"] {
            case .null: instant = nil
            case .string(let text): instant = try ChangeRequests.instant(text, now: now)
            default:
                throw AdminProblem.invalidRequest(
                    "\"at\" is required: an RFC 3339 date-time with seconds and a zone, such as "
                        + "\(RFC3339.example(now: now)), or null to unschedule",
                    pointer: "/at", code: body["at"] == nil ? "value.missing" : "type.mismatch",
                    status: .unprocessableContent)
            }
            let scheduled = try changes.schedule(record, at: instant, by: AdminAPI.actor(context))
            // The scheduler looks again now.
            scheduler.wake()
            return try respond(scheduled, context)
        }
        addTransition(on: &group, item + "/rebase") { [self] record, _, context in
            try respond(try changes.rebase(record, by: AdminAPI.actor(context)), context)
        }
        addTransition(on: &group, item + "/apply", query: ["bypass"]) { [self] record, _, context in
            let bypass = try AdminQuery.enumValue(context.request, "bypass", among: ["true", "false"]) == "true"
            if bypass { try Self.requireBypass(context) }
            let applied = try changes.apply(record, bypass: bypass, by: AdminAPI.actor(context))
            var extra = JSONObject()
            // A settings request publishes nothing; a rollout request's first step is the revision now live.
            if let snapshot = applied.snapshot, record.kind != .settings {
                extra["policy"] = [
                    "revision": .integer(snapshot.revision), "etag": .string(snapshot.etag.headerValue),
                ]
            }
            return try respond(applied.record, context, extra: extra)
        }
    }

    /// Adds `POST path`, one transition of the request addressed: with `approving` only for a token with the
    /// approve capability (whatever its scope), then the request as stored, its `If-Match` when given, and a JSON
    /// object body of `members` (an empty body is `{}` unless `bodyRequired`), handed to `transition`.
    private func addTransition(
        on group: inout AdminRouteGroup, _ path: String, approving: Bool = false, query: [String] = [],
        members: [String] = [], bodyRequired: Bool = false,
        _ transition: @escaping @Sendable (ChangeRequestRecord, JSONObject, Context) throws -> HTTPResponse
    ) {
        group.add(.post, path, scope: approving ? .read : nil, query: query) { [self] context in
            if approving { try Self.requireApprove(context) }
            let record = try changeRecord(context)
            try Self.requireChangeIfMatch(context, record, required: false)
            let body = try Self.changeBody(context.request, allowed: members, required: bodyRequired)
            return try transition(record, body, context)
        }
    }

    /// Refuses approving or rejecting with a token without the `approve` capability (403): a reviewer's token may be
    /// `read` otherwise (docs/change-management.md, "Who may do what").
    private static func requireApprove(_ context: Context) throws(ProblemDetails) {
        guard context.token.grant.approve else {
            throw ProblemDetails(
                status: .forbidden,
                detail: "approving or rejecting a change request needs a token with the approve capability "
                    + "(token \"\(context.token.name)\" has none); nothing was changed",
                headers: ["WWW-Authenticate": #"Bearer realm="prelude", error="insufficient_scope", scope="approve""#])
        }
    }

    /// Refuses `?bypass=true` for a token that may not skip approval.
    private static func requireBypass(_ context: Context) throws(ProblemDetails) {
        guard AdminAPI.mayBypass(context.token) else {
            throw ProblemDetails(
                status: .forbidden,
                detail: "applying without approval needs a write token with the bypass capability; nothing was changed",
                headers: ["WWW-Authenticate": #"Bearer realm="prelude", error="insufficient_scope", scope="bypass""#])
        }
    }

    /// The app and environment a change-request route addresses (`production` on the paths without one).
    private static func address(_ context: Context) -> (app: String, environment: String) {
        (context.parameter("app"), context.environment)
    }

    private func changeRecord(_ context: Context) throws -> ChangeRequestRecord {
        let (app, environment) = Self.address(context)
        return try changes.record(app: app, environment: environment, id: context.parameter("id"))
    }

    /// `If-Match` against the request's ETag: 412 when it names another version, 428 when `required` and absent.
    private static func requireChangeIfMatch(_ context: Context, _ record: ChangeRequestRecord, required: Bool)
        throws(ProblemDetails)
    {
        let values = context.request.headers.values(for: "If-Match")
        let current = ChangeRequestView.etag(record)
        guard !values.isEmpty else {
            guard required else { return }
            throw ProblemDetails(
                status: .preconditionRequired,
                detail: "editing a change request needs If-Match with its ETag (now \(current))",
                headers: ["ETag": current])
        }
        let joined = values.joined(separator: ", ")
        try AdminAPI.checkEntityTags(joined)
        guard ChangeRequestView.tag(record).matchesIfMatch(joined) else {
            throw ChangeRequestProblem.changed(id: record.id, current: current)
        }
    }

    /// The JSON object body: `{}` for an empty optional body; 400 naming each member not in `allowed`.
    private static func changeBody(_ request: HTTPRequest, allowed: [String], required: Bool) throws -> JSONObject {
        if request.body.isEmpty, !required { return JSONObject() }
        var reader = try RequestBodyReader(
            body: AdminRequestBody.parse(request), expected: "the body must be a JSON object")
        let unknown = reader.unknownMembers(allowed: allowed)
        reader.reportUnknown(allowed: allowed) { "unknown member '\($0)'" }
        try reader.finish { problems in
            ProblemDetails(
                status: .unprocessableContent, type: RequestProblem.validationType, title: "The request is not valid",
                detail: "unknown member\(unknown.count == 1 ? "" : "s") \(unknown.joined(separator: ", ")); "
                    + "this endpoint takes \(allowed.isEmpty ? "no body" : allowed.joined(separator: ", "))",
                errors: problems)
        }
        return reader.object
    }

    /// Which kind of request a create body proposes: `settings`, `rollout`, or a policy (`document`/`patch`); 422
    /// when it mixes them.
    private static func kindOfProposal(_ body: JSONObject) throws(ProblemDetails) -> ChangeRequestKind {
        let given = ["document", "patch", "settings", "rollout"].filter { body[$0] != nil }
        let kinds = Set(given.map { $0 == "patch" ? "document" : $0 })
        guard kinds.count <= 1 else {
            throw AdminProblem.invalidRequest(
                "give one of \"document\" or \"patch\" (a policy), \"settings\" or \"rollout\", not "
                    + given.joined(separator: " and "), pointer: "/" + (given.last ?? ""), code: "value.conflict",
                status: .unprocessableContent)
        }
        switch kinds.first {
        case "settings": return .settings
        case "rollout": return .rollout
        default: return .policy
        }
    }

    private static func proposal(_ body: JSONObject) throws(ProblemDetails) -> ChangeRequests.Proposal? {
        switch (body["document"], body["patch"]) {
        case (nil, nil): return nil
        case (.some(let document), nil):
            guard document.objectValue != nil else {
                throw AdminProblem.invalidRequest(
                    "\"document\" must be a policy document (an object)", pointer: "/document",
                    code: "type.mismatch", status: .unprocessableContent)
            }
            return .document(document)
        case (nil, .some(let patch)):
            guard patch.objectValue != nil else {
                throw AdminProblem.invalidRequest(
                    "\"patch\" must be a JSON Merge Patch object", pointer: "/patch", code: "type.mismatch",
                    status: .unprocessableContent)
            }
            return .patch(patch)
        case (.some, .some):
            throw AdminProblem.invalidRequest(
                "give either \"document\" or \"patch\", not both", pointer: "/patch", code: "value.conflict",
                status: .unprocessableContent)
        }
    }

    /// An optional text member (``ChangeRequests/text(_:name:)``); nil when absent or null.
    private static func text(_ body: JSONObject, _ name: String) throws(ProblemDetails) -> String? {
        guard let value = body[name], !value.isNull else { return nil }
        guard let text = value.stringValue else {
            throw AdminProblem.invalidRequest(
                "\"\(name)\" must be a string of at most 500 characters", pointer: "/" + name,
                code: "type.mismatch", status: .unprocessableContent)
        }
        return try ChangeRequests.text(text, name: name)
    }

    private static func bool(_ body: JSONObject, _ name: String) throws(ProblemDetails) -> Bool? {
        guard let value = body[name] else { return nil }
        guard let flag = value.boolValue else {
            throw AdminProblem.invalidRequest(
                "\"\(name)\" must be true or false", pointer: "/" + name, code: "type.mismatch",
                status: .unprocessableContent)
        }
        return flag
    }

    /// A GET of the request in `context` or of part of it: its `ETag`, 304 for a matching `If-None-Match`, else what
    /// `body` answers with those headers.
    private func conditionalRead(
        _ context: Context, body: (ChangeRequestRecord, HTTPHeaders) throws -> HTTPResponse
    ) throws -> HTTPResponse {
        let record = try changeRecord(context)
        var headers = HTTPHeaders()
        headers.set("ETag", ChangeRequestView.etag(record))
        if let notModified = ConditionalRequest.notModified(
            context.request, etag: ChangeRequestView.tag(record), headers: headers)
        {
            return notModified
        }
        return try body(record, headers)
    }

    /// The answer to a write of `record` (``ChangeRequestView/response(_:changes:pretty:status:location:extra:)``).
    private func respond(
        _ record: ChangeRequestRecord, _ context: Context, status: HTTPStatus = .ok, location: String? = nil,
        extra: JSONObject = JSONObject()
    ) throws -> HTTPResponse {
        try ChangeRequestView.response(
            record, changes: changes, pretty: context.pretty, status: status, location: location, extra: extra)
    }
}

extension String {
    fileprivate var jsonString: JSONValue { .string(self) }
}
