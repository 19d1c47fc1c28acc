import PreludeCore
import PreludeStorage

/// The `apps` and `policy_revisions` tables: every statement about apps, their revisions and the live pointer.
///
/// Writes are atomic: ``publish(app:name:canonical:author:action:message:detail:at:requiringLive:)`` inserts the
/// revision, moves the live pointer and appends the audit record (``AuditLog``) in one transaction, and so do
/// ``createApp(app:name:canonical:author:message:detail:at:)`` and ``deleteApp(app:author:detail:at:requiringLive:)``.
/// Reads return plain records; deciding what is served from them is the policy store's job.
package struct PolicyRepository: Sendable {
    /// Why a write was refused; nothing was written.
    package enum Refusal: Error, Sendable, Equatable {
        /// No app with this id.
        case unknownApp(String)
        /// Creating an app that exists.
        case appExists(String)
        /// The app's live revision in the database is not the one the caller based its write on.
        case stale
    }

    /// An app's live revision as stored, joined with its app row (`apps ⟕ policy_revisions`).
    package struct LiveRow: Sendable, Equatable {
        /// The app id.
        package var app: String
        /// The live revision number; nil when the app has none.
        package var revision: Int?
        /// The live revision's document as stored; nil when the app has none.
        package var document: String?
        /// When the live revision was created (ms), 0 without one.
        package var createdAt: Int64
        /// Who created it, empty without one.
        package var author: String
        /// Its message.
        package var message: String?
    }

    /// An app row with its revision count (the admin app summary).
    package struct AppRecord: Sendable, Equatable {
        /// The app id.
        package var id: String
        /// Its name (from the live document).
        package var name: String
        /// The live revision number, nil when none.
        package var liveRevision: Int?
        /// When the app was created (ms).
        package var createdAt: Int64
        /// When its live revision last changed (ms).
        package var updatedAt: Int64
        /// Whether writes with lint errors are refused (migration 0005).
        package var lintStrict: Bool
        /// How many revisions it has.
        package var revisionCount: Int
    }

    /// One stored revision.
    package struct Revision: Sendable, Equatable {
        /// Its number.
        package var number: Int
        /// The document as stored (canonical JSON text).
        package var document: String
        /// When it was created (ms).
        package var createdAt: Int64
        /// Who created it.
        package var author: String
        /// Its message.
        package var message: String?
    }

    /// One line of the revision history (the document's size, not the document).
    package struct RevisionSummary: Sendable, Equatable {
        /// Its number.
        package var number: Int
        /// When it was created (ms).
        package var createdAt: Int64
        /// Who created it.
        package var author: String
        /// Its message.
        package var message: String?
        /// The stored document's length in characters.
        package var size: Int
    }

    /// The database holding the tables.
    package let database: Database

    /// A repository over an open, migrated database.
    package init(database: Database) { self.database = database }

    private static let liveJoin = """
        SELECT a.id, a.live_revision, r.document, r.created_at, r.author, r.message
        FROM apps a LEFT JOIN policy_revisions r ON r.app_id = a.id AND r.number = a.live_revision
        """

    // MARK: - Reading

    /// Every app's live revision, by app id.
    package func liveRows() throws -> [LiveRow] {
        try database.read { db in try db.query(Self.liveJoin + "\nORDER BY a.id").map(Self.liveRow) }
    }

    /// One app's live revision; nil when the app does not exist.
    package func liveRow(app: String) throws -> LiveRow? {
        try database.read { db in
            try db.queryOne(Self.liveJoin + "\nWHERE a.id = ?", [.text(app)]).map(Self.liveRow)
        }
    }

    /// Every app id with its live revision number (nil when none): one query of `apps`.
    package func liveRevisionNumbers() throws -> [(app: String, revision: Int?)] {
        try database.read { db in
            try db.query("SELECT id, live_revision FROM apps").map { row in
                (try row.get("id", as: String.self), try row.get("live_revision", as: Int64?.self).map(Int.init))
            }
        }
    }

    /// The stored text of the app's live revision; nil when the app is unknown or has none.
    package func liveDocument(app: String) throws -> String? {
        try database.read { db in
            try db.scalar(
                """
                SELECT r.document FROM apps a JOIN policy_revisions r ON r.app_id = a.id AND r.number = a.live_revision
                WHERE a.id = ?
                """, [.text(app)], as: String.self)
        }
    }

    /// The app's live revision number: nil when the app does not exist, `.some(nil)` when it has none.
    package func liveRevision(app: String) throws -> Int?? {
        try database.read { db in try Self.liveRevision(db, app: app) }
    }

    /// The ids of every app, sorted.
    package func appIDs() throws -> [String] {
        try database.read { db in
            try db.query("SELECT id FROM apps ORDER BY id").map { try $0.get("id", as: String.self) }
        }
    }

    /// How many apps the database holds.
    package func appCount() throws -> Int {
        try database.read { try $0.scalar("SELECT count(*) FROM apps", as: Int64.self) }.map(Int.init) ?? 0
    }

    /// The app's row and revision count; nil when the app does not exist.
    package func app(_ app: String) throws -> AppRecord? {
        let row = try database.read { db in
            try db.queryOne(
                """
                SELECT a.id, a.name, a.live_revision, a.created_at, a.updated_at, a.lint_strict,
                       (SELECT count(*) FROM policy_revisions r WHERE r.app_id = a.id) AS revisions
                FROM apps a WHERE a.id = ?
                """, [.text(app)])
        }
        return try row.map { row in
            AppRecord(
                id: try row.get("id", as: String.self), name: try row.get("name", as: String.self),
                liveRevision: try row.get("live_revision", as: Int64?.self).map(Int.init),
                createdAt: try row.get("created_at", as: Int64.self),
                updatedAt: try row.get("updated_at", as: Int64.self),
                lintStrict: try row.get("lint_strict", as: Int64.self) != 0,
                revisionCount: Int(try row.get("revisions", as: Int64.self)))
        }
    }

    /// How many revisions the app has (0 for an unknown app).
    package func revisionCount(app: String) throws -> Int {
        try database.read { db in
            try db.scalar("SELECT count(*) FROM policy_revisions WHERE app_id = ?", [.text(app)], as: Int64.self)
        }.map(Int.init) ?? 0
    }

    /// Whether the app refuses writes with lint errors; nil for an unknown app.
    package func lintStrict(app: String) throws -> Bool? {
        try database.read { db in
            try db.scalar("SELECT lint_strict FROM apps WHERE id = ?", [.text(app)], as: Int64.self)
        }.map { $0 != 0 }
    }

    /// The app's revisions numbered below `before`, newest first, at most `limit`; nil when the app does not exist.
    package func revisions(app: String, before: Int64?, limit: Int) throws -> [RevisionSummary]? {
        let rows = try database.read { db -> [Row]? in
            guard try db.queryOne("SELECT 1 FROM apps WHERE id = ?", [.text(app)]) != nil else { return nil }
            return try db.query(
                """
                SELECT number, created_at, author, message, length(CAST(document AS BLOB)) AS size
                FROM policy_revisions
                WHERE app_id = ? AND number < ? ORDER BY number DESC LIMIT ?
                """, [.text(app), .integer(before ?? Int64.max), .integer(Int64(limit))])
        }
        return try rows?.map { row in
            RevisionSummary(
                number: Int(try row.get("number", as: Int64.self)),
                createdAt: try row.get("created_at", as: Int64.self), author: try row.get("author", as: String.self),
                message: try row.get("message", as: String?.self), size: Int(try row.get("size", as: Int64.self)))
        }
    }

    /// One stored revision of any app, for `prelude migrate --check`.
    package struct StoredRevision: Sendable, Equatable {
        /// The app.
        package let app: String
        /// The revision number.
        package let number: Int
        /// The stored text.
        package let document: String
        /// Whether it is the app's live revision.
        package let isLive: Bool
    }

    /// Every stored revision of every app, by app then number.
    package func allRevisions() throws -> [StoredRevision] {
        try database.read { db in
            try db.query(
                """
                SELECT r.app_id, r.number, r.document, a.live_revision = r.number AS live
                FROM policy_revisions r JOIN apps a ON a.id = r.app_id
                ORDER BY r.app_id, r.number
                """
            ).map { row in
                StoredRevision(
                    app: try row.get("app_id", as: String.self), number: Int(try row.get("number", as: Int64.self)),
                    document: try row.get("document", as: String.self),
                    isLive: (try row.get("live", as: Int64?.self) ?? 0) != 0)
            }
        }
    }

    /// Revision `number` of `app`: nil when the app does not exist, `.some(nil)` when it has no such revision.
    package func revision(app: String, number: Int) throws -> Revision?? {
        let row = try database.read { db -> Row?? in
            guard try db.queryOne("SELECT 1 FROM apps WHERE id = ?", [.text(app)]) != nil else { return nil }
            return .some(
                try db.queryOne(
                    "SELECT number, document, created_at, author, message FROM policy_revisions WHERE app_id = ? AND number = ?",
                    [.text(app), .integer(Int64(number))]))
        }
        guard let found = row else { return nil }
        return .some(
            try found.map { row in
                Revision(
                    number: Int(try row.get("number", as: Int64.self)),
                    document: try row.get("document", as: String.self),
                    createdAt: try row.get("created_at", as: Int64.self),
                    author: try row.get("author", as: String.self), message: try row.get("message", as: String?.self))
            })
    }

    /// What `prelude policy export` finds for `app` and `revision` (the live one when nil), read in one transaction.
    package enum Export: Sendable, Equatable {
        /// No such app.
        case noApp
        /// The app has no live revision (and none was asked for).
        case noLiveRevision
        /// The app has no revision `number`; `highest` is its highest (nil when it has none).
        case noRevision(number: Int, highest: Int?)
        /// The revision and its stored text.
        case found(number: Int, document: String)
    }

    /// Finds the revision to export: `revision`, or the live one.
    package func export(app: String, revision: Int?) throws -> Export {
        try database.read { db in
            guard let appRow = try db.queryOne("SELECT live_revision FROM apps WHERE id = ?", [.text(app)]) else {
                return .noApp
            }
            let live = try appRow.get("live_revision", as: Int64?.self).map(Int.init)
            guard let number = revision ?? live else { return .noLiveRevision }
            let text = try db.scalar(
                "SELECT document FROM policy_revisions WHERE app_id = ? AND number = ?",
                [.text(app), .integer(Int64(number))], as: String.self)
            guard let text else {
                let highest =
                    try db.scalar(
                        "SELECT max(number) FROM policy_revisions WHERE app_id = ?", [.text(app)], as: Int64?.self)
                    ?? nil
                return .noRevision(number: number, highest: highest.map(Int.init))
            }
            return .found(number: number, document: text)
        }
    }

    /// The number the app's next revision will get (1 for an app without revisions).
    package func nextRevisionNumber(app: String) throws -> Int {
        try database.read { db in try Self.nextRevision(db, app: app) }
    }

    // MARK: - Writing

    /// Makes a new revision of `app` live, atomically: inserts it (number = highest + 1, tagged
    /// ``RevisionTag``), points `apps.live_revision` at it, renames the app to `name`, and appends the audit record
    /// (`action` by `author` with `detail`), in one transaction.
    ///
    /// - Parameters:
    ///   - canonical: the document's canonical bytes (stored as its text).
    ///   - requiringLive: when given, the live revision the write is based on; the write is refused as
    ///     ``Refusal/stale`` unless the database still has exactly that live (nil: none).
    ///   - alongside: statements of the same change that must commit with the revision or not at all (a change
    ///     request marked applied, ``ChangeRequestRepository/markApplied(_:id:expectedVersion:revision:at:)``),
    ///     given the connection and the new revision's number; what it throws rolls everything back.
    /// - Returns: the new revision's number.
    /// - Throws: ``Refusal/unknownApp(_:)``, ``Refusal/stale``, what `alongside` throws, or `StorageError`.
    package func publish(
        app: String, name: String, canonical: [UInt8], author: String, action: String, message: String?,
        detail: JSONValue, at now: Int64, requiringLive expected: Int?? = nil,
        alongside: ((Connection, Int) throws -> Void)? = nil
    ) throws -> Int {
        try database.write { db -> Int in
            guard let live = try Self.liveRevision(db, app: app) else { throw Refusal.unknownApp(app) }
            if let expected, live != expected { throw Refusal.stale }
            let revision = try Self.insertRevision(
                db, app: app, name: name, canonical: canonical, author: author, action: action, message: message,
                detail: detail, now: now)
            try alongside?(db, revision)
            return revision
        }
    }

    /// Creates `app` with its first revision live and an `app.create` audit record, in one transaction; refused
    /// with ``Refusal/appExists(_:)`` when the app exists.
    package func createApp(
        app: String, name: String, canonical: [UInt8], author: String, message: String?, detail: JSONValue,
        at now: Int64
    ) throws {
        try database.write { db in
            guard try db.scalar("SELECT count(*) FROM apps WHERE id = ?", [.text(app)], as: Int64.self) == 0 else {
                throw Refusal.appExists(app)
            }
            try db.statement(
                "INSERT INTO apps (id, name, live_revision, created_at, updated_at) VALUES (?, ?, NULL, ?, ?)"
            ).execute([.text(app), .text(name), .integer(now), .integer(now)])
            _ = try Self.insertRevision(
                db, app: app, name: name, canonical: canonical, author: author, action: "app.create",
                message: message, detail: detail, now: now)
        }
    }

    /// Deletes `app`, its revisions and its events (foreign-key cascade) with an `app.delete` audit record that
    /// outlives them, in one transaction. `requiringLive` as for ``publish(app:name:canonical:author:action:message:detail:at:requiringLive:)``.
    package func deleteApp(app: String, author: String, detail: JSONValue, at now: Int64, requiringLive expected: Int??)
        throws
    {
        try database.write { db in
            guard let live = try Self.liveRevision(db, app: app) else { throw Refusal.unknownApp(app) }
            if let expected, live != expected { throw Refusal.stale }
            try db.statement("DELETE FROM apps WHERE id = ?").execute([.text(app)])
            try AuditLog.append(
                db, actor: author, app: app, action: "app.delete", revision: live.map(Int64.init), detail: detail,
                at: now)
        }
    }

    /// Sets the app's strict-lint flag with an `app.settings` audit record (`detail`), in one transaction.
    /// Throws ``Refusal/unknownApp(_:)`` for an unknown app.
    package func setLintStrict(app: String, to strict: Bool, actor: String, detail: JSONValue, at now: Int64) throws {
        try database.write { db in
            try db.execute("UPDATE apps SET lint_strict = ? WHERE id = ?", [.integer(strict ? 1 : 0), .text(app)])
            guard db.changes == 1 else { throw Refusal.unknownApp(app) }
            try AuditLog.append(
                db, actor: actor, app: app, action: "app.settings", revision: nil, detail: detail, at: now)
        }
    }

    // MARK: - Internals

    private static func liveRow(_ row: Row) throws -> LiveRow {
        let revision = try row.get("live_revision", as: Int64?.self).map(Int.init)
        let document = try row.get("document", as: String?.self)
        let hasRevision = revision != nil && document != nil
        return LiveRow(
            app: try row.get("id", as: String.self), revision: revision, document: document,
            createdAt: hasRevision ? try row.get("created_at", as: Int64.self) : 0,
            author: hasRevision ? try row.get("author", as: String.self) : "",
            message: hasRevision ? try row.get("message", as: String?.self) : nil)
    }

    private static func liveRevision(_ db: Connection, app: String) throws -> Int?? {
        guard let row = try db.statement("SELECT live_revision FROM apps WHERE id = ?").query([.text(app)]).first
        else { return nil }
        return .some(try row.get(0, as: Int64?.self).map(Int.init))
    }

    private static func nextRevision(_ db: Connection, app: String) throws -> Int {
        Int(
            try db.scalar(
                "SELECT coalesce(max(number), 0) + 1 FROM policy_revisions WHERE app_id = ?", [.text(app)],
                as: Int64.self) ?? 1)
    }

    private static func insertRevision(
        _ db: Connection, app: String, name: String, canonical: [UInt8], author: String, action: String,
        message: String?, detail: JSONValue, now: Int64
    ) throws -> Int {
        let next = try nextRevision(db, app: app)
        try db.statement(
            """
            INSERT INTO policy_revisions (app_id, number, document, etag, created_at, author, message)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """
        ).execute([
            .text(app), .integer(Int64(next)), .text(String(decoding: canonical, as: UTF8.self)),
            .text(RevisionTag.quoted(revision: next, canonical: canonical)), .integer(now), .text(author),
            message.map(SQLValue.text) ?? .null,
        ])
        try db.statement("UPDATE apps SET live_revision = ?, name = ?, updated_at = ? WHERE id = ?").execute([
            .integer(Int64(next)), .text(name), .integer(now), .text(app),
        ])
        try AuditLog.append(
            db, actor: author, app: app, action: action, revision: Int64(next), detail: detail, at: now)
        return next
    }
}
