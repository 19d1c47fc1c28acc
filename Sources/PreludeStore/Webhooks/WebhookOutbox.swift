import PreludeCore
import PreludeStorage

/// The webhook outbox's writer: every change that webhooks report enqueues its deliveries here, on the caller's
/// connection and inside the caller's transaction, so the change and its deliveries commit together (or neither
/// does) — as ``AuditLog/append(_:actor:app:action:revision:detail:at:)`` does for the audit record.
///
/// ``PolicyRepository`` calls it for every revision it makes live (the admin API, `prelude policy import`,
/// rollbacks); a read replica never does (it mirrors revisions, docs/scaling.md). Other features call
/// ``enqueue(_:app:environment:type:data:at:)`` with their own ``WebhookEventType`` (docs/webhooks.md).
package enum WebhookOutbox {
    /// The enabled webhooks of `app` that subscribe to `type` in `environment` (those listing it, and those with
    /// no environment list), by id.
    package static func subscribers(_ db: Connection, app: String, environment: String, type: WebhookEventType)
        throws -> [String]
    {
        try db.query(
            db.engine == .sqlite ? subscribersSQL : subscribersPostgres,
            [.text(app), .text(type.rawValue), .text(environment)]
        ).map { try $0.get(0, as: String.self) }
    }

    private static let subscribersSQL = """
        SELECT w.id FROM webhooks w
        WHERE w.app_id = ? AND w.enabled = 1 AND EXISTS (SELECT 1 FROM json_each(w.event_types) e WHERE e.value = ?)
            AND (w.environments IS NULL OR EXISTS (SELECT 1 FROM json_each(w.environments) v WHERE v.value = ?))
        ORDER BY w.created_at, w.id
        """

    private static let subscribersPostgres = """
        SELECT w.id FROM webhooks w
        WHERE w.app_id = ? AND w.enabled = 1
            AND EXISTS (SELECT 1 FROM jsonb_array_elements_text(CAST(w.event_types AS jsonb)) e WHERE e = ?)
            AND (w.environments IS NULL
                OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(CAST(w.environments AS jsonb)) v WHERE v = ?))
        ORDER BY w.created_at, w.id
        """

    /// Writes one pending delivery of `type` with `data` for each subscriber of `app` (due at once), on `db`
    /// inside the caller's transaction. Returns the new deliveries' ids (their `webhook-id`), none when nobody
    /// subscribes.
    @discardableResult
    package static func enqueue(
        _ db: Connection, app: String, environment: String, type: WebhookEventType, data: JSONValue, at now: Int64
    ) throws -> [String] {
        let webhooks = try subscribers(db, app: app, environment: environment, type: type)
        guard !webhooks.isEmpty else { return [] }
        return try enqueue(db, webhooks: webhooks, app: app, environment: environment, type: type, data: data, at: now)
    }

    /// Like ``enqueue(_:app:environment:type:data:at:)`` for subscribers the caller already looked up with
    /// ``subscribers(_:app:environment:type:)`` (so it builds `data` only when someone listens).
    @discardableResult
    package static func enqueue(
        _ db: Connection, webhooks: [String], app: String, environment: String, type: WebhookEventType,
        data: JSONValue, at now: Int64
    ) throws -> [String] {
        let insert = try db.statement(
            """
            INSERT INTO webhook_deliveries
                (id, webhook_id, app_id, environment, event_type, occurred_at, data, state, next_attempt_at, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)
            """)
        let text = data.serialized()
        var ids: [String] = []
        for webhook in webhooks {
            let id = WebhookIdentifier.delivery()
            try insert.execute([
                .text(id), .text(webhook), .text(app), .text(environment), .text(type.rawValue), .integer(now),
                .text(text), .integer(now), .integer(now),
            ])
            ids.append(id)
        }
        return ids
    }
}
