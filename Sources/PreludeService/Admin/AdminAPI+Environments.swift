import PreludeCore
import PreludeHTTP
import PreludeStore

extension AdminAPI {
    /// The settings an environment has (docs/change-management.md, "Environments").
    static let environmentSettings = ["requiredApprovals", "allowSelfApproval", "lintStrict"]

    /// `GET`/`POST /v1/admin/apps/{app}/environments` and `GET`/`PATCH`/`PUT
    /// /v1/admin/apps/{app}/environments/{env}`: list, create, show and change the settings of an app's environments.
    /// Each write is audited (`environment.create`, `environment.settings`); loosening the governance of an environment
    /// that requires approvals needs the `bypass` capability (else 403 `settings-approval-required`: propose it as a
    /// change request of kind settings), and every settings change is told to webhooks as `environment.updated`.
    func registerEnvironmentRoutes(on group: inout AdminRouteGroup) {
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
                try Self.checkGrant(context.token, app: app, environment: name)
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
                        by: Self.actor(context)
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
                let change = try Self.settingsChange(body, complete: method == .put)
                let before = try currentEnvironment(target)
                var after = before
                if !change.isEmpty {
                    // Loosening a gated environment needs `bypass` (or a change request of kind settings); the gate
                    // is judged in the write's transaction (docs/change-management.md, "Who may do what").
                    after =
                        try changes.updateSettings(
                            app: target.app, environment: target.environment, change: change,
                            authority: Self.mayBypass(context.token) ? .bypass : .writer, by: Self.actor(context)
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
    func currentEnvironment(_ target: PolicyStore.Key) throws -> EnvironmentSettings {
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
    func environmentJSON(_ settings: EnvironmentSettings) -> JSONValue {
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
    struct EnvironmentRequest {
        var name: String
        var copyFrom: String?
        var settings: EnvironmentSettings.Change
    }

    /// `{"name": "staging", "copyFrom": "production", "requiredApprovals": 1, ...}`; every problem at once.
    static func environmentRequest(_ body: JSONValue) throws(ProblemDetails) -> EnvironmentRequest {
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
            change = try settingsChange(.object(settings), complete: false)
        } catch {
            problems += error.errors
        }
        guard problems.isEmpty, let name else { throw invalid(problems, consequence: "no environment was created") }
        return EnvironmentRequest(name: name, copyFrom: copyFrom, settings: change)
    }

    /// The settings a body sets; with `complete` (PUT) every setting is required.
    static func settingsChange(_ body: JSONValue, complete: Bool) throws(ProblemDetails) -> EnvironmentSettings.Change {
        guard case .object(let object) = body else {
            throw AdminProblem.invalidRequest(
                "the body must be a JSON object of environment settings (\(environmentSettings.joined(separator: ", ")))",
                pointer: "", code: "type.mismatch", status: .unprocessableContent)
        }
        var problems: [FieldProblem] = []
        var change = EnvironmentSettings.Change()
        for (key, value) in object.members {
            switch key {
            case "requiredApprovals":
                if let count = value.intValue, (0...EnvironmentSettings.maximumApprovals).contains(count) {
                    change.requiredApprovals = count
                } else {
                    problems.append(
                        FieldProblem(
                            pointer: "/requiredApprovals", code: "value.outOfRange",
                            detail: "requiredApprovals is an integer from 0 to \(EnvironmentSettings.maximumApprovals)")
                    )
                }
            case "allowSelfApproval", "lintStrict":
                guard case .bool(let flag) = value else {
                    problems.append(
                        FieldProblem(pointer: "/\(key)", code: "type.mismatch", detail: "\(key) is true or false"))
                    continue
                }
                if key == "lintStrict" { change.lintStrict = flag } else { change.allowSelfApproval = flag }
            default:
                problems.append(
                    FieldProblem(
                        pointer: JSONPointer.root.appending(key).description, code: "member.unknown",
                        detail: "'\(key)' is not an environment setting; settings: "
                            + environmentSettings.joined(separator: ", ")))
            }
        }
        if complete {
            for key in environmentSettings where object[key] == nil {
                problems.append(
                    FieldProblem(
                        pointer: "/\(key)", code: "member.missing",
                        detail: "PUT replaces every setting: '\(key)' is required (PATCH changes some)"))
            }
        }
        guard problems.isEmpty else { throw invalid(problems, consequence: "nothing was changed") }
        return change
    }

    /// 422 listing `problems`, then `consequence`.
    static func invalid(_ problems: [FieldProblem], consequence: String) -> ProblemDetails {
        ProblemDetails(
            status: .unprocessableContent, type: PublicProblem.validation, title: "The request is not valid",
            detail: problems.map(\.detail).joined(separator: "; ") + "; " + consequence, errors: problems)
    }
}
