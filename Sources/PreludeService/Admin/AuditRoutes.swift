import PreludeCore
import PreludeHTTP
import PreludeStore

/// The audit log's endpoints, holding the audit log, the apps (an environment's existence) and the policy writer
/// (the 404 naming what is missing).
struct AuditRoutes: AdminRouteCollection {
    let audit: AuditLog
    let apps: PolicyRepository
    let writer: PolicyWriter

    /// Every action the audit log records (docs/admin.md, "Audit"): the values `?action=` accepts.
    static let actions = [
        "app.create", "app.delete", "app.seed", "app.settings", "policy.replace", "policy.import", "policy.rollback",
        "feature.create", "feature.replace", "feature.patch", "feature.delete", "experiment.create",
        "experiment.replace", "experiment.patch", "experiment.delete", "experiment.start", "experiment.stop",
        "experiment.conclude", "rollout.step", "rollout.guardTripped", "rollout.complete", "rollout.abort",
        "rollout.held", "rollout.warned", "rollout.segmentExcluded", "rollout.templateSaved", "rollout.templateDeleted",
        "environment.create", "environment.settings", "promotion",
        "token.create", "token.revoke", "token.bootstrap", "changeRequest.create", "changeRequest.edit",
        "changeRequest.submit", "changeRequest.approve", "changeRequest.reject", "changeRequest.cancel",
        "changeRequest.schedule", "changeRequest.scheduleFailed", "changeRequest.rebase", "changeRequest.stale",
        "changeRequest.apply",
        "webhook.create", "webhook.update", "webhook.delete", "webhook.redeliver",
    ]

    /// `GET /v1/admin/audit?app=&environment=&action=&since=&until=&limit=&cursor=` and
    /// `GET /v1/admin/apps/{app}/environments/{env}/audit`: newest first, paged.
    func register(on group: inout AdminRouteGroup) {
        group.add(
            .get, "/v1/admin/audit",
            query: ["app", "environment", "action", "since", "until", "limit", "cursor"]
        ) { [self] context in
            try auditPage(
                context,
                AuditLog.Filter(
                    app: context.request.queryValue("app"), environment: context.request.queryValue("environment")))
        }
        // One environment's trail: what a token limited to that environment may read.
        group.add(
            .get, "/v1/admin/apps/{app}/environments/{env}/audit",
            query: ["action", "since", "until", "limit", "cursor"]
        ) { [self] context in
            guard try apps.environment(app: context.parameter("app"), name: context.environment) != nil else {
                throw try writer.missing(context.target)
            }
            return try auditPage(
                context, AuditLog.Filter(app: context.parameter("app"), environment: context.environment))
        }
    }

    private func auditPage(_ context: Context, _ scope: AuditLog.Filter) throws -> HTTPResponse {
        let request = context.request
        let limit = try AdminAPI.integerQuery(request, "limit", default: 50, range: 1...500)
        var filter = scope
        if let environment = filter.environment, !EnvironmentName.isValid(environment) {
            throw AdminProblem.invalidRequest(
                "'environment' must be an environment name (\(EnvironmentName.rule)), not '\(environment)'",
                pointer: "/query/environment")
        }
        filter.before = try AdminAPI.cursor(request)
        filter.action = try AdminQuery.enumValue(request, "action", among: Self.actions)
        for name in ["since", "until"] {
            guard let text = request.queryValue(name) else { continue }
            guard let time = AdminTime.parse(text) else {
                throw AdminProblem.invalidRequest(
                    "'\(name)' must be an ISO 8601 time (2026-11-22T12:00:00Z), a date (2026-11-22) or epoch milliseconds, not '\(text)'"
                )
            }
            if name == "since" { filter.since = time } else { filter.until = time }
        }
        let rows = try audit.entries(matching: filter, limit: limit + 1)
        let entries = rows.prefix(limit).map { entry -> JSONValue in
            var object = JSONObject()
            object["id"] = .integer(Int(entry.id))
            object["time"] = .string(AdminTime.iso8601(entry.occurredAt))
            object["actor"] = .string(entry.actor)
            object["app"] = entry.app.map(JSONValue.string) ?? .null
            object["environment"] = entry.environment.map(JSONValue.string) ?? .null
            object["action"] = .string(entry.action)
            object["revision"] = entry.revision.map { .integer(Int($0)) } ?? .null
            object["detail"] = (try? JSONValue(parsing: entry.detail)) ?? .null
            return .object(object)
        }
        let next: JSONValue = rows.count > limit ? entries.last?["id"].map { .string("\($0)") } ?? .null : .null
        return AdminResponse.json(["entries": .array(entries), "nextCursor": next], pretty: context.pretty)
    }
}
