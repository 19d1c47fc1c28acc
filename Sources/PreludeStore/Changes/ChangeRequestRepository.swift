import PreludeCore
import PreludeStorage

/// The `change_requests` table (migrations 0013, 0016 and 0017): every statement about change requests. Each write
/// changes one request and appends its audit record (``AuditLog``) in one transaction, guarded by the request's version, so two
/// concurrent transitions of one request cannot both succeed. Applying one is part of the revision's own transaction
/// (an ``Application`` handed to
/// ``PolicyRepository/publish(app:environment:name:canonical:author:action:message:detail:at:requiringLive:events:previous:applying:rulesVersion:)``).
package struct ChangeRequestRepository: Sendable {
    /// Why a write was refused; nothing was written.
    package enum Refusal: Error, Sendable, Equatable {
        /// No app with this id.
        case unknownApp(String)
        /// The request changed (or disappeared) since it was read: another transition won.
        case changed(id: Int64)
    }

    /// A scheduled request, for the scheduler.
    package struct Scheduled: Sendable, Equatable {
        /// Its id, state and instant.
        package var entry: PublishScheduler.Entry
        /// The app.
        package var app: String
        /// The environment.
        package var environment: String
    }

    /// What the app's webhooks are told about a write (``WebhookOutbox``): the event type, and its `data` for the
    /// request as stored — built only when a webhook of the app's environment listens.
    package struct Notice {
        /// The event type.
        package var type: WebhookEventType
        /// The payload's `data` for the stored request.
        package var data: (ChangeRequestRecord) -> JSONValue

        /// A notice of `type` with `data`.
        package init(_ type: WebhookEventType, data: @escaping (ChangeRequestRecord) -> JSONValue) {
            self.type = type
            self.data = data
        }
    }

    /// The database holding the table.
    package let database: Database

    /// A repository over an open, migrated database.
    package init(database: Database) { self.database = database }

    private static let columns = """
        id, app_id, environment, state, version, base_revision, document, patch, changes, author, author_token_id,
        message, findings, approvals, scheduled_at, applied_revision, closed_by, reason, created_at, updated_at, kind
        """

    // MARK: - Reading

    /// Request `id` of `app`'s `environment`; nil when there is none there.
    package func record(app: String, environment: String, id: Int64) throws -> ChangeRequestRecord? {
        try database.read { db in
            try db.queryOne(
                "SELECT \(Self.columns) FROM change_requests WHERE id = ? AND app_id = ? AND environment = ?",
                [.integer(id), .text(app), .text(environment)]
            ).map(Self.record)
        }
    }

    /// Request `id` wherever it is; nil when there is none.
    package func record(id: Int64) throws -> ChangeRequestRecord? {
        try database.read { db in
            try db.queryOne("SELECT \(Self.columns) FROM change_requests WHERE id = ?", [.integer(id)]).map(Self.record)
        }
    }

    /// The requests of `app`'s `environment` (every environment when nil) in `states` (any when empty) with an id
    /// below `before`, newest first, at most `limit`.
    package func list(
        app: String?, environment: String?, states: [ChangeRequestState] = [], before: Int64? = nil, limit: Int
    ) throws -> [ChangeRequestRecord] {
        var conditions = ["id < ?"]
        var arguments: [SQLValue] = [.integer(before ?? Int64.max)]
        if let app {
            conditions.append("app_id = ?")
            arguments.append(.text(app))
        }
        if let environment {
            conditions.append("environment = ?")
            arguments.append(.text(environment))
        }
        if !states.isEmpty {
            conditions.append("state IN (\(states.map { _ in "?" }.joined(separator: ", ")))")
            arguments += states.map { .text($0.rawValue) }
        }
        return try database.read { db in
            try db.query(
                "SELECT \(Self.columns) FROM change_requests WHERE \(conditions.joined(separator: " AND ")) "
                    + "ORDER BY id DESC LIMIT ?", arguments + [.integer(Int64(limit))]
            ).map(Self.record)
        }
    }

    /// Every request with a schedule instant (approved ones: the table's check keeps others from having one).
    package func scheduled() throws -> [Scheduled] {
        try database.read { db in
            try db.query(
                """
                SELECT id, state, scheduled_at, app_id, environment FROM change_requests
                WHERE scheduled_at IS NOT NULL ORDER BY scheduled_at, id
                """
            ).map { row in
                Scheduled(
                    entry: PublishScheduler.Entry(
                        id: try row.get("id", as: Int64.self),
                        state: ChangeRequestState(rawValue: try row.get("state", as: String.self)) ?? .cancelled,
                        scheduledAt: try row.get("scheduled_at", as: Int64.self)),
                    app: try row.get("app_id", as: String.self),
                    environment: try row.get("environment", as: String.self))
            }
        }
    }

    // MARK: - Writing

    /// Stores a new request (version 1) of `kind` with its `changeRequest.create` audit record (`detail` plus the
    /// request's id, kind, environment and state) and the webhook deliveries of `notice`, in one transaction. Throws
    /// ``Refusal/unknownApp(_:)``.
    package func create(
        app: String, environment: String, kind: ChangeRequestKind = .policy, status: ChangeRequestStatus,
        document: String, patch: String?, changes: String?, authorTokenID: Int64?, message: String?, findings: String,
        detail: JSONObject, notice: Notice? = nil, at now: Int64
    ) throws -> ChangeRequestRecord {
        try database.write { db in
            guard try db.queryOne("SELECT 1 FROM apps WHERE id = ?", [.text(app)]) != nil else {
                throw Refusal.unknownApp(app)
            }
            let id = try db.insertReturningID(
                """
                INSERT INTO change_requests (app_id, environment, kind, state, version, base_revision, document, patch,
                    changes, author, author_token_id, message, findings, approvals, created_at, updated_at)
                VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, '[]', ?, ?)
                RETURNING id
                """,
                [
                    .text(app), .text(environment), .text(kind.rawValue), .text(status.state.rawValue),
                    status.baseRevision.map { .integer(Int64($0)) } ?? .null, .text(document),
                    patch.map(SQLValue.text) ?? .null, changes.map(SQLValue.text) ?? .null, .text(status.author),
                    authorTokenID.map(SQLValue.integer) ?? .null, message.map(SQLValue.text) ?? .null,
                    .text(findings), .integer(now), .integer(now),
                ])
            var detail = detail
            if kind != .policy { detail["kind"] = .string(kind.rawValue) }
            try AuditLog.append(
                db, actor: status.author, app: app, environment: environment, action: "changeRequest.create",
                revision: status.baseRevision.map(Int64.init),
                detail: Self.auditDetail(detail, id: id, environment: environment, state: status.state), at: now)
            guard
                let stored = try db.queryOne(
                    "SELECT \(Self.columns) FROM change_requests WHERE id = ?", [.integer(id)]
                ).map(Self.record)
            else { throw Refusal.changed(id: id) }
            try Self.notify(db, notice, stored, at: now)
            return stored
        }
    }

    /// Stores `record` as the next version of the request, provided it is still at `record.version`, with an audit
    /// record (`action` by `actor`, `detail` plus the id, environment and new state) and the webhook deliveries of
    /// `notice`, in one transaction. Returns the stored record (its version bumped). Throws ``Refusal/changed(id:)``
    /// when another write came first.
    package func save(
        _ record: ChangeRequestRecord, action: String, actor: String, detail: JSONObject, notice: Notice? = nil,
        at now: Int64
    ) throws -> ChangeRequestRecord {
        try database.write { db in
            try db.execute(
                """
                UPDATE change_requests SET state = ?, version = version + 1, base_revision = ?, document = ?, patch = ?,
                    changes = ?, message = ?, findings = ?, approvals = ?, scheduled_at = ?, closed_by = ?,
                    reason = ?, updated_at = ?
                WHERE id = ? AND version = ?
                """,
                [
                    .text(record.state.rawValue), record.baseRevision.map { .integer(Int64($0)) } ?? .null,
                    .text(record.document), record.patch.map(SQLValue.text) ?? .null,
                    record.changes.map(SQLValue.text) ?? .null,
                    record.message.map(SQLValue.text) ?? .null, .text(record.findings),
                    .text(JSONValue.array(record.approvals.map(\.jsonValue)).serialized()),
                    record.scheduledAt.map(SQLValue.integer) ?? .null, record.closedBy.map(SQLValue.text) ?? .null,
                    record.reason.map(SQLValue.text) ?? .null, .integer(now), .integer(record.id),
                    .integer(Int64(record.version)),
                ])
            guard db.changes == 1 else { throw Refusal.changed(id: record.id) }
            try AuditLog.append(
                db, actor: actor, app: record.app, environment: record.environment, action: action,
                revision: record.baseRevision.map(Int64.init),
                detail: Self.auditDetail(detail, id: record.id, environment: record.environment, state: record.state),
                at: now)
            var stored = record
            stored.version += 1
            stored.updatedAt = now
            try Self.notify(db, notice, stored, at: now)
            return stored
        }
    }

    /// Inside the caller's transaction (on `db`): enqueues `notice` for `record` to the webhooks of its app and
    /// environment that subscribe to the notice's type (none: nothing is built).
    private static func notify(_ db: Connection, _ notice: Notice?, _ record: ChangeRequestRecord, at now: Int64)
        throws
    {
        guard let notice else { return }
        let webhooks = try WebhookOutbox.subscribers(
            db, app: record.app, environment: record.environment, type: notice.type)
        guard !webhooks.isEmpty else { return }
        try WebhookOutbox.enqueue(
            db, webhooks: webhooks, app: record.app, environment: record.environment, type: notice.type,
            data: notice.data(record), at: now)
    }

    /// A change request applied by the write that carries it (a publish,
    /// ``PolicyRepository/publish(app:environment:name:canonical:author:action:message:detail:at:requiringLive:events:previous:applying:rulesVersion:)``,
    /// or a settings change, ``PolicyRepository/updateEnvironment(app:name:change:actor:action:at:check:applying:)``):
    /// in that write's own transaction the request is marked applied, provided it is still at the version read
    /// (otherwise ``Refusal/changed(id:)`` rolls the whole write back: a scheduled publish fires once even when two
    /// processes race for it), and `notice` is told to the webhooks with the request as applied.
    package struct Application {
        /// The request as read before applying it.
        package var record: ChangeRequestRecord
        /// What its webhooks are told (the request as applied, with the revision it made live).
        package var notice: Notice
        /// When it is applied (its `updated_at`), in milliseconds since 1970.
        package var at: Int64

        /// Applying `record` at `now`, told as `notice`.
        package init(_ record: ChangeRequestRecord, notice: Notice, at now: Int64) {
            self.record = record
            self.notice = notice
            self.at = now
        }
    }

    /// Inside the write carrying `application` (on `db`): marks its request applied with `revision` (nil for a
    /// settings change) and tells its webhooks. Returns the request as stored now.
    @discardableResult
    static func apply(_ db: Connection, _ application: Application, revision: Int?) throws -> ChangeRequestRecord {
        let record = application.record
        let now = application.at
        try db.execute(
            """
            UPDATE change_requests SET state = 'applied', version = version + 1,
                applied_revision = coalesce(?, applied_revision), scheduled_at = NULL, updated_at = ?
            WHERE id = ? AND version = ? AND state IN ('draft', 'review', 'approved')
            """,
            [
                revision.map { .integer(Int64($0)) } ?? .null, .integer(now), .integer(record.id),
                .integer(Int64(record.version)),
            ])
        guard db.changes == 1 else { throw Refusal.changed(id: record.id) }
        var applied = record
        applied.status = ChangeRequestMachine.applied(record.status)
        if let revision { applied.appliedRevision = revision }
        applied.version += 1
        applied.updatedAt = now
        try notify(db, application.notice, applied, at: now)
        return applied
    }

    // MARK: - Internals

    private static func auditDetail(_ detail: JSONObject, id: Int64, environment: String, state: ChangeRequestState)
        -> JSONValue
    {
        var object = detail
        object["changeRequest"] = .integer(Int(id))
        object["environment"] = .string(environment)
        object["state"] = .string(state.rawValue)
        return .object(object)
    }

    private static func record(_ row: Row) throws -> ChangeRequestRecord {
        let approvals =
            (try? JSONValue(parsing: Array(try row.get("approvals", as: String.self).utf8)))?
            .arrayValue?.compactMap(ChangeRequestApproval.init) ?? []
        let stateText = try row.get("state", as: String.self)
        return ChangeRequestRecord(
            id: try row.get("id", as: Int64.self), app: try row.get("app_id", as: String.self),
            environment: try row.get("environment", as: String.self),
            // The table's CHECK admits only the machine's states.
            state: ChangeRequestState(rawValue: stateText) ?? .cancelled,
            version: Int(try row.get("version", as: Int64.self)),
            baseRevision: try row.get("base_revision", as: Int64?.self).map(Int.init),
            document: try row.get("document", as: String.self), patch: try row.get("patch", as: String?.self),
            changes: try row.get("changes", as: String?.self),
            author: try row.get("author", as: String.self),
            authorTokenID: try row.get("author_token_id", as: Int64?.self),
            message: try row.get("message", as: String?.self), findings: try row.get("findings", as: String.self),
            approvals: approvals, scheduledAt: try row.get("scheduled_at", as: Int64?.self),
            appliedRevision: try row.get("applied_revision", as: Int64?.self).map(Int.init),
            closedBy: try row.get("closed_by", as: String?.self), reason: try row.get("reason", as: String?.self),
            createdAt: try row.get("created_at", as: Int64.self), updatedAt: try row.get("updated_at", as: Int64.self),
            // The table's CHECK admits only these kinds (migration 0016).
            kind: ChangeRequestKind(rawValue: try row.get("kind", as: String.self)) ?? .policy)
    }
}
