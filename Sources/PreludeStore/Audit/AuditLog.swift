import PreludeCore
import PreludeStorage

/// The `audit_log` table: who changed what, when. The only writer of the table (every other repository appends
/// through ``append(_:actor:app:environment:action:revision:detail:at:)`` inside its own transaction, so an audited change and
/// its record commit together), and the reader behind `GET /v1/admin/audit`.
package struct AuditLog: Sendable {
    /// One audit record as stored.
    package struct Entry: Sendable, Equatable {
        /// Its id: increasing, the paging cursor.
        package var id: Int64
        /// When, milliseconds since the Unix epoch.
        package var occurredAt: Int64
        /// Who (a token name, or `system`).
        package var actor: String
        /// The app concerned; nil for token actions.
        package var app: String?
        /// The environment concerned; nil for token and whole-app actions.
        package var environment: String?
        /// What was done (`policy.replace`, `token.create`, ...).
        package var action: String
        /// The revision it made or concerned, if any.
        package var revision: Int64?
        /// The detail as stored (JSON text).
        package var detail: String

        /// A record with every field given.
        package init(
            id: Int64, occurredAt: Int64, actor: String, app: String?, environment: String?, action: String,
            revision: Int64?, detail: String
        ) {
            self.id = id
            self.occurredAt = occurredAt
            self.actor = actor
            self.app = app
            self.environment = environment
            self.action = action
            self.revision = revision
            self.detail = detail
        }
    }

    /// Which records ``entries(matching:limit:)`` returns; nil members do not filter.
    package struct Filter: Sendable, Equatable {
        /// Only records with an id below this (the previous page's last id).
        package var before: Int64?
        /// Only records of this app.
        package var app: String?
        /// Only records of this environment.
        package var environment: String?
        /// Only records of this action.
        package var action: String?
        /// Only records at or after this time (ms).
        package var since: Int64?
        /// Only records before this time (ms).
        package var until: Int64?

        /// A filter; every member defaults to "any".
        package init(
            before: Int64? = nil, app: String? = nil, environment: String? = nil, action: String? = nil,
            since: Int64? = nil, until: Int64? = nil
        ) {
            self.before = before
            self.app = app
            self.environment = environment
            self.action = action
            self.since = since
            self.until = until
        }
    }

    /// The database holding `audit_log`.
    package let database: Database

    /// An audit log over an open, migrated database.
    package init(database: Database) { self.database = database }

    /// Appends one record on `db`, inside the caller's transaction.
    package static func append(
        _ db: Connection, actor: String, app: String?, environment: String?, action: String, revision: Int64?,
        detail: JSONValue, at now: Int64
    ) throws {
        try db.statement(
            """
            INSERT INTO audit_log (occurred_at, actor, app_id, environment, action, revision, detail)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """
        ).execute([
            .integer(now), .text(actor), app.map(SQLValue.text) ?? .null, environment.map(SQLValue.text) ?? .null,
            .text(action), revision.map(SQLValue.integer) ?? .null, .text(detail.serialized()),
        ])
    }

    /// The records matching `filter`, newest first, at most `limit`.
    package func entries(matching filter: Filter, limit: Int) throws -> [Entry] {
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        if let before = filter.before {
            conditions.append("id < ?")
            arguments.append(.integer(before))
        }
        if let app = filter.app {
            conditions.append("app_id = ?")
            arguments.append(.text(app))
        }
        if let environment = filter.environment {
            conditions.append("environment = ?")
            arguments.append(.text(environment))
        }
        if let action = filter.action {
            conditions.append("action = ?")
            arguments.append(.text(action))
        }
        if let since = filter.since {
            conditions.append("occurred_at >= ?")
            arguments.append(.integer(since))
        }
        if let until = filter.until {
            conditions.append("occurred_at < ?")
            arguments.append(.integer(until))
        }
        let condition = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let rows = try database.read { db in
            try db.query(
                "SELECT id, occurred_at, actor, app_id, environment, action, revision, detail FROM audit_log \(condition) ORDER BY id DESC LIMIT ?",
                arguments + [.integer(Int64(limit))])
        }
        return try rows.map(Self.entry)
    }

    /// The records of rollout `id` of `app` (`rollout.*` actions whose detail names it), oldest first: its steps
    /// and guard decisions, for the rollout's page (docs/rollouts.md, "The rollout's page").
    package func rolloutRecords(app: String, rollout id: Int64) throws -> [Entry] {
        let rows = try database.read { db in
            try db.query(
                """
                SELECT id, occurred_at, actor, app_id, environment, action, revision, detail FROM audit_log
                WHERE app_id = ? AND action LIKE 'rollout.%' AND \(Self.detailMember("rollout", db)) = ? ORDER BY id
                """, [.text(app), db.engine == .sqlite ? .integer(id) : .text(String(id))])
        }
        return try rows.map(Self.entry)
    }

    /// The SQL reading member `name` of a record's JSON detail: SQLite's `json_extract` (an SQL value of the
    /// member's type), PostgreSQL's `->>` (text).
    private static func detailMember(_ name: String, _ db: Connection) -> String {
        db.engine == .sqlite ? "json_extract(detail, '$.\(name)')" : "(CAST(detail AS jsonb) ->> '\(name)')"
    }

    /// A record from a row of the columns the two readers select.
    private static func entry(_ row: Row) throws -> Entry {
        Entry(
            id: try row.get("id", as: Int64.self), occurredAt: try row.get("occurred_at", as: Int64.self),
            actor: try row.get("actor", as: String.self), app: try row.get("app_id", as: String?.self),
            environment: try row.get("environment", as: String?.self),
            action: try row.get("action", as: String.self), revision: try row.get("revision", as: Int64?.self),
            detail: try row.get("detail", as: String.self))
    }

    /// The coverage experiment `key` of `app` in `environment` had before its last `experiment.stop` (the stop's detail keeps it),
    /// or nil when it was never stopped.
    package func coverageBeforeLastStop(app: String, environment: String, experiment key: String) throws -> Double? {
        try database.read { db in
            try db.scalar(
                """
                SELECT \(db.engine == .sqlite
                    ? "json_extract(detail, '$.previousCoverage')"
                    : "CAST(CAST(detail AS jsonb) ->> 'previousCoverage' AS DOUBLE PRECISION)") FROM audit_log
                WHERE app_id = ? AND environment = ? AND action = 'experiment.stop'
                    AND \(Self.detailMember("experiment", db)) = ?
                ORDER BY id DESC LIMIT 1
                """, [.text(app), .text(environment), .text(key)], as: Double?.self)
        } ?? nil
    }
}
