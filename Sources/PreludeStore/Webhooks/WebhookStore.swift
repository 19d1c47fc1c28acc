import PreludeCore
import PreludeStorage

/// The `webhooks`, `webhook_deliveries` and `webhook_attempts` tables: registering webhooks (each change audited),
/// reading deliveries and their attempts, and what the primary's dispatcher needs — the due deliveries, a claim on
/// one, the outcome of an attempt (docs/webhooks.md). Deliveries are written by ``WebhookOutbox``.
package struct WebhookStore: Sendable {
    /// Why a write was refused; nothing was written.
    package enum Refusal: Error, Sendable, Equatable {
        /// No app with this id.
        case unknownApp(String)
        /// No webhook with this id in the app.
        case unknownWebhook(String)
        /// No delivery with this id for the webhook.
        case unknownDelivery(String)
        /// The webhook is disabled: enable it before redelivering.
        case webhookDisabled(String)
    }

    /// What a change to a webhook sets; nil members stay as they are.
    package struct Update: Sendable, Equatable {
        /// A new URL.
        package var url: String?
        /// A new secret.
        package var secret: String?
        /// New event types.
        package var events: [WebhookEventType]?
        /// New environments (`.some(nil)`: every environment).
        package var environments: [String]??
        /// A new description (`.some(nil)` clears it).
        package var description: String??
        /// Enable or disable; enabling clears the disabled reason.
        package var enabled: Bool?

        /// An update of the given members.
        package init(
            url: String? = nil, secret: String? = nil, events: [WebhookEventType]? = nil,
            environments: [String]?? = nil, description: String?? = nil, enabled: Bool? = nil
        ) {
            self.environments = environments
            self.url = url
            self.secret = secret
            self.events = events
            self.description = description
            self.enabled = enabled
        }
    }

    /// A due delivery with what sending it needs.
    package struct Due: Sendable, Equatable {
        /// The delivery.
        package var delivery: WebhookDelivery
        /// Its webhook's URL.
        package var url: String
        /// Its webhook's secret.
        package var secret: String
    }

    /// How an attempt ended, as the dispatcher's state machine decided.
    package enum Resolution: Sendable, Equatable {
        /// A 2xx: delivered.
        case delivered
        /// Failed; due again at `at` (unix ms).
        case retry(at: Int64)
        /// Failed for good in this run.
        case failed
        /// Failed for good, and the webhook is disabled with `reason` (a `410 Gone`).
        case failedDisablingWebhook(reason: String)
    }

    /// The database holding the tables.
    package let database: Database

    /// A store over an open, migrated database.
    package init(database: Database) { self.database = database }

    private static let webhookColumns =
        "id, app_id, url, secret, event_types, environments, description, enabled, disabled_reason, created_by, "
        + "created_at, updated_at"
    private static let deliveryColumns = """
        d.id, d.webhook_id, d.app_id, d.environment, d.event_type, d.occurred_at, d.data, d.state, d.attempts,
        d.run_started_attempts, d.next_attempt_at, d.last_attempt_at, d.last_status, d.last_error, d.delivered_at,
        d.created_at
        """

    // MARK: - Webhooks

    /// Registers a webhook of `app` with a new id, audited `webhook.create` (the detail names the URL and events,
    /// never the secret). Throws ``Refusal/unknownApp(_:)``.
    package func create(
        app: String, url: String, secret: String, events: [WebhookEventType], environments: [String]? = nil,
        description: String?, enabled: Bool, actor: String, at now: Int64
    ) throws -> Webhook {
        let webhook = Webhook(
            id: WebhookIdentifier.webhook(), app: app, url: url, secret: secret, events: Array(Set(events)).sorted(),
            environments: environments.map { Array(Set($0)).sorted() }, description: description, enabled: enabled,
            disabledReason: nil, createdBy: actor, createdAt: now,
            updatedAt: now)
        try database.write { db in
            guard try db.queryOne("SELECT 1 FROM apps WHERE id = ?", [.text(app)]) != nil else {
                throw Refusal.unknownApp(app)
            }
            try db.execute(
                "INSERT INTO webhooks (\(Self.webhookColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)",
                [
                    .text(webhook.id), .text(app), .text(url), .text(secret), .text(Self.eventsText(webhook.events)),
                    Self.environmentsValue(webhook.environments),
                    description.map(SQLValue.text) ?? .null, .integer(enabled ? 1 : 0), .text(actor), .integer(now),
                    .integer(now),
                ])
            try AuditLog.append(
                db, actor: actor, app: app, environment: nil, action: "webhook.create", revision: nil,
                detail: Self.auditDetail(webhook),
                at: now)
        }
        return webhook
    }

    /// The webhooks of `app`, oldest first; nil when the app does not exist.
    package func webhooks(app: String) throws -> [Webhook]? {
        try database.read { db in
            guard try db.queryOne("SELECT 1 FROM apps WHERE id = ?", [.text(app)]) != nil else { return nil }
            return try db.query(
                "SELECT \(Self.webhookColumns) FROM webhooks WHERE app_id = ? ORDER BY created_at, id", [.text(app)]
            ).map(Self.webhook)
        }
    }

    /// Webhook `id` of `app`; nil when there is none.
    package func webhook(app: String, id: String) throws -> Webhook? {
        try database.read { db in try Self.webhook(db, app: app, id: id) }
    }

    /// Applies `update` to webhook `id` of `app`, audited `webhook.update` (never with the secret). Throws
    /// ``Refusal/unknownWebhook(_:)``.
    package func update(app: String, id: String, _ update: Update, actor: String, at now: Int64) throws -> Webhook {
        try database.write { db in
            guard var webhook = try Self.webhook(db, app: app, id: id) else { throw Refusal.unknownWebhook(id) }
            if let url = update.url { webhook.url = url }
            if let secret = update.secret { webhook.secret = secret }
            if let events = update.events { webhook.events = Array(Set(events)).sorted() }
            if let environments = update.environments {
                webhook.environments = environments.map { Array(Set($0)).sorted() }
            }
            if let description = update.description { webhook.description = description }
            if let enabled = update.enabled {
                webhook.enabled = enabled
                webhook.disabledReason = nil
            }
            webhook.updatedAt = now
            try db.execute(
                """
                UPDATE webhooks SET url = ?, secret = ?, event_types = ?, environments = ?, description = ?,
                    enabled = ?, disabled_reason = ?, updated_at = ?
                WHERE id = ?
                """,
                [
                    .text(webhook.url), .text(webhook.secret), .text(Self.eventsText(webhook.events)),
                    Self.environmentsValue(webhook.environments),
                    webhook.description.map(SQLValue.text) ?? .null, .integer(webhook.enabled ? 1 : 0),
                    webhook.disabledReason.map(SQLValue.text) ?? .null, .integer(now), .text(id),
                ])
            var detail = Self.auditDetail(webhook).objectValue ?? JSONObject()
            if update.secret != nil { detail["secretRotated"] = .bool(true) }
            try AuditLog.append(
                db, actor: actor, app: app, environment: nil, action: "webhook.update", revision: nil,
                detail: .object(detail), at: now)
            return webhook
        }
    }

    /// Deletes webhook `id` of `app` and its deliveries, audited `webhook.delete`. Throws
    /// ``Refusal/unknownWebhook(_:)``.
    package func delete(app: String, id: String, actor: String, at now: Int64) throws {
        try database.write { db in
            guard let webhook = try Self.webhook(db, app: app, id: id) else { throw Refusal.unknownWebhook(id) }
            try db.execute("DELETE FROM webhooks WHERE id = ?", [.text(id)])
            try AuditLog.append(
                db, actor: actor, app: app, environment: nil, action: "webhook.delete", revision: nil,
                detail: Self.auditDetail(webhook),
                at: now)
        }
    }

    // MARK: - Deliveries

    /// The deliveries of webhook `id` of `app`, newest first, at most `limit`, only those in `state` when given,
    /// only those enqueued before delivery `before` when given; nil when the webhook does not exist.
    package func deliveries(
        app: String, webhook id: String, state: WebhookDelivery.State?, before: String?, limit: Int
    ) throws -> [WebhookDelivery]? {
        try database.read { db in
            guard try Self.webhook(db, app: app, id: id) != nil else { return nil }
            var sql = "SELECT \(Self.deliveryColumns) FROM webhook_deliveries d WHERE d.webhook_id = ?"
            var arguments: [SQLValue] = [.text(id)]
            if let state {
                sql += " AND d.state = ?"
                arguments.append(.text(state.rawValue))
            }
            if let before {
                sql += " AND d.rowid < coalesce((SELECT rowid FROM webhook_deliveries WHERE id = ?), 0)"
                arguments.append(.text(before))
            }
            sql += " ORDER BY d.rowid DESC LIMIT ?"
            arguments.append(.integer(Int64(limit)))
            return try db.query(sql, arguments).map(Self.delivery)
        }
    }

    /// Delivery `delivery` of webhook `id` of `app` with its attempts (oldest first); nil when there is none.
    package func delivery(app: String, webhook id: String, delivery: String) throws -> (
        WebhookDelivery, [WebhookAttempt]
    )? {
        try database.read { db in
            guard
                let row = try db.queryOne(
                    """
                    SELECT \(Self.deliveryColumns) FROM webhook_deliveries d
                    WHERE d.id = ? AND d.webhook_id = ? AND d.app_id = ?
                    """, [.text(delivery), .text(id), .text(app)])
            else { return nil }
            let attempts = try db.query(
                """
                SELECT number, started_at, duration_ms, status, error FROM webhook_attempts
                WHERE delivery_id = ? ORDER BY number
                """, [.text(delivery)]
            ).map { row in
                WebhookAttempt(
                    number: Int(try row.get("number", as: Int64.self)),
                    startedAt: try row.get("started_at", as: Int64.self),
                    durationMilliseconds: try row.get("duration_ms", as: Int64.self),
                    status: try row.get("status", as: Int64?.self).map(Int.init),
                    error: try row.get("error", as: String?.self))
            }
            return (try Self.delivery(row), attempts)
        }
    }

    /// Starts a new run of delivery `delivery` (any state): pending, due at `now`, with a fresh attempt budget and
    /// the same id, audited `webhook.redeliver`. Throws ``Refusal/unknownDelivery(_:)`` or
    /// ``Refusal/webhookDisabled(_:)``.
    package func redeliver(app: String, webhook id: String, delivery: String, actor: String, at now: Int64) throws
        -> WebhookDelivery
    {
        try database.write { db in
            guard let webhook = try Self.webhook(db, app: app, id: id) else { throw Refusal.unknownWebhook(id) }
            guard webhook.enabled else { throw Refusal.webhookDisabled(id) }
            try db.execute(
                """
                UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = ?, run_started_attempts = attempts,
                    delivered_at = NULL
                WHERE id = ? AND webhook_id = ?
                """, [.integer(now), .text(delivery), .text(id)])
            guard db.changes == 1 else { throw Refusal.unknownDelivery(delivery) }
            try AuditLog.append(
                db, actor: actor, app: app, environment: nil, action: "webhook.redeliver", revision: nil,
                detail: .object(JSONObject([("webhook", .string(id)), ("delivery", .string(delivery))])), at: now)
            guard
                let row = try db.queryOne(
                    "SELECT \(Self.deliveryColumns) FROM webhook_deliveries d WHERE d.id = ?", [.text(delivery)])
            else { throw Refusal.unknownDelivery(delivery) }
            return try Self.delivery(row)
        }
    }

    // MARK: - Dispatching

    /// Pending deliveries of enabled webhooks due at `now` (unix ms), the longest due first, at most `limit`.
    package func due(now: Int64, limit: Int) throws -> [Due] {
        try database.read { db in
            try db.query(
                """
                SELECT \(Self.deliveryColumns), w.url AS url, w.secret AS secret
                FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
                WHERE d.state = 'pending' AND d.next_attempt_at <= ? AND w.enabled = 1
                ORDER BY d.next_attempt_at, d.rowid LIMIT ?
                """, [.integer(now), .integer(Int64(limit))]
            ).map { row in
                Due(
                    delivery: try Self.delivery(row), url: try row.get("url", as: String.self),
                    secret: try row.get("secret", as: String.self))
            }
        }
    }

    /// When the earliest pending delivery of an enabled webhook is due (unix ms); nil when none waits.
    package func nextDue() throws -> Int64? {
        try database.read { db in
            try db.scalar(
                """
                SELECT min(d.next_attempt_at) FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
                WHERE d.state = 'pending' AND w.enabled = 1
                """, as: Int64?.self)
        } ?? nil
    }

    /// How many deliveries are pending.
    package func pendingCount() throws -> Int {
        try database.read { db in
            try db.scalar("SELECT count(*) FROM webhook_deliveries WHERE state = 'pending'", as: Int64.self)
        }.map(Int.init) ?? 0
    }

    /// Claims a due delivery for one attempt: moves its due time from `expected` (as read by ``due(now:limit:)``) to
    /// `until`, only if nobody else did. True when this caller holds it; a dispatcher killed during the attempt
    /// leaves it due again at `until`.
    package func claim(_ id: String, expected: Int64, until: Int64) throws -> Bool {
        try database.write { db in
            try db.execute(
                """
                UPDATE webhook_deliveries SET next_attempt_at = ?
                WHERE id = ? AND state = 'pending' AND next_attempt_at = ?
                """, [.integer(until), .text(id), .integer(expected)])
            return db.changes == 1
        }
    }

    /// Records `attempt` of delivery `id` and its `resolution`, in one transaction.
    package func record(_ attempt: WebhookAttempt, of id: String, resolution: Resolution) throws {
        try database.write { db in
            try db.execute(
                """
                INSERT INTO webhook_attempts (delivery_id, number, started_at, duration_ms, status, error)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(id), .integer(Int64(attempt.number)), .integer(attempt.startedAt),
                    .integer(attempt.durationMilliseconds), attempt.status.map { .integer(Int64($0)) } ?? .null,
                    attempt.error.map(SQLValue.text) ?? .null,
                ])
            let state: WebhookDelivery.State
            var next: Int64?
            switch resolution {
            case .delivered: state = .delivered
            case .retry(let at):
                state = .pending
                next = at
            case .failed, .failedDisablingWebhook: state = .failed
            }
            try db.execute(
                """
                UPDATE webhook_deliveries SET state = ?, attempts = ?, next_attempt_at = ?, last_attempt_at = ?,
                    last_status = ?, last_error = ?, delivered_at = ?
                WHERE id = ?
                """,
                [
                    .text(state.rawValue), .integer(Int64(attempt.number)), next.map(SQLValue.integer) ?? .null,
                    .integer(attempt.startedAt), attempt.status.map { .integer(Int64($0)) } ?? .null,
                    attempt.error.map(SQLValue.text) ?? .null,
                    state == .delivered ? .integer(attempt.startedAt + attempt.durationMilliseconds) : .null,
                    .text(id),
                ])
            if case .failedDisablingWebhook(let reason) = resolution {
                try db.execute(
                    """
                    UPDATE webhooks SET enabled = 0, disabled_reason = ?, updated_at = ?
                    WHERE id = (SELECT webhook_id FROM webhook_deliveries WHERE id = ?)
                    """, [.text(reason), .integer(attempt.startedAt), .text(id)])
            }
        }
    }

    // MARK: - Internals

    private static func eventsText(_ events: [WebhookEventType]) -> String {
        JSONValue.array(events.map { .string($0.rawValue) }).serialized()
    }

    private static func environmentsValue(_ environments: [String]?) -> SQLValue {
        environments.map { .text(JSONValue.array($0.map(JSONValue.string)).serialized()) } ?? .null
    }

    private static func auditDetail(_ webhook: Webhook) -> JSONValue {
        .object(
            JSONObject([
                ("webhook", .string(webhook.id)), ("url", .string(webhook.url)),
                ("events", .array(webhook.events.map { .string($0.rawValue) })),
                ("environments", webhook.environments.map { .array($0.map(JSONValue.string)) } ?? .null),
                ("enabled", .bool(webhook.enabled)),
            ]))
    }

    private static func webhook(_ db: Connection, app: String, id: String) throws -> Webhook? {
        try db.queryOne(
            "SELECT \(webhookColumns) FROM webhooks WHERE id = ? AND app_id = ?", [.text(id), .text(app)]
        ).map(webhook)
    }

    private static func webhook(_ row: Row) throws -> Webhook {
        // A type this build does not know (written by a newer one) is left out rather than failing the read.
        let stored = (try? JSONValue(parsing: try row.get("event_types", as: String.self)))?.arrayValue ?? []
        let environments = try row.get("environments", as: String?.self).map { text in
            ((try? JSONValue(parsing: text))?.arrayValue ?? []).compactMap(\.stringValue)
        }
        return Webhook(
            id: try row.get("id", as: String.self), app: try row.get("app_id", as: String.self),
            url: try row.get("url", as: String.self), secret: try row.get("secret", as: String.self),
            events: stored.compactMap { $0.stringValue.flatMap(WebhookEventType.init(rawValue:)) }.sorted(),
            environments: environments,
            description: try row.get("description", as: String?.self),
            enabled: try row.get("enabled", as: Int64.self) != 0,
            disabledReason: try row.get("disabled_reason", as: String?.self),
            createdBy: try row.get("created_by", as: String.self), createdAt: try row.get("created_at", as: Int64.self),
            updatedAt: try row.get("updated_at", as: Int64.self))
    }

    private static func delivery(_ row: Row) throws -> WebhookDelivery {
        WebhookDelivery(
            id: try row.get("id", as: String.self), webhookID: try row.get("webhook_id", as: String.self),
            app: try row.get("app_id", as: String.self), environment: try row.get("environment", as: String.self),
            eventType: try row.get("event_type", as: String.self),
            occurredAt: try row.get("occurred_at", as: Int64.self), data: try row.get("data", as: String.self),
            state: WebhookDelivery.State(rawValue: try row.get("state", as: String.self)) ?? .failed,
            attempts: Int(try row.get("attempts", as: Int64.self)),
            runStartedAttempts: Int(try row.get("run_started_attempts", as: Int64.self)),
            nextAttemptAt: try row.get("next_attempt_at", as: Int64?.self),
            lastAttemptAt: try row.get("last_attempt_at", as: Int64?.self),
            lastStatus: try row.get("last_status", as: Int64?.self).map(Int.init),
            lastError: try row.get("last_error", as: String?.self),
            deliveredAt: try row.get("delivered_at", as: Int64?.self),
            createdAt: try row.get("created_at", as: Int64.self))
    }
}
