import PreludeCore
import PreludeStorage

/// The `apps`, `environments` and `policy_revisions` tables: every statement about apps, their environments, their
/// revisions and each environment's live pointer.
///
/// Every policy statement takes an environment (``EnvironmentName``; `production` is the one every app has).
/// Revision numbers are unique per app across its environments; each revision belongs to one environment's chain.
///
/// Writes are atomic: ``publish(app:environment:name:canonical:author:action:message:detail:at:requiringLive:)``
/// inserts the revision, moves the environment's live pointer and appends the audit record (``AuditLog``) in one
/// transaction, and so do ``createApp(app:name:canonical:author:message:detail:at:)``,
/// ``createEnvironment(app:name:first:actor:detail:at:)`` and ``deleteApp(app:author:detail:at:requiringLive:)``.
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
        /// No environment of this name in the app.
        case unknownEnvironment(app: String, environment: String)
        /// Creating an environment that exists.
        case environmentExists(app: String, environment: String)
    }

    /// An app's live revision as stored, joined with its app row (`apps ⟕ policy_revisions`).
    package struct LiveRow: Sendable, Equatable {
        /// The app id.
        package var app: String
        /// The environment.
        package var environment: String
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
        /// The live revision's stored entity tag (quoted, ``RevisionTag``), nil without one.
        package var etag: String? = nil
        /// The validator rules version that accepted the live revision with no findings when it was written
        /// (``PreludeCore/PolicyValidator/rulesVersion``, migration 0015); nil when none is recorded.
        package var rulesVersion: Int? = nil
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
        /// Whether writes with lint errors are refused in production (migrations 0005, 0011).
        package var lintStrict: Bool
        /// How many revisions it has.
        package var revisionCount: Int
    }

    /// One stored revision.
    package struct Revision: Sendable, Equatable {
        /// Its number.
        package var number: Int
        /// The environment whose chain it belongs to.
        package var environment: String
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
        SELECT e.app_id, e.name AS environment, e.live_revision, r.document, r.created_at, r.author, r.message, r.etag,
            r.rules_version
        FROM environments e LEFT JOIN policy_revisions r ON r.app_id = e.app_id AND r.number = e.live_revision
        """

    private static let production = EnvironmentName.production

    // MARK: - Reading

    /// Every environment's live revision, by app id then environment, handed to `page` `size` rows at a time as they
    /// are read, all from one read transaction (one snapshot). Start-up decodes a page while the next one is read:
    /// on PostgreSQL, reading a thousand revisions over the wire is a third of start-up (BENCHMARKS.md, "Issue 36").
    package func liveRows(pagesOf size: Int, _ page: ([LiveRow]) throws -> Void) throws {
        precondition(size > 0, "a page holds at least one row")
        try database.read { db in
            let first = try db.statement(Self.liveJoin + "\nORDER BY e.app_id, e.name LIMIT ?")
            let next = try db.statement(
                Self.liveJoin
                    + "\nWHERE e.app_id > ? OR (e.app_id = ? AND e.name > ?) ORDER BY e.app_id, e.name LIMIT ?")
            var rows = try first.query([.integer(Int64(size))]).map(Self.liveRow)
            while let last = rows.last {
                try page(rows)
                guard rows.count == size else { return }
                rows = try next.query([
                    .text(last.app), .text(last.app), .text(last.environment), .integer(Int64(size)),
                ])
                .map(Self.liveRow)
            }
        }
    }

    /// One environment's live revision; nil when the app or the environment does not exist.
    package func liveRow(app: String, environment: String) throws -> LiveRow? {
        try database.read { db in
            try db.queryOne(Self.liveJoin + "\nWHERE e.app_id = ? AND e.name = ?", [.text(app), .text(environment)])
                .map(Self.liveRow)
        }
    }

    /// Every environment of every app with its live revision number (nil when none): one query of `environments`.
    package func liveRevisionNumbers() throws -> [(app: String, environment: String, revision: Int?)] {
        try database.read { db in
            try db.query("SELECT app_id, name, live_revision FROM environments").map { row in
                (
                    try row.get("app_id", as: String.self), try row.get("name", as: String.self),
                    try row.get("live_revision", as: Int64?.self).map(Int.init)
                )
            }
        }
    }

    /// The stored text of the environment's live revision; nil when the app or environment is unknown or has none.
    package func liveDocument(app: String, environment: String) throws -> String? {
        try database.read { db in
            try db.scalar(
                """
                SELECT r.document FROM environments e
                JOIN policy_revisions r ON r.app_id = e.app_id AND r.number = e.live_revision
                WHERE e.app_id = ? AND e.name = ?
                """, [.text(app), .text(environment)], as: String.self)
        }
    }

    /// The environment's live revision number: nil when the app or environment does not exist, `.some(nil)` when
    /// it has none.
    package func liveRevision(app: String, environment: String) throws -> Int?? {
        try database.read { db in try Self.liveRevision(db, app: app, environment: environment) }
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

    /// The app's row with its production environment's live revision and settings, and its revision count; nil
    /// when the app does not exist.
    package func app(_ app: String) throws -> AppRecord? {
        let row = try database.read { db in
            try db.queryOne(
                """
                SELECT a.id, a.name, e.live_revision, a.created_at, coalesce(e.updated_at, a.updated_at) AS updated_at,
                       coalesce(e.lint_strict, 0) AS lint_strict,
                       (SELECT count(*) FROM policy_revisions r WHERE r.app_id = a.id AND r.environment = ?) AS revisions
                FROM apps a LEFT JOIN environments e ON e.app_id = a.id AND e.name = ? WHERE a.id = ?
                """, [.text(Self.production), .text(Self.production), .text(app)])
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

    /// How many revisions the environment's chain has (0 for an unknown app or environment).
    package func revisionCount(app: String, environment: String) throws -> Int {
        try database.read { db in
            try db.scalar(
                "SELECT count(*) FROM policy_revisions WHERE app_id = ? AND environment = ?",
                [.text(app), .text(environment)], as: Int64.self)
        }.map(Int.init) ?? 0
    }

    /// Whether the environment refuses writes with lint errors; nil for an unknown app or environment.
    package func lintStrict(app: String, environment: String) throws -> Bool? {
        try self.environment(app: app, name: environment)?.lintStrict
    }

    /// The app's environments, sorted by name (production first among equals is not special); nil for an unknown
    /// app.
    package func environments(app: String) throws -> [EnvironmentSettings]? {
        try database.read { db -> [EnvironmentSettings]? in
            guard try db.queryOne("SELECT 1 FROM apps WHERE id = ?", [.text(app)]) != nil else { return nil }
            return try db.query(Self.environmentSelect + " WHERE e.app_id = ? ORDER BY e.name", [.text(app)])
                .map(Self.environmentSettings)
        }
    }

    /// One environment's settings and live revision; nil when the app or environment does not exist. What the
    /// change-request path reads to decide whether a change needs approval.
    package func environment(app: String, name: String) throws -> EnvironmentSettings? {
        try database.read { db in
            try db.queryOne(Self.environmentSelect + " WHERE e.app_id = ? AND e.name = ?", [.text(app), .text(name)])
                .map(Self.environmentSettings)
        }
    }

    private static let environmentSelect = """
        SELECT e.app_id, e.name, e.live_revision, e.required_approvals, e.allow_self_approval, e.lint_strict,
               e.created_at, e.updated_at,
               (SELECT count(*) FROM policy_revisions r WHERE r.app_id = e.app_id AND r.environment = e.name)
                   AS revisions
        FROM environments e
        """

    private static func environmentSettings(_ row: Row) throws -> EnvironmentSettings {
        EnvironmentSettings(
            app: try row.get("app_id", as: String.self), name: try row.get("name", as: String.self),
            liveRevision: try row.get("live_revision", as: Int64?.self).map(Int.init),
            requiredApprovals: Int(try row.get("required_approvals", as: Int64.self)),
            allowSelfApproval: try row.get("allow_self_approval", as: Int64.self) != 0,
            lintStrict: try row.get("lint_strict", as: Int64.self) != 0,
            createdAt: try row.get("created_at", as: Int64.self), updatedAt: try row.get("updated_at", as: Int64.self),
            revisionCount: Int(try row.get("revisions", as: Int64.self)))
    }

    /// The environment's revisions numbered below `before`, newest first, at most `limit`; nil when the app or the
    /// environment does not exist.
    package func revisions(app: String, environment: String, before: Int64?, limit: Int) throws -> [RevisionSummary]? {
        let rows = try database.read { db -> [Row]? in
            guard try Self.liveRevision(db, app: app, environment: environment) != nil else { return nil }
            return try db.query(
                """
                SELECT number, created_at, author, message,
                    \(db.engine == .sqlite ? "length(CAST(document AS BLOB))" : "octet_length(document)") AS size
                FROM policy_revisions
                WHERE app_id = ? AND environment = ? AND number < ? ORDER BY number DESC LIMIT ?
                """, [.text(app), .text(environment), .integer(before ?? Int64.max), .integer(Int64(limit))])
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
        /// The environment whose chain holds it.
        package let environment: String
        /// The revision number.
        package let number: Int
        /// The stored text.
        package let document: String
        /// Whether it is its environment's live revision.
        package let isLive: Bool
    }

    /// Every stored revision of every app, by app then number. Reads databases not yet migrated to environments
    /// (0011) too, as `prelude migrate --check` does before migrating: their revisions are production's.
    package func allRevisions() throws -> [StoredRevision] {
        try database.read { db in
            let migrated = try db.tableExists("environments")
            let query =
                migrated
                ? """
                SELECT r.app_id, r.environment, r.number, r.document, e.live_revision = r.number AS live
                FROM policy_revisions r LEFT JOIN environments e ON e.app_id = r.app_id AND e.name = r.environment
                ORDER BY r.app_id, r.number
                """
                : """
                SELECT r.app_id, 'production' AS environment, r.number, r.document, a.live_revision = r.number AS live
                FROM policy_revisions r JOIN apps a ON a.id = r.app_id
                ORDER BY r.app_id, r.number
                """
            return try db.query(query).map { row in
                StoredRevision(
                    app: try row.get("app_id", as: String.self),
                    environment: try row.get("environment", as: String.self),
                    number: Int(try row.get("number", as: Int64.self)),
                    document: try row.get("document", as: String.self),
                    isLive: (try row.get("live", as: Int64?.self) ?? 0) != 0)
            }
        }
    }

    /// Revision `number` of the environment's chain: nil when the app or environment does not exist, `.some(nil)`
    /// when its chain has no such revision.
    package func revision(app: String, environment: String, number: Int) throws -> Revision?? {
        let row = try database.read { db -> Row?? in
            guard try Self.liveRevision(db, app: app, environment: environment) != nil else { return nil }
            return .some(
                try db.queryOne(
                    """
                    SELECT number, environment, document, created_at, author, message FROM policy_revisions
                    WHERE app_id = ? AND environment = ? AND number = ?
                    """, [.text(app), .text(environment), .integer(Int64(number))]))
        }
        guard let found = row else { return nil }
        return .some(try found.map(Self.revision))
    }

    private static func revision(_ row: Row) throws -> Revision {
        Revision(
            number: Int(try row.get("number", as: Int64.self)),
            environment: try row.get("environment", as: String.self),
            document: try row.get("document", as: String.self),
            createdAt: try row.get("created_at", as: Int64.self),
            author: try row.get("author", as: String.self), message: try row.get("message", as: String?.self))
    }

    /// What `prelude policy export` finds for `app` and `revision` (the live one when nil), read in one transaction.
    package enum Export: Sendable, Equatable {
        /// No such app (or environment).
        case noApp
        /// The environment has no live revision (and none was asked for).
        case noLiveRevision
        /// The environment has no revision `number`; `highest` is its highest (nil when it has none).
        case noRevision(number: Int, highest: Int?)
        /// The revision and its stored text.
        case found(number: Int, document: String)
    }

    /// Finds the revision to export: `revision`, or the environment's live one.
    package func export(app: String, environment: String, revision: Int?) throws -> Export {
        try database.read { db in
            guard let live = try Self.liveRevision(db, app: app, environment: environment) else { return .noApp }
            guard let number = revision ?? live else { return .noLiveRevision }
            let text = try db.scalar(
                "SELECT document FROM policy_revisions WHERE app_id = ? AND environment = ? AND number = ?",
                [.text(app), .text(environment), .integer(Int64(number))], as: String.self)
            guard let text else {
                let highest =
                    try db.scalar(
                        "SELECT max(number) FROM policy_revisions WHERE app_id = ? AND environment = ?",
                        [.text(app), .text(environment)], as: Int64?.self) ?? nil
                return .noRevision(number: number, highest: highest.map(Int.init))
            }
            return .found(number: number, document: text)
        }
    }

    /// The number the app's next revision will get, in whichever environment (1 for an app without revisions).
    package func nextRevisionNumber(app: String) throws -> Int {
        try database.read { db in try Self.nextRevision(db, app: app) }
    }

    // MARK: - Writing

    /// Makes a new revision live in the app's `environment`, atomically: inserts it (number = the app's highest + 1,
    /// tagged ``RevisionTag``) in that environment's chain, points the environment's live revision at it, renames
    /// the app to `name` when the environment is production, and appends the audit record (`action` by `author`
    /// with `detail`), in one transaction.
    ///
    /// - Parameters:
    ///   - canonical: the document's canonical bytes (stored as its text).
    ///   - requiringLive: when given, the live revision the write is based on; the write is refused as
    ///     ``Refusal/stale`` unless the database still has exactly that live (nil: none).
    ///   - events: what the app's webhooks are told (``WebhookOutbox``): a delivery for each subscriber of each type
    ///     is written in the same transaction, with the revision numbers before and after and the diff between them.
    ///   - previous: the live document as the caller read it (canonical JSON), the diff's base; nil reads the
    ///     stored text of the live revision (which an earlier build may have written in an older canonical form).
    ///     Evaluated only when a webhook listens: a write nobody is told about never builds it.
    ///   - applying: the change request this publish applies (``ChangeRequestRepository/Application``): marked
    ///     applied with the new revision, and its own webhook event, in the same transaction; when it changed since
    ///     it was read, ``ChangeRequestRepository/Refusal/changed(id:)`` rolls everything back.
    ///   - rulesVersion: the validator rules version (``PreludeCore/PolicyValidator/rulesVersion``) that accepted
    ///     `canonical`, with no findings, in the writing build, recorded with the revision so that a start-up under
    ///     the same rules does not validate it again; nil when the bytes were not validated so (the revision is then
    ///     validated at every start-up).
    /// - Returns: the new revision's number.
    /// - Throws: ``Refusal/unknownApp(_:)``, ``Refusal/unknownEnvironment(app:environment:)``, ``Refusal/stale``,
    ///   ``ChangeRequestRepository/Refusal/changed(id:)``, or `StorageError`.
    package func publish(
        app: String, environment: String, name: String, canonical: [UInt8], author: String, action: String,
        message: String?, detail: JSONValue, at now: Int64, requiringLive expected: Int?? = nil,
        events: [WebhookEventType] = [.revisionPublished], previous: @autoclosure () -> JSONValue? = nil,
        applying application: ChangeRequestRepository.Application? = nil, rulesVersion: Int? = nil
    ) throws -> Int {
        try database.write { db -> Int in
            try Self.serializeRevisions(db, app: app)
            guard let live = try Self.liveRevision(db, app: app, environment: environment) else {
                throw try Self.missing(db, app: app, environment: environment)
            }
            if let expected, live != expected { throw Refusal.stale }
            let revision = try Self.insertRevision(
                db, app: app, environment: environment, name: name, canonical: canonical, author: author,
                action: action, message: message, detail: detail, now: now, rulesVersion: rulesVersion)
            try Self.enqueueWebhooks(
                db, app: app, environment: environment, events: events, before: live, previous: previous(),
                after: revision, canonical: canonical, actor: author, action: action, message: message, now: now)
            if let application {
                try ChangeRequestRepository.apply(db, application, revision: revision)
            }
            return revision
        }
    }

    /// Creates `app` with its `production` environment and its first revision live there, and an `app.create`
    /// audit record, in one transaction; refused with ``Refusal/appExists(_:)`` when the app exists. `rulesVersion`
    /// as for `publish(…)`.
    package func createApp(
        app: String, name: String, canonical: [UInt8], author: String, message: String?, detail: JSONValue,
        at now: Int64, rulesVersion: Int? = nil
    ) throws {
        try database.write { db in
            try Self.serializeRevisions(db, app: app)
            guard try db.scalar("SELECT count(*) FROM apps WHERE id = ?", [.text(app)], as: Int64.self) == 0 else {
                throw Refusal.appExists(app)
            }
            try db.statement(
                "INSERT INTO apps (id, name, live_revision, created_at, updated_at) VALUES (?, ?, NULL, ?, ?)"
            ).execute([.text(app), .text(name), .integer(now), .integer(now)])
            try Self.insertEnvironment(db, app: app, name: Self.production, now: now)
            _ = try Self.insertRevision(
                db, app: app, environment: Self.production, name: name, canonical: canonical, author: author,
                action: "app.create", message: message, detail: detail, now: now, rulesVersion: rulesVersion)
        }
    }

    /// Creates environment `name` of `app` with default settings and an `environment.create` audit record, in one
    /// transaction. With `first`, the new environment's first revision is that document (a copy of another
    /// environment's live policy, canonical bytes), audited in the same record; otherwise it has no live revision
    /// until one is published. `rulesVersion` is the first revision's, as for
    /// `publish(…)`.
    ///
    /// - Returns: the first revision's number when one was written.
    /// - Throws: ``Refusal/unknownApp(_:)``, ``Refusal/environmentExists(app:environment:)``, or `StorageError`.
    @discardableResult
    package func createEnvironment(
        app: String, name: String, first: (canonical: [UInt8], message: String?)?, actor: String, detail: JSONValue,
        at now: Int64, rulesVersion: Int? = nil
    ) throws -> Int? {
        precondition(EnvironmentName.isValid(name), "environment names are validated by the caller")
        return try database.write { db -> Int? in
            try Self.serializeRevisions(db, app: app)
            guard let appName = try db.scalar("SELECT name FROM apps WHERE id = ?", [.text(app)], as: String.self)
            else { throw Refusal.unknownApp(app) }
            guard try Self.liveRevision(db, app: app, environment: name) == nil else {
                throw Refusal.environmentExists(app: app, environment: name)
            }
            try Self.insertEnvironment(db, app: app, name: name, now: now)
            guard let first else {
                try AuditLog.append(
                    db, actor: actor, app: app, environment: name, action: "environment.create", revision: nil,
                    detail: detail, at: now)
                return nil
            }
            let revision = try Self.insertRevision(
                db, app: app, environment: name, name: appName, canonical: first.canonical, author: actor,
                action: "environment.create", message: first.message, detail: detail, now: now,
                rulesVersion: rulesVersion)
            // The environment's first live revision is a publish there (no revision before it).
            try Self.enqueueWebhooks(
                db, app: app, environment: name, events: [.revisionPublished], before: nil, previous: nil,
                after: revision, canonical: first.canonical, actor: actor, action: "environment.create",
                message: first.message, now: now)
            return revision
        }
    }

    /// What ``updateEnvironment(app:name:change:actor:action:at:check:applying:)`` did: the settings before and
    /// after, read in its transaction.
    package struct SettingsUpdate: Sendable, Equatable {
        /// The settings before the change.
        package var before: EnvironmentSettings
        /// The settings now stored.
        package var after: EnvironmentSettings
    }

    /// Changes the environment's settings (nil members of `change` stay), in one transaction: reads the settings
    /// now, asks `check` whether the change is allowed over them (it throws to refuse, or returns what allowed it),
    /// writes them, appends the audit record (`action`, detail `{member: {from, to}}` for each member `change` sets,
    /// plus `bypass: true` or `changeRequest` when that allowed it), enqueues `environment.updated` for the webhooks
    /// that listen when a value changed, and applies the change request `applying` carries (marked applied and told
    /// to its webhooks, ``ChangeRequestRepository/Application``). Throws ``Refusal/unknownApp(_:)``,
    /// ``Refusal/unknownEnvironment(app:environment:)`` or ``ChangeRequestRepository/Refusal/changed(id:)``.
    package func updateEnvironment(
        app: String, name: String, change: EnvironmentSettings.Change, actor: String,
        action: String = "environment.settings", at now: Int64,
        check: (EnvironmentSettings) throws -> GovernanceGate.Authority = { _ in .writer },
        applying application: ChangeRequestRepository.Application? = nil
    ) throws -> SettingsUpdate {
        if let approvals = change.requiredApprovals {
            precondition((0...EnvironmentSettings.maximumApprovals).contains(approvals), "validated by the caller")
        }
        return try database.write { db in
            guard
                let before = try db.queryOne(
                    Self.environmentSelect + " WHERE e.app_id = ? AND e.name = ?", [.text(app), .text(name)]
                ).map(Self.environmentSettings)
            else { throw try Self.missing(db, app: app, environment: name) }
            let authority = try check(before)
            try db.execute(
                """
                UPDATE environments SET required_approvals = coalesce(?, required_approvals),
                    allow_self_approval = coalesce(?, allow_self_approval), lint_strict = coalesce(?, lint_strict),
                    updated_at = ?
                WHERE app_id = ? AND name = ?
                """,
                [
                    change.requiredApprovals.map { .integer(Int64($0)) } ?? .null,
                    change.allowSelfApproval.map { .integer($0 ? 1 : 0) } ?? .null,
                    change.lintStrict.map { .integer($0 ? 1 : 0) } ?? .null, .integer(now), .text(app), .text(name),
                ])
            guard
                let after = try db.queryOne(
                    Self.environmentSelect + " WHERE e.app_id = ? AND e.name = ?", [.text(app), .text(name)]
                ).map(Self.environmentSettings)
            else { throw Refusal.unknownEnvironment(app: app, environment: name) }
            var detail = change.auditDetail(before: before)
            switch authority {
            case .writer: break
            // The members' from/to already say what the environment required before.
            case .bypass: detail["bypass"] = .bool(true)
            case .changeRequest(let id): detail["changeRequest"] = .integer(Int(id))
            }
            try AuditLog.append(
                db, actor: actor, app: app, environment: name, action: action, revision: nil, detail: .object(detail),
                at: now)
            if before.governance != after.governance {
                let webhooks = try WebhookOutbox.subscribers(
                    db, app: app, environment: name, type: .environmentUpdated)
                if !webhooks.isEmpty {
                    let event = EnvironmentUpdatedEvent(
                        app: app, environment: name, actor: actor, action: action, before: before.governance,
                        after: after.governance, authority: authority)
                    try WebhookOutbox.enqueue(
                        db, webhooks: webhooks, app: app, environment: name, type: .environmentUpdated,
                        data: event.jsonValue, at: now)
                }
            }
            if let application { try ChangeRequestRepository.apply(db, application, revision: nil) }
            return SettingsUpdate(before: before, after: after)
        }
    }

    /// Deletes `app`, its environments, revisions and events (foreign-key cascade) with an `app.delete` audit record
    /// that outlives them, in one transaction. `requiringLive` is production's live revision the caller saw, as for
    /// ``publish(app:environment:name:canonical:author:action:message:detail:at:requiringLive:)``.
    package func deleteApp(app: String, author: String, detail: JSONValue, at now: Int64, requiringLive expected: Int??)
        throws
    {
        try database.write { db in
            guard try db.queryOne("SELECT 1 FROM apps WHERE id = ?", [.text(app)]) != nil else {
                throw Refusal.unknownApp(app)
            }
            let live = try Self.liveRevision(db, app: app, environment: Self.production) ?? nil
            if let expected, live != expected { throw Refusal.stale }
            try db.statement("DELETE FROM apps WHERE id = ?").execute([.text(app)])
            try AuditLog.append(
                db, actor: author, app: app, environment: nil, action: "app.delete", revision: live.map(Int64.init),
                detail: detail, at: now)
        }
    }

    /// Sets the environment's strict-lint flag with an `app.settings` audit record (`detail`), in one transaction.
    /// Throws ``Refusal/unknownApp(_:)`` or ``Refusal/unknownEnvironment(app:environment:)``.
    package func setLintStrict(
        app: String, environment: String, to strict: Bool, actor: String, detail: JSONValue, at now: Int64
    ) throws {
        try database.write { db in
            try db.execute(
                "UPDATE environments SET lint_strict = ? WHERE app_id = ? AND name = ?",
                [.integer(strict ? 1 : 0), .text(app), .text(environment)])
            guard db.changes == 1 else { throw try Self.missing(db, app: app, environment: environment) }
            try AuditLog.append(
                db, actor: actor, app: app, environment: environment, action: "app.settings", revision: nil,
                detail: detail, at: now)
        }
    }

    // MARK: - Internals

    private static func liveRow(_ row: Row) throws -> LiveRow {
        let revision = try row.get("live_revision", as: Int64?.self).map(Int.init)
        let document = try row.get("document", as: String?.self)
        let hasRevision = revision != nil && document != nil
        return LiveRow(
            app: try row.get("app_id", as: String.self), environment: try row.get("environment", as: String.self),
            revision: revision, document: document,
            createdAt: hasRevision ? try row.get("created_at", as: Int64.self) : 0,
            author: hasRevision ? try row.get("author", as: String.self) : "",
            message: hasRevision ? try row.get("message", as: String?.self) : nil,
            etag: hasRevision ? try row.get("etag", as: String?.self) : nil,
            rulesVersion: hasRevision ? try row.get("rules_version", as: Int64?.self).map(Int.init) : nil)
    }

    /// nil when the app or environment does not exist, `.some(nil)` when it has no live revision.
    private static func liveRevision(_ db: Connection, app: String, environment: String) throws -> Int?? {
        guard
            let row = try db.statement("SELECT live_revision FROM environments WHERE app_id = ? AND name = ?")
                .query([.text(app), .text(environment)]).first
        else { return nil }
        return .some(try row.get(0, as: Int64?.self).map(Int.init))
    }

    /// The refusal for an environment that is not there: the app's, or the environment's.
    private static func missing(_ db: Connection, app: String, environment: String) throws -> Refusal {
        try db.queryOne("SELECT 1 FROM apps WHERE id = ?", [.text(app)]) == nil
            ? .unknownApp(app) : .unknownEnvironment(app: app, environment: environment)
    }

    /// Waits until no other process is writing a revision of `app`, and holds that until this transaction ends
    /// (``Connection/serializeWithOtherProcesses(key:)``; nothing on SQLite). Nodes of a cluster publish at once:
    /// each numbers a revision as the app's highest + 1 and checks `If-Match` against the live one, so without it
    /// two nodes took the same number and the second failed on the primary key (a 500 in the cluster drill).
    package static func serializeRevisions(_ db: Connection, app: String) throws {
        guard db.engine == .postgres else { return }  // one process writes SQLite: no key to hash
        let key = SHA256.digest(("revisions\u{0}" + app).utf8).prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        try db.serializeWithOtherProcesses(key: key)
    }

    /// The app's highest revision number + 1. A writer holds ``serializeRevisions(_:app:)`` already (taken once,
    /// before it reads the live revision: a second call would be one more round trip for a lock it has).
    private static func nextRevision(_ db: Connection, app: String) throws -> Int {
        Int(
            try db.scalar(
                "SELECT coalesce(max(number), 0) + 1 FROM policy_revisions WHERE app_id = ?", [.text(app)],
                as: Int64.self) ?? 1)
    }

    /// The webhook deliveries of a revision change, inside the publishing transaction; the two documents are parsed
    /// and diffed only when a webhook listens.
    private static func enqueueWebhooks(
        _ db: Connection, app: String, environment: String, events: [WebhookEventType], before: Int?,
        previous: @autoclosure () -> JSONValue?, after: Int, canonical: [UInt8], actor: String, action: String,
        message: String?, now: Int64
    ) throws {
        var listeners: [(WebhookEventType, [String])] = []
        for event in events {
            let webhooks = try WebhookOutbox.subscribers(db, app: app, environment: environment, type: event)
            if !webhooks.isEmpty { listeners.append((event, webhooks)) }
        }
        guard !listeners.isEmpty else { return }
        let previous = previous()
        var oldValue = previous ?? .null
        if previous == nil, let before,
            let text = try db.scalar(
                "SELECT document FROM policy_revisions WHERE app_id = ? AND number = ?",
                [.text(app), .integer(Int64(before))], as: String.self)
        {
            // Stored documents are JSON written by this service: they parse. An unparsable one (a damaged row)
            // diffs as null, so the change is still reported.
            oldValue = (try? JSONValue(parsing: text)) ?? .null
        }
        let newValue = (try? JSONValue(parsing: String(decoding: canonical, as: UTF8.self))) ?? .null
        let change = RevisionChangeEvent(
            app: app, environment: environment, actor: actor, action: action, message: message,
            before: before, after: after, changes: JSONDiff.changes(from: oldValue, to: newValue))
        for (event, webhooks) in listeners {
            try WebhookOutbox.enqueue(
                db, webhooks: webhooks, app: app, environment: environment, type: event,
                data: change.jsonValue, at: now)
        }
    }

    private static func insertEnvironment(_ db: Connection, app: String, name: String, now: Int64) throws {
        try db.statement(
            "INSERT INTO environments (app_id, name, live_revision, created_at, updated_at) VALUES (?, ?, NULL, ?, ?)"
        ).execute([.text(app), .text(name), .integer(now), .integer(now)])
    }

    private static func insertRevision(
        _ db: Connection, app: String, environment: String, name: String, canonical: [UInt8], author: String,
        action: String, message: String?, detail: JSONValue, now: Int64, rulesVersion: Int?
    ) throws -> Int {
        let next = try nextRevision(db, app: app)
        try db.statement(
            """
            INSERT INTO policy_revisions (app_id, number, document, etag, created_at, author, message, environment,
                rules_version)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        ).execute([
            .text(app), .integer(Int64(next)), .text(String(decoding: canonical, as: UTF8.self)),
            .text(RevisionTag.quoted(revision: next, canonical: canonical)), .integer(now), .text(author),
            message.map(SQLValue.text) ?? .null, .text(environment), rulesVersion.map { .integer(Int64($0)) } ?? .null,
        ])
        try db.statement("UPDATE environments SET live_revision = ?, updated_at = ? WHERE app_id = ? AND name = ?")
            .execute([.integer(Int64(next)), .integer(now), .text(app), .text(environment)])
        // The app's name is production's policy's (`app.name`); other environments do not rename it.
        if environment == production {
            try db.statement("UPDATE apps SET name = ?, updated_at = ? WHERE id = ?").execute([
                .text(name), .integer(now), .text(app),
            ])
        }
        try AuditLog.append(
            db, actor: author, app: app, environment: environment, action: action, revision: Int64(next),
            detail: detail, at: now)
        return next
    }
}
