import PreludeCore
import PreludeStorage
import PreludeStore
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
/// ``ServedPolicy`` atomically.
///
/// Readers call ``snapshot(app:)``: one mutex-protected dictionary lookup returning an immutable snapshot, so a
/// request sees one whole revision, never part of one, and the next request after a commit sees the new one.
///
/// Writes are serialized by the store's own lock around the database transaction *and* the swap, so two
/// commits cannot swap in the opposite order of their transactions. Every write first checks the caller's
/// `If-Match` condition (a ``PreludeStore/RevisionPrecondition``, tags as bytes) against the live snapshot (``PolicyStoreError/stale(current:)`` otherwise), then, inside the
/// transaction, that the database still holds that revision as live (a write by another process makes it stale too,
/// after reloading the app).
///
/// Errors are ``PolicyStoreError`` (unknown app, app exists, a document for another app, stale `If-Match`), which
/// the HTTP layer maps to problems (``PolicyStoreProblem/problem(for:)``), or `StorageError`.
package final class PolicyStore: Sendable {
    /// Why an app in the database is not being served (its live revision, and what is wrong).
    package typealias Unavailable = PolicyRevision.Unservable

    private struct State {
        var snapshots: [String: ServedPolicy] = [:] {
            // Changes are publications and reloads; lookups are every public request.
            didSet { servedByID = ByteKeyTable(snapshots) }
        }
        /// `snapshots` again, looked up from the app id's bytes without hashing a `String` (``ByteKeyTable``).
        var servedByID = ByteKeyTable<ServedPolicy>()
        var unavailable: [String: Unavailable] = [:]
    }

    private let repository: PolicyRepository
    private let state = Mutex(State())
    private let writeLock = Mutex(())
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
        repository = PolicyRepository(database: database)
        self.resolvedCacheCapacity = resolvedCacheCapacity
        self.cacheControl = cacheControl
        self.clock = clock
    }

    // MARK: - Reading

    /// The live snapshot of `app`, or nil when the app does not exist or is not servable.
    package func snapshot(app: String) -> ServedPolicy? {
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
        let rows = try repository.liveRows()
        // Reading and validating a stored revision is pure and independent per app (most of start-up's time with
        // many apps): on every core at once.
        let decoded = Mutex<[(String, Result<ServedPolicy, Unavailable>)]>([])
        let capacity = resolvedCacheCapacity
        let cacheControl = cacheControl
        DispatchQueue.concurrentPerform(iterations: rows.count) { index in
            let outcome = Self.decodeLive(rows[index], capacity: capacity, cacheControl: cacheControl)
            decoded.withLock { $0.append((rows[index].app, outcome)) }
        }
        var served: [String: ServedPolicy] = [:]
        var fresh = State()
        for (app, outcome) in decoded.withLock({ $0 }) {
            switch outcome {
            case .success(let snapshot): served[app] = snapshot
            case .failure(let unavailable): fresh.unavailable[app] = unavailable
            }
        }
        // One assignment, so the lookup table is built once (its `didSet`), not once per app.
        fresh.snapshots = served
        let unavailable = fresh.unavailable
        state.withLock { $0 = fresh }
        changes.bump()
        return unavailable
    }

    /// Reloads one app from the database (after another process changed it).
    package func reload(app: String) throws {
        let outcome = try repository.liveRow(app: app).map {
            Self.decodeLive($0, capacity: resolvedCacheCapacity, cacheControl: cacheControl)
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
            let live = try repository.liveRevisionNumbers().map { ($0.app, $0.revision) }
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
    ///   - precondition: what the live revision must be (the request's `If-Match`, parsed by the HTTP adapter);
    ///     nil skips the check (trusted callers such as imports).
    ///   - auditDetail: what changed, stored as the audit row's JSON detail.
    ///   - alongside: statements that commit in the same transaction as the revision (or roll it back by throwing),
    ///     given the new revision's number: a change request marked applied.
    /// - Returns: the new live snapshot.
    @discardableResult
    package func commit(
        app: String, document: PolicyDocument, author: String, action: String, message: String?,
        precondition: RevisionPrecondition?, auditDetail: JSONValue,
        alongside: ((Connection, Int) throws -> Void)? = nil
    ) throws -> ServedPolicy {
        try Self.requireSameApp(document, app)
        let prepared = ServedPolicy.PreparedDocument(document)
        return try locked {
            let current = try checkPrecondition(app: app, precondition)
            let now = clock.milliseconds
            let revision: Int
            do {
                revision = try repository.publish(
                    app: app, name: document.app.name, canonical: prepared.canonical, author: author, action: action,
                    message: message, detail: auditDetail, at: now,
                    requiringLive: precondition == nil ? .none : .some(current), alongside: alongside)
            } catch PolicyRepository.Refusal.stale {
                try reload(app: app)
                throw PolicyStoreError.stale(current: snapshot(app: app))
            } catch let refusal as PolicyRepository.Refusal {
                throw PolicyStoreError(refusal)
            }
            return swapIn(
                ServedPolicy(
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
    ) throws -> ServedPolicy {
        try Self.requireSameApp(document, app)
        let prepared = ServedPolicy.PreparedDocument(document)
        return try locked {
            let now = clock.milliseconds
            do {
                try repository.createApp(
                    app: app, name: document.app.name, canonical: prepared.canonical, author: author, message: message,
                    detail: auditDetail, at: now)
            } catch let refusal as PolicyRepository.Refusal {
                throw PolicyStoreError(refusal)
            }
            return swapIn(
                ServedPolicy(
                    appID: app, revision: 1, document: document, prepared: prepared, createdAt: now, author: author,
                    message: message, resolvedCacheCapacity: resolvedCacheCapacity, cacheControl: cacheControl))
        }
    }

    /// Deletes `app`, its revisions and its events (foreign-key cascade), with an `app.delete` audit row that
    /// outlives them; then stops serving it. Refused when the app is unknown or `precondition` does not hold.
    package func deleteApp(
        app: String, author: String, precondition: RevisionPrecondition?, auditDetail: JSONValue = .object(JSONObject())
    )
        throws
    {
        try locked {
            let current = try checkPrecondition(app: app, precondition)
            let now = clock.milliseconds
            do {
                try repository.deleteApp(
                    app: app, author: author, detail: auditDetail, at: now,
                    requiringLive: precondition == nil ? .none : .some(current))
            } catch PolicyRepository.Refusal.stale {
                try reload(app: app)
                throw PolicyStoreError.stale(current: snapshot(app: app))
            } catch let refusal as PolicyRepository.Refusal {
                throw PolicyStoreError(refusal)
            }
            state.withLock { state in
                state.snapshots[app] = nil
                state.unavailable[app] = nil
            }
            changes.bump()
        }
    }

    // MARK: - Internals

    private func locked<T: Sendable>(_ body: () throws -> T) throws -> T {
        try writeLock.withLock { _ in try body() }
    }

    /// Refuses (stale) unless `precondition` holds for the live snapshot; returns the live revision number checked
    /// (which the transaction then verifies is still live in the database).
    private func checkPrecondition(app: String, _ precondition: RevisionPrecondition?) throws -> Int? {
        if let current = snapshot(app: app) {
            if let precondition, !precondition.admits(current.entityTags) {
                throw PolicyStoreError.stale(current: current)
            }
            return current.revision
        }
        if let broken = unavailability(app: app) {
            // An app whose live revision is broken has no current representation: only `*` can replace it.
            if let precondition, !precondition.admits(nil) {
                throw PolicyStoreError.stale(current: nil)
            }
            return broken.revision
        }
        return nil
    }

    private func swapIn(_ snapshot: ServedPolicy) -> ServedPolicy {
        state.withLock { state in
            state.snapshots[snapshot.appID] = snapshot
            state.unavailable[snapshot.appID] = nil
        }
        changes.bump()
        return snapshot
    }

    /// Decodes one `apps ⟕ policy_revisions` row into a served revision, or why it cannot be served.
    private static func decodeLive(_ row: PolicyRepository.LiveRow, capacity: Int, cacheControl: PolicyCacheControl)
        -> Result<ServedPolicy, Unavailable>
    {
        PolicyRevision.decode(row).map { live in
            ServedPolicy(live, resolvedCacheCapacity: capacity, cacheControl: cacheControl)
        }
    }
}
