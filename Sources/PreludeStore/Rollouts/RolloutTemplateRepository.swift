import PreludeCore
import PreludeStorage

/// Every SQL statement about rollout templates (`rollout_templates`, migration 0018): named partial plans per app
/// and environment, the one named ``RolloutTemplate/floorName`` being the environment's floor.
package struct RolloutTemplateRepository: Sendable {
    /// One stored template.
    package struct Template: Sendable {
        package var name: String
        package var plan: JSONValue
        package var updatedBy: String
        package var updatedAt: Int64

        /// `{"name", "plan", "updatedBy", "updatedAt"}` (the time in Unix ms; the API renders it).
        package init(name: String, plan: JSONValue, updatedBy: String, updatedAt: Int64) {
            self.name = name
            self.plan = plan
            self.updatedBy = updatedBy
            self.updatedAt = updatedAt
        }
    }

    private let database: Database

    /// A repository over an open, migrated database.
    package init(database: Database) { self.database = database }

    /// The templates of an environment, by name.
    package func templates(appID: String, environment: String) throws -> [Template] {
        try database.read { db in
            try db.query(
                """
                SELECT name, plan, updated_by, updated_at FROM rollout_templates
                WHERE app_id = ? AND environment = ? ORDER BY name
                """, [.text(appID), .text(environment)]
            ).map(Self.decode)
        }
    }

    /// One template, or nil.
    package func template(appID: String, environment: String, name: String) throws -> Template? {
        try database.read { db in
            try db.queryOne(
                """
                SELECT name, plan, updated_by, updated_at FROM rollout_templates
                WHERE app_id = ? AND environment = ? AND name = ?
                """, [.text(appID), .text(environment), .text(name)]
            ).map(Self.decode)
        }
    }

    /// Creates or replaces a template, with its audit record (`rollout.templateSaved`) in the same transaction.
    package func save(
        appID: String, environment: String, name: String, plan: JSONValue, by actor: String, at now: Int64
    )
        throws
    {
        try database.write { db in
            try db.execute(
                """
                INSERT INTO rollout_templates (app_id, environment, name, plan, updated_by, updated_at)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (app_id, environment, name) DO UPDATE
                    SET plan = excluded.plan, updated_by = excluded.updated_by, updated_at = excluded.updated_at
                """,
                [.text(appID), .text(environment), .text(name), .text(plan.serialized()), .text(actor), .integer(now)])
            try AuditLog.append(
                db, actor: actor, app: appID, environment: environment, action: "rollout.templateSaved",
                revision: nil, detail: .object(JSONObject([("template", .string(name)), ("plan", plan)])), at: now)
        }
    }

    /// Deletes a template (with its audit record `rollout.templateDeleted`); false when there was none.
    package func delete(appID: String, environment: String, name: String, by actor: String, at now: Int64) throws
        -> Bool
    {
        try database.write { db in
            try db.execute(
                "DELETE FROM rollout_templates WHERE app_id = ? AND environment = ? AND name = ?",
                [.text(appID), .text(environment), .text(name)])
            guard db.changes > 0 else { return false }
            try AuditLog.append(
                db, actor: actor, app: appID, environment: environment, action: "rollout.templateDeleted",
                revision: nil, detail: .object(JSONObject([("template", .string(name))])), at: now)
            return true
        }
    }

    private static func decode(_ row: Row) throws -> Template {
        Template(
            name: try row.get(0, as: String.self), plan: try JSONValue(parsing: try row.get(1, as: String.self)),
            updatedBy: try row.get(2, as: String.self), updatedAt: try row.get(3, as: Int64.self))
    }
}
