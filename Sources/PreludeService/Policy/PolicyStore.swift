import PreludeCore
import PreludeHTTP
import PreludeStorage
import Synchronization

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// The live policy of every app: loaded from the database at start, served from memory, changed only through
/// its write methods, which commit a revision and its audit row in one transaction and then swap the app's
/// ``LiveSnapshot`` atomically.
///
/// Readers call ``snapshot(app:)``: one mutex-protected dictionary lookup returning an immutable snapshot, so a
/// request sees one whole revision, never part of one, and the next request after a commit sees the new one.
///
/// Writes are serialized by the store's own lock around the database transaction *and* the swap, so two
/// commits cannot swap in the opposite order of their transactions. Every write first checks the caller's
/// `If-Match` value against the live snapshot (``PolicyStoreError/stale(current:)`` otherwise), then, inside the
/// transaction, that the database still holds that revision as live (a write by another process makes it stale too,
/// after reloading the app).
///
/// Errors are ``PolicyStoreError`` (unknown app, app exists, a document for another app, stale `If-Match`), which
/// the HTTP layer maps to problems (``PolicyStoreProblem/problem(for:)``), or `StorageError`.
package final class PolicyStore: Sendable {
    /// Why an app in the database is not being served.
    package struct Unavailable: Sendable, Equatable {
        /// The live revision number, nil when the app has none.
        package let revision: Int?
        /// What is wrong, for logs and the 503 problem.
        package let reason: String
    }

    private struct State {
        var snapshots: [String: LiveSnapshot] = [:] {
            // Changes are publications and reloads; lookups are every public request.
            didSet { servedByID = ByteKeyTable(snapshots) }
        }
        /// `snapshots` again, looked up from the app id's bytes without hashing a `String` (``ByteKeyTable``).
        var servedByID = ByteKeyTable<LiveSnapshot>()
        var unavailable: [String: Unavailable] = [:]
    }

    private let database: Database
    private let state = Mutex(State())
    private let writeLock = PosixLock(())
    private let clock: ServiceClock
    /// Capacity of each snapshot's resolved-response cache.
    package let resolvedCacheCapacity: Int
    /// Bumped after every change of what is served (a swap, a reload, a deletion): the change feed waits on it.
    package let changes = ChangeSignal()
    /// The `Cache-Control` values of the responses prepared for each snapshot.
    package let cacheControl: PolicyCacheControl

    /// A store over `database`; call ``loadAll()`` before serving.
    ///
    /// - Parameters:
    ///   - resolvedCacheCapacity: the most resolved-policy responses kept per revision.
    ///   - cacheControl: the `Cache-Control` values of the policy responses prepared when a revision goes live.
    ///   - clock: the wall clock of revision and audit times (tests inject a fixed one).
    package init(
        database: Database, resolvedCacheCapacity: Int = 1024, cacheControl: PolicyCacheControl = .defaults,
        clock: ServiceClock = .system
    ) {
        self.database = database
        self.resolvedCacheCapacity = resolvedCacheCapacity
        self.cacheControl = cacheControl
        self.clock = clock
    }

    // MARK: - Reading

    /// The live snapshot of `app`, or nil when the app does not exist or is not servable.
    package func snapshot(app: String) -> LiveSnapshot? {
        state.withLock { $0.servedByID[app] }
    }

    /// Why `app` exists but is not served (its live revision does not validate, or it has none), else nil.
    package func unavailability(app: String) -> Unavailable? {
        state.withLock { $0.unavailable[app] }
    }

    /// Every app that exists and is not served, with why.
    package var unavailableApps: [String: Unavailable] {
        state.withLock { $0.unavailable }
    }

    /// The ids of the apps being served, sorted.
    package var appIDs: [String] {
        state.withLock { $0.snapshots.keys.sorted() }
    }

    /// Loads every app's live revision, replacing what the store held. Returns the apps that could not be
    /// served (their revision does not decode and validate with this build), which are also kept for
    /// ``unavailability(app:)``.
    @discardableResult
    package func loadAll() throws -> [String: Unavailable] {
        let rows = try database.read { db in
            try db.query(
                """
                SELECT a.id, a.live_revision, r.document, r.created_at, r.author, r.message
                FROM apps a LEFT JOIN policy_revisions r ON r.app_id = a.id AND r.number = a.live_revision
                ORDER BY a.id
                """)
        }
        var fresh = State()
        for row in rows {
            let app = try row.get("id", as: String.self)
            switch try Self.decodeLive(row, capacity: resolvedCacheCapacity, cacheControl: cacheControl) {
            case .success(let snapshot): fresh.snapshots[app] = snapshot
            case .failure(let unavailable): fresh.unavailable[app] = unavailable
            }
        }
        let unavailable = fresh.unavailable
        state.withLock { $0 = fresh }
        changes.bump()
        return unavailable
    }

    /// Reloads one app from the database (after another process changed it).
    package func reload(app: String) throws {
        let row = try database.read { db in
            try db.queryOne(
                """
                SELECT a.id, a.live_revision, r.document, r.created_at, r.author, r.message
                FROM apps a LEFT JOIN policy_revisions r ON r.app_id = a.id AND r.number = a.live_revision
                WHERE a.id = ?
                """, [.text(app)])
        }
        let outcome = try row.map {
            try Self.decodeLive($0, capacity: resolvedCacheCapacity, cacheControl: cacheControl)
        }
        state.withLock { state in
            state.snapshots[app] = nil
            state.unavailable[app] = nil
            switch outcome {
            case .success(let snapshot): state.snapshots[app] = snapshot
            case .failure(let unavailable): state.unavailable[app] = unavailable
            case nil: break
            }
        }
        changes.bump()
    }

    /// Reloads every app whose live revision in the database differs from the one served, and drops apps that
    /// no longer exist: what another process (`prelude policy import`, a second server) committed goes live here.
    /// Returns the apps reloaded or dropped, sorted. Cheap when nothing changed: one query of the `apps` table.
    ///
    /// Runs under the write lock, so it cannot swap in an older revision over a newer commit of this process.
    @discardableResult
    package func refreshChanged() throws -> [String] {
        try locked {
            let live = try database.read { db in
                try db.query("SELECT id, live_revision FROM apps").map { row in
                    (try row.get("id", as: String.self), try row.get("live_revision", as: Int?.self))
                }
            }
            let served = state.withLock { state in
                state.snapshots.mapValues { Optional($0.revision) }.merging(
                    state.unavailable.mapValues(\.revision)
                ) { snapshot, _ in snapshot }
            }
            let inDatabase = Dictionary(live, uniquingKeysWith: { first, _ in first })
            var changed = inDatabase.filter { app, revision in served[app].map { $0 != revision } ?? true }.keys
                .sorted()
            for app in changed { try reload(app: app) }
            let gone = served.keys.filter { inDatabase[$0] == nil }.sorted()
            state.withLock { state in
                for app in gone {
                    state.snapshots[app] = nil
                    state.unavailable[app] = nil
                }
            }
            if !gone.isEmpty { changes.bump() }
            changed += gone
            return changed.sorted()
        }
    }

    // MARK: - Writing

    /// Makes `document` the live policy of `app` as a new revision (number = highest + 1), with its audit row,
    /// in one transaction; then swaps the snapshot.
    ///
    /// - Parameters:
    ///   - document: a document that passed ``PolicyValidator``; its `app.id` must be `app` (else refused).
    ///   - author: who made the change (a token name); stored on the revision and as the audit actor.
    ///   - action: the audit action, e.g. `policy.replace`, `feature.patch`.
    ///   - expectedETag: the request's `If-Match` value; nil skips the check (trusted callers such as imports).
    ///   - auditDetail: what changed, stored as the audit row's JSON detail.
    /// - Returns: the new live snapshot.
    @discardableResult
    package func commit(
        app: String, document: PolicyDocument, author: String, action: String, message: String?,
        expectedETag: String?, auditDetail: JSONValue
    ) throws -> LiveSnapshot {
        try Self.requireSameApp(document, app)
        let prepared = LiveSnapshot.PreparedDocument(document)
        return try locked {
            let current = try checkPrecondition(app: app, expectedETag: expectedETag)
            let now = clock.milliseconds
            let revision: Int
            do {
                revision = try database.write { db -> Int in
                    guard let live = try Self.liveRevision(db, app: app) else {
                        throw PolicyStoreError.unknownApp(app)
                    }
                    if expectedETag != nil, live != current {
                        throw StaleSnapshot()
                    }
                    return try Self.insertRevision(
                        db, app: app, document: document, canonical: prepared.canonical, author: author,
                        action: action, message: message, detail: auditDetail, now: now)
                }
            } catch is StaleSnapshot {
                try reload(app: app)
                throw PolicyStoreError.stale(current: snapshot(app: app))
            }
            return swapIn(
                LiveSnapshot(
                    appID: app, revision: revision, document: document, prepared: prepared, createdAt: now,
                    author: author, message: message, resolvedCacheCapacity: resolvedCacheCapacity,
                    cacheControl: cacheControl))
        }
    }

    /// Refuses unless `document` is the policy of `app` (its `app.id` must match the address it is written to).
    private static func requireSameApp(_ document: PolicyDocument, _ app: String) throws(PolicyStoreError) {
        guard document.app.id == app else {
            throw PolicyStoreError.appMismatch(app: app, documentApp: document.app.id)
        }
    }

    /// Creates `app` with `document` as revision 1 and an `app.create` audit row; refused when the app exists.
    @discardableResult
    package func createApp(
        app: String, document: PolicyDocument, author: String, message: String?,
        auditDetail: JSONValue = .object(JSONObject())
    ) throws -> LiveSnapshot {
        try Self.requireSameApp(document, app)
        let prepared = LiveSnapshot.PreparedDocument(document)
        return try locked {
            let now = clock.milliseconds
            try database.write { db in
                guard try db.scalar("SELECT count(*) FROM apps WHERE id = ?", [.text(app)], as: Int64.self) == 0 else {
                    throw PolicyStoreError.appExists(app)
                }
                try db.statement(
                    "INSERT INTO apps (id, name, live_revision, created_at, updated_at) VALUES (?, ?, NULL, ?, ?)"
                ).execute([.text(app), .text(document.app.name), .integer(now), .integer(now)])
                _ = try Self.insertRevision(
                    db, app: app, document: document, canonical: prepared.canonical, author: author,
                    action: "app.create", message: message, detail: auditDetail, now: now)
            }
            return swapIn(
                LiveSnapshot(
                    appID: app, revision: 1, document: document, prepared: prepared, createdAt: now, author: author,
                    message: message, resolvedCacheCapacity: resolvedCacheCapacity, cacheControl: cacheControl))
        }
    }

    /// Deletes `app`, its revisions and its events (foreign-key cascade), with an `app.delete` audit row that
    /// outlives them; then stops serving it. Refused when the app is unknown or `expectedETag` is stale.
    package func deleteApp(
        app: String, author: String, expectedETag: String?, auditDetail: JSONValue = .object(JSONObject())
    )
        throws
    {
        try locked {
            let current = try checkPrecondition(app: app, expectedETag: expectedETag)
            let now = clock.milliseconds
            do {
                try database.write { db in
                    guard let live = try Self.liveRevision(db, app: app) else {
                        throw PolicyStoreError.unknownApp(app)
                    }
                    if expectedETag != nil, live != current { throw StaleSnapshot() }
                    try db.statement("DELETE FROM apps WHERE id = ?").execute([.text(app)])
                    try Self.insertAudit(
                        db, actor: author, app: app, action: "app.delete", revision: live.map(Int64.init),
                        detail: auditDetail, now: now)
                }
            } catch is StaleSnapshot {
                try reload(app: app)
                throw PolicyStoreError.stale(current: snapshot(app: app))
            }
            state.withLock { state in
                state.snapshots[app] = nil
                state.unavailable[app] = nil
            }
            changes.bump()
        }
    }

    // MARK: - Internals

    private struct StaleSnapshot: Error {}

    private func locked<T>(_ body: () throws -> T) throws -> T {
        try writeLock.withLock { _ in try body() }
    }

    /// Refuses (stale) unless `expectedETag` (an If-Match value) names the live snapshot; returns the live revision number
    /// checked (which the transaction then verifies is still live in the database).
    private func checkPrecondition(app: String, expectedETag: String?) throws -> Int? {
        if let current = snapshot(app: app) {
            if let expectedETag, !current.matchesIfMatch(expectedETag) {
                throw PolicyStoreError.stale(current: current)
            }
            return current.revision
        }
        if let broken = unavailability(app: app) {
            // An app whose live revision is broken has no current representation: only `*` can replace it.
            if let expectedETag, !ETag.parseList(expectedETag).isWildcard {
                throw PolicyStoreError.stale(current: nil)
            }
            return broken.revision
        }
        return nil
    }

    private func swapIn(_ snapshot: LiveSnapshot) -> LiveSnapshot {
        state.withLock { state in
            state.snapshots[snapshot.appID] = snapshot
            state.unavailable[snapshot.appID] = nil
        }
        changes.bump()
        return snapshot
    }

    /// The app's live revision: nil when the app does not exist, `.some(nil)` when it has none.
    private static func liveRevision(_ db: Connection, app: String) throws -> Int?? {
        guard let row = try db.statement("SELECT live_revision FROM apps WHERE id = ?").query([.text(app)]).first
        else { return nil }
        return .some(try row.get(0, as: Int64?.self).map(Int.init))
    }

    private static func insertRevision(
        _ db: Connection, app: String, document: PolicyDocument, canonical: [UInt8], author: String, action: String,
        message: String?, detail: JSONValue, now: Int64
    ) throws -> Int {
        let next =
            try db.scalar(
                "SELECT coalesce(max(number), 0) + 1 FROM policy_revisions WHERE app_id = ?", [.text(app)],
                as: Int64.self) ?? 1
        let etag = PolicyETag.make(revision: Int(next), canonical: canonical)
        try db.statement(
            """
            INSERT INTO policy_revisions (app_id, number, document, etag, created_at, author, message)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """
        ).execute([
            .text(app), .integer(next), .text(String(decoding: canonical, as: UTF8.self)), .text(etag.headerValue),
            .integer(now), .text(author), message.map(SQLValue.text) ?? .null,
        ])
        try db.statement("UPDATE apps SET live_revision = ?, name = ?, updated_at = ? WHERE id = ?").execute([
            .integer(next), .text(document.app.name), .integer(now), .text(app),
        ])
        try insertAudit(db, actor: author, app: app, action: action, revision: next, detail: detail, now: now)
        return Int(next)
    }

    private static func insertAudit(
        _ db: Connection, actor: String, app: String, action: String, revision: Int64?, detail: JSONValue, now: Int64
    ) throws {
        try db.statement(
            "INSERT INTO audit_log (occurred_at, actor, app_id, action, revision, detail) VALUES (?, ?, ?, ?, ?, ?)"
        ).execute([
            .integer(now), .text(actor), .text(app), .text(action), revision.map(SQLValue.integer) ?? .null,
            .text(detail.serialized()),
        ])
    }

    /// Decodes one `apps ⟕ policy_revisions` row into a snapshot, or why it cannot be served.
    private static func decodeLive(_ row: Row, capacity: Int, cacheControl: PolicyCacheControl) throws -> Result<
        LiveSnapshot, Unavailable
    > {
        let app = try row.get("id", as: String.self)
        guard let revision = try row.get("live_revision", as: Int64?.self).map(Int.init),
            let text = try row.get("document", as: String?.self)
        else {
            return .failure(Unavailable(revision: nil, reason: "the app has no live revision"))
        }
        let reading = StoredPolicyReader.read(text: text)
        guard let document = reading.document else {
            return .failure(
                Unavailable(
                    revision: revision, reason: "revision \(revision) cannot be served: \(reading.refusal ?? "")"))
        }
        guard document.app.id == app else {
            return .failure(
                Unavailable(
                    revision: revision, reason: "revision \(revision) is for app \"\(document.app.id)\", not \"\(app)\""
                ))
        }
        return .success(
            LiveSnapshot(
                appID: app, revision: revision, document: document, prepared: LiveSnapshot.PreparedDocument(document),
                createdAt: try row.get("created_at", as: Int64.self), author: try row.get("author", as: String.self),
                message: try row.get("message", as: String?.self), resolvedCacheCapacity: capacity,
                cacheControl: cacheControl, storedFindings: reading.findings, fallbacks: reading.fallbacks))
    }
}

extension PolicyStore.Unavailable: Error {}
