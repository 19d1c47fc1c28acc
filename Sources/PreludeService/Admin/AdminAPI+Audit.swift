import PreludeCore
import PreludeHTTP
import PreludeStorage

extension AdminAPI {
    /// Every action the audit log records (docs/admin.md, "Audit"): the values `?action=` accepts.
    static let auditActions = [
        "app.create", "app.delete", "app.seed", "app.settings", "policy.replace", "policy.import", "policy.rollback",
        "feature.create", "feature.replace", "feature.patch", "feature.delete", "experiment.create",
        "experiment.replace", "experiment.patch", "experiment.delete", "experiment.start", "experiment.stop",
        "experiment.conclude",
        "token.create", "token.revoke", "token.bootstrap",
    ]

    /// `GET /v1/admin/audit?app=&action=&since=&until=&limit=&cursor=`: newest first, paged.
    func registerAuditRoutes(on router: inout Router) {
        add(&router, .get, "/v1/admin/audit", query: ["app", "action", "since", "until", "limit", "cursor"]) {
            [self] context in
            let request = context.request
            let limit = try Self.integerQuery(request, "limit", default: 50, range: 1...500)
            var conditions: [String] = []
            var arguments: [SQLValue] = []
            if let before = try Self.cursor(request) {
                conditions.append("id < ?")
                arguments.append(.integer(before))
            }
            if let app = request.queryValue("app") {
                conditions.append("app_id = ?")
                arguments.append(.text(app))
            }
            if let action = try AdminQuery.enumValue(request, "action", among: Self.auditActions) {
                conditions.append("action = ?")
                arguments.append(.text(action))
            }
            for (name, comparison) in [("since", ">="), ("until", "<")] {
                guard let text = request.queryValue(name) else { continue }
                guard let time = AdminTime.parse(text) else {
                    throw AdminProblem.invalidRequest(
                        "'\(name)' must be an ISO 8601 time (2026-11-22T12:00:00Z), a date (2026-11-22) or epoch milliseconds, not '\(text)'"
                    )
                }
                conditions.append("occurred_at \(comparison) ?")
                arguments.append(.integer(time))
            }
            let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            let rows = try database.read { db in
                try db.query(
                    "SELECT id, occurred_at, actor, app_id, action, revision, detail FROM audit_log \(filter) ORDER BY id DESC LIMIT ?",
                    arguments + [.integer(Int64(limit + 1))])
            }
            let entries = try rows.prefix(limit).map { row -> JSONValue in
                var object = JSONObject()
                object["id"] = .integer(Int(try row.get("id", as: Int64.self)))
                object["time"] = .string(AdminTime.iso8601(try row.get("occurred_at", as: Int64.self)))
                object["actor"] = .string(try row.get("actor", as: String.self))
                object["app"] = try row.get("app_id", as: String?.self).map(JSONValue.string) ?? .null
                object["action"] = .string(try row.get("action", as: String.self))
                object["revision"] = try row.get("revision", as: Int64?.self).map { .integer(Int($0)) } ?? .null
                object["detail"] = (try? JSONValue(parsing: try row.get("detail", as: String.self))) ?? .null
                return .object(object)
            }
            let next: JSONValue = rows.count > limit ? entries.last?["id"].map { .string("\($0)") } ?? .null : .null
            return AdminResponse.json(["entries": .array(entries), "nextCursor": next], pretty: context.pretty)
        }
    }
}
