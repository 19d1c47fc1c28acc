import PreludeCore
import PreludeStorage

/// A read replica's `replica_outbox`: the events it accepted and still has to forward to its primary
/// (docs/scaling.md, "Events through replicas"). ``EventIngestor`` with table `.outbox` writes it; the forwarder
/// reads the oldest batch and deletes what the primary acknowledged.
package struct ReplicaOutbox: Sendable {
    /// The oldest waiting events of one app's environment and device segment, in the primary's event body form.
    package struct Batch: Sendable, Equatable {
        /// The app they belong to.
        package var app: String
        /// The environment the clients asked.
        package var environment: String
        /// The device segment their batches were sent with (forwarded in the same request headers).
        package var segment: EventSegment = EventSegment()
        /// Their outbox row ids (to delete once acknowledged).
        package var ids: [Int64]
        /// The events as `POST /v1/apps/{app}/events` members (`id`, `installId`, `type`, ...).
        package var events: [JSONValue]
    }

    /// The database holding `replica_outbox`.
    package let database: Database

    /// An outbox over an open, migrated database.
    package init(database: Database) { self.database = database }

    /// How many events wait.
    package func count() throws -> Int {
        try database.read { try $0.scalar("SELECT count(*) FROM replica_outbox", as: Int64.self) }.map(Int.init) ?? 0
    }

    /// The oldest events of the app, environment and segment whose event is oldest, at most `limit`; nil when the
    /// outbox is empty. The segment is a batch's (request headers), so events of different segments are never
    /// forwarded together.
    package func oldestBatch(limit: Int) throws -> Batch? {
        try database.read { db in
            guard
                let oldest = try db.queryOne(
                    "SELECT app_id, environment, os_major, locale FROM replica_outbox ORDER BY id LIMIT 1")
            else { return nil }
            let app = try oldest.get("app_id", as: String.self)
            let environment = try oldest.get("environment", as: String.self)
            let segment = EventSegment(
                osMajor: try oldest.get("os_major", as: Int?.self), locale: try oldest.get("locale", as: String?.self))
            let osMajor = segment.osMajor.map { SQLValue.integer(Int64($0)) } ?? .null
            let locale = segment.locale.map(SQLValue.text) ?? .null
            // NULL-safe equality: SQLite's `IS`, PostgreSQL's `IS NOT DISTINCT FROM` (its `IS` takes no parameter).
            let same = db.engine == .postgres ? "IS NOT DISTINCT FROM" : "IS"
            let rows = try db.query(
                """
                SELECT id, install_id, client_event_id, type, feature, experiment, variant, occurred_at, task
                FROM replica_outbox WHERE app_id = ? AND environment = ? AND os_major \(same) ? AND locale \(same) ?
                ORDER BY id LIMIT ?
                """, [.text(app), .text(environment), osMajor, locale, .integer(Int64(limit))])
            var ids: [Int64] = []
            var events: [JSONValue] = []
            for row in rows {
                ids.append(try row.get("id", as: Int64.self))
                var event = JSONObject()
                event["id"] = .string(try row.get("client_event_id", as: String.self))
                event["installId"] = .string(try row.get("install_id", as: String.self))
                event["type"] = .string(try row.get("type", as: String.self))
                event["feature"] = .string(try row.get("feature", as: String.self))
                if let experiment = try row.get("experiment", as: String?.self),
                    let variant = try row.get("variant", as: String?.self)
                {
                    event["experiment"] = .string(experiment)
                    event["variant"] = .string(variant)
                }
                event["occurredAt"] = .integer(Int(try row.get("occurred_at", as: Int64.self)))
                if let task = try row.get("task", as: String?.self) { event["task"] = .string(task) }
                events.append(.object(event))
            }
            return Batch(app: app, environment: environment, segment: segment, ids: ids, events: events)
        }
    }

    /// Deletes the forwarded events `ids` (the primary acknowledged them), in one transaction.
    package func delete(_ ids: [Int64]) throws {
        try database.write { db in
            let delete = try db.statement("DELETE FROM replica_outbox WHERE id = ?")
            for id in ids { try delete.execute([.integer(id)]) }
        }
    }
}
