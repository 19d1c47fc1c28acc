import PreludeCore
import PreludeHTTP
import PreludeStore

/// The environment endpoints, holding the apps as stored (an app's environments), the live policies (what each
/// serves; an environment's creation), the policy writer (404 for what is missing) and the change requests (the
/// settings gate).
struct EnvironmentRoutes: AdminRouteCollection {
    let apps: PolicyRepository
    let store: PolicyStore
    let writer: PolicyWriter
    let changes: ChangeRequests

    /// `GET`/`POST /v1/admin/apps/{app}/environments` and `GET`/`PATCH`/`PUT
    /// /v1/admin/apps/{app}/environments/{env}`: list, create, show and change the settings of an app's environments.
    /// Each write is audited (`environment.create`, `environment.settings`); loosening the governance of an environment
    /// that requires approvals needs the `bypass` capability (else 403 `settings-approval-required`: propose it as a
    /// change request of kind settings), and every settings change is told to webhooks as `environment.updated`.
    func register(on group: inout AdminRouteGroup) {
        group.add(.get, "/v1/admin/apps/{app}/environments", query: []) { [self] context in
            let app = context.parameter("app")
            guard let list = try apps.environments(app: app) else { throw PolicyStoreProblem.unknownApp(app) }
            // A token limited to some environments sees those.
            let visible = list.filter { context.token.grant.covers(app: app, environment: $0.name) }
            return AdminResponse.json(
                ["app": .string(app), "environments": .array(visible.map(environmentJSON))], pretty: context.pretty)
        }
        group.add(.post, "/v1/admin/apps/{app}/environments", query: [], maxBodySize: 4096) { [self] context in
            let app = context.parameter("app")
            let body = try AdminRequestBody.parse(context.request)
            let request = try Self.environmentRequest(body)
            for name in [request.name] + (request.copyFrom.map { [$0] } ?? []) {
                try AdminAPI.checkGrant(context.token, app: app, environment: name)
            }
            var detail = JSONObject([("environment", .string(request.name))])
            if let source = request.copyFrom { detail["copyFrom"] = .string(source) }
            try store.createEnvironment(
                app: app, name: request.name, copyFrom: request.copyFrom, author: context.token.name,
                auditDetail: .object(detail))
            var settings = try currentEnvironment(PolicyStore.Key(app: app, environment: request.name))
            if !request.settings.isEmpty {
                // A new environment required nothing a moment ago: its first settings loosen nothing.
                settings =
                    try changes.updateSettings(
                        app: app, environment: request.name, change: request.settings, authority: .writer,
                        by: AdminAPI.actor(context)
                    ).after
            }
            context.logger.info(
                "environment created", ["app": app, "environment": request.name, "by": context.token.name])
            var response = AdminResponse.json(environmentJSON(settings), pretty: context.pretty, status: .created)
            response.headers.set("Location", "/v1/admin/apps/\(app)/environments/\(request.name)")
            return response
        }
        group.add(.get, "/v1/admin/apps/{app}/environments/{env}", query: []) { [self] context in
            let settings = try currentEnvironment(context.target)
            return AdminResponse.json(environmentJSON(settings), pretty: context.pretty, headers: etag(context.target))
        }
        for method in [HTTPMethod.patch, .put] {
            group.add(method, "/v1/admin/apps/{app}/environments/{env}", query: [], maxBodySize: 4096) {
                [self] context in
                let target = context.target
                let body: JSONValue
                if method == .patch {
                    body = try AdminRequestBody.parse(
                        context.request, accepting: [AdminRequestBody.mergePatch, AdminRequestBody.json])
                } else {
                    body = try AdminRequestBody.parse(context.request)
                }
                let change = try AdminAPI.settingsChange(body, complete: method == .put)
                let before = try currentEnvironment(target)
                var after = before
                if !change.isEmpty {
                    // Loosening a gated environment needs `bypass` (or a change request of kind settings); the gate
                    // is judged in the write's transaction (docs/change-management.md, "Who may do what").
                    after =
                        try changes.updateSettings(
                            app: target.app, environment: target.environment, change: change,
                            authority: AdminAPI.mayBypass(context.token) ? .bypass : .writer,
                            by: AdminAPI.actor(context)
                        ).after
                    context.logger.info(
                        "environment settings changed",
                        ["app": target.app, "environment": target.environment, "by": context.token.name])
                }
                var object = environmentJSON(after).objectValue ?? JSONObject()
                object["changed"] = .bool(after != before)
                return AdminResponse.json(.object(object), pretty: context.pretty, headers: etag(target))
            }
        }
    }

    /// The stored environment; 404 for an unknown app or environment.
    private func currentEnvironment(_ target: PolicyStore.Key) throws -> EnvironmentSettings {
        try Self.settings(target, apps: apps, writer: writer)
    }

    /// ``currentEnvironment(_:)`` for a route that holds `apps` and `writer` (a promotion's source).
    static func settings(_ target: PolicyStore.Key, apps: PolicyRepository, writer: PolicyWriter) throws
        -> EnvironmentSettings
    {
        guard let settings = try apps.environment(app: target.app, name: target.environment) else {
            throw try writer.missing(target)
        }
        return settings
    }

    /// The `ETag` of the environment's live policy (what its policy writes and promotions into it need in
    /// `If-Match`), when it serves one.
    private func etag(_ target: PolicyStore.Key) -> HTTPHeaders {
        var headers = HTTPHeaders()
        if let live = store.snapshot(app: target.app, environment: target.environment) {
            headers.set("ETag", live.etag.headerValue)
        }
        return headers
    }

    /// `{"app", "name", "liveRevision", "etag", "status", "requiredApprovals", "allowSelfApproval", "lintStrict",
    /// "revisionCount", "createdAt", "updatedAt"}`; `status` is `served`, `empty` (no revision yet) or
    /// `unavailable` (with `reason`).
    private func environmentJSON(_ settings: EnvironmentSettings) -> JSONValue {
        let live = store.snapshot(app: settings.app, environment: settings.name)
        var object = JSONObject()
        object["app"] = .string(settings.app)
        object["name"] = .string(settings.name)
        object["liveRevision"] = (live?.revision ?? settings.liveRevision).map { .integer($0) } ?? .null
        object["etag"] = live.map { .string($0.etag.headerValue) } ?? .null
        if live != nil {
            object["status"] = "served"
        } else if settings.liveRevision == nil {
            object["status"] = "empty"
        } else {
            object["status"] = "unavailable"
            if let reason = store.unavailability(app: settings.app, environment: settings.name)?.reason {
                object["reason"] = .string(reason)
            }
        }
        object["requiredApprovals"] = .integer(settings.requiredApprovals)
        object["allowSelfApproval"] = .bool(settings.allowSelfApproval)
        object["lintStrict"] = .bool(settings.lintStrict)
        object["revisionCount"] = .integer(settings.revisionCount)
        object["createdAt"] = .string(AdminTime.iso8601(settings.createdAt))
        object["updatedAt"] = .string(AdminTime.iso8601(settings.updatedAt))
        return .object(object)
    }

    /// A body of `POST …/environments`: the name, the environment to copy the live policy from, and settings.
    private struct EnvironmentRequest {
        var name: String
        var copyFrom: String?
        var settings: EnvironmentSettings.Change
    }

    /// `{"name": "staging", "copyFrom": "production", "requiredApprovals": 1, ...}`; every problem at once.
    private static func environmentRequest(_ body: JSONValue) throws(ProblemDetails) -> EnvironmentRequest {
        guard case .object(let object) = body else {
            throw AdminProblem.invalidRequest(
                "the body must be an object {\"name\": \"staging\", \"copyFrom\": \"production\", ...settings}",
                pointer: "", code: "type.mismatch", status: .unprocessableContent)
        }
        var problems: [FieldProblem] = []
        let name = object["name"]?.stringValue
        if let name {
            if !EnvironmentName.isValid(name) {
                problems.append(
                    FieldProblem(
                        pointer: "/name", code: "environment.invalidName",
                        detail: "an environment name is \(EnvironmentName.rule)"
                    ))
            }
        } else {
            problems.append(
                FieldProblem(pointer: "/name", code: "member.missing", detail: "a string 'name' is required"))
        }
        var copyFrom: String?
        if let value = object["copyFrom"], !value.isNull {
            if let source = value.stringValue, EnvironmentName.isValid(source) {
                copyFrom = source
            } else {
                problems.append(
                    FieldProblem(
                        pointer: "/copyFrom", code: "value.invalid", detail: "copyFrom names an existing environment"))
            }
        }
        var settings = JSONObject()
        for (key, value) in object.members where key != "name" && key != "copyFrom" { settings[key] = value }
        var change = EnvironmentSettings.Change()
        do {
            change = try AdminAPI.settingsChange(.object(settings), complete: false)
        } catch {
            problems += error.errors
        }
        guard problems.isEmpty, let name else {
            throw AdminAPI.invalid(problems, consequence: "no environment was created")
        }
        return EnvironmentRequest(name: name, copyFrom: copyFrom, settings: change)
    }
}
