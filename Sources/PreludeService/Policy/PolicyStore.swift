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

    /// One environment of one app: what a served policy is kept under.
    package struct Key: Hashable, Sendable, Comparable, CustomStringConvertible {
        /// The app id.
        package var app: String
        /// The environment.
        package var environment: String

        /// The key of `environment` of `app`.
        package init(app: String, environment: String = EnvironmentName.production) {
            self.app = app
            self.environment = environment
        }

        /// `app` for production, `app/environment` otherwise (log fields).
        package var description: String {
            environment == EnvironmentName.production ? app : app + "/" + environment
        }

        /// By app, then environment.
        package static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.app, lhs.environment) < (rhs.app, rhs.environment)
        }
    }

    private struct State {
        var snapshots: [Key: ServedPolicy] = [:] {
            // Changes are publications and reloads; lookups are every public request.
            didSet {
                var tables: [String: [String: ServedPolicy]] = [:]
                for (key, snapshot) in snapshots { tables[key.environment, default: [:]][key.app] = snapshot }
                production = ByteKeyTable(tables.removeValue(forKey: EnvironmentName.production) ?? [:])
                others = tables.mapValues { ByteKeyTable($0) }
            }
        }
        /// Production's snapshots, looked up from the app id's bytes without hashing a `String` (``ByteKeyTable``).
        var production = ByteKeyTable<ServedPolicy>()
        /// The other environments' snapshots, by environment then app id.
        var others: [String: ByteKeyTable<ServedPolicy>] = [:]
        var unavailable: [Key: Unavailable] = [:]
    }

    private let repository: PolicyRepository
    private let state = Mutex(State())
    private let writeLock = Mutex(())
    private let clock: ServiceClock
    /// Capacity of each snapshot's resolved-response cache.
    package let resolvedCacheCapacity: Int
    /// Bumped after every change of what is served (a swap, a reload, a deletion) and of what the change feed carries
    /// besides (an environment's settings): the change feed waits on it.
    package let changes = ChangeSignal()
    /// The `Cache-Control` values of the responses prepared for each snapshot.
    package let cacheControl: PolicyCacheControl

    /// A store over `policies` (the composition root's ``PreludeStore/Store/policies``); call ``loadAll()`` before
    /// serving.
    ///
    /// - Parameters:
    ///   - resolvedCacheCapacity: the most resolved-policy responses kept per revision.
    ///   - cacheControl: the `Cache-Control` values of the policy responses prepared when a revision goes live.
    ///   - clock: the wall clock of revision and audit times (tests inject a fixed one).
    package init(
        policies: PolicyRepository, resolvedCacheCapacity: Int = 1024, cacheControl: PolicyCacheControl = .defaults,
        clock: ServiceClock = .system
    ) {
        repository = policies
        self.resolvedCacheCapacity = resolvedCacheCapacity
        self.cacheControl = cacheControl
        self.clock = clock
    }

    /// A store over `database`'s apps and revisions (tests; the service hands the one ``PreludeStore/Store``'s).
    package convenience init(
        database: Database, resolvedCacheCapacity: Int = 1024, cacheControl: PolicyCacheControl = .defaults,
        clock: ServiceClock = .system
    ) {
        self.init(
            policies: PolicyRepository(database: database), resolvedCacheCapacity: resolvedCacheCapacity,
            cacheControl: cacheControl, clock: clock)
    }

    // MARK: - Reading

    /// The live snapshot of `environment` of `app`, or nil when either does not exist or is not servable.
    package func snapshot(app: String, environment: String = EnvironmentName.production) -> ServedPolicy? {
        state.withLock { state in
            environment == EnvironmentName.production ? state.production[app] : state.others[environment]?[app]
        }
    }

    /// Why `environment` of `app` exists but is not served (its live revision does not validate, or it has none),
    /// else nil.
    package func unavailability(app: String, environment: String = EnvironmentName.production) -> Unavailable? {
        state.withLock { $0.unavailable[Key(app: app, environment: environment)] }
    }

    /// Every production environment that exists and is not served, with why, by app.
    package var unavailableApps: [String: Unavailable] {
        state.withLock { state in
            var apps: [String: Unavailable] = [:]
            for (key, value) in state.unavailable where key.environment == EnvironmentName.production {
                apps[key.app] = value
            }
            return apps
        }
    }

    /// Every environment that exists and is not served, with why.
    package var unavailableEnvironments: [Key: Unavailable] {
        state.withLock { $0.unavailable }
    }

    /// The ids of the apps whose production environment is being served, sorted.
    package var appIDs: [String] {
        state.withLock { state in
            state.snapshots.keys.filter { $0.environment == EnvironmentName.production }.map(\.app).sorted()
        }
    }

    /// How many environments start-up reads at a time (``loadAll()``): a page is decoded while the next is read.
    static let loadPageSize = 64

    /// Every environment being served, sorted.
    package var servedKeys: [Key] {
        state.withLock { $0.snapshots.keys.sorted() }
    }

    /// Loads every environment's live revision, replacing what the store held. Returns the production environments
    /// that could not be served (their revision does not decode and validate with this build), by app; every
    /// environment not served is kept for ``unavailability(app:environment:)``.
    @discardableResult
    package func loadAll() throws -> [String: Unavailable] {
        // Reading and validating a stored revision is pure and independent per environment (most of start-up's
        // time with many apps): on every core at once, each page while the next one is read.
        final class Decoded: Sendable {
            let outcomes = Mutex<[(Key, Result<ServedPolicy, Unavailable>)]>([])
        }
        let decoded = Decoded()
        let capacity = resolvedCacheCapacity
        let cacheControl = cacheControl
        let decoding = DispatchGroup()
        try repository.liveRows(pagesOf: Self.loadPageSize) { rows in
            DispatchQueue.global().async(group: decoding) {
                DispatchQueue.concurrentPerform(iterations: rows.count) { index in
                    let outcome = Self.decodeLive(rows[index], capacity: capacity, cacheControl: cacheControl)
                    decoded.outcomes.withLock {
                        $0.append((Key(app: rows[index].app, environment: rows[index].environment), outcome))
                    }
                }
            }
        }
        decoding.wait()
        var served: [Key: ServedPolicy] = [:]
        var fresh = State()
        for (key, outcome) in decoded.outcomes.withLock({ $0 }) {
            switch outcome {
            case .success(let snapshot): served[key] = snapshot
            case .failure(let unavailable): fresh.unavailable[key] = unavailable
            }
        }
        // One assignment, so the lookup tables are built once (its `didSet`), not once per app.
        fresh.snapshots = served
        state.withLock { $0 = fresh }
        changes.bump()
        return unavailableApps
    }

    /// Reloads one environment of an app from the database (after another process changed it).
    package func reload(app: String, environment: String = EnvironmentName.production) throws {
        let key = Key(app: app, environment: environment)
        let outcome = try repository.liveRow(app: app, environment: environment).map {
            Self.decodeLive($0, capacity: resolvedCacheCapacity, cacheControl: cacheControl)
        }
        state.withLock { state in
            state.snapshots[key] = nil
            state.unavailable[key] = nil
            switch outcome {
            case .success(let snapshot): state.snapshots[key] = snapshot
            case .failure(let unavailable): state.unavailable[key] = unavailable
            case nil: break
            }
        }
        changes.bump()
    }

    /// Reloads every app's environments whose live revision in the database differs from the one served, and drops
    /// the ones that no longer exist: what another process (`prelude policy import`, a second server, a replica's
    /// sync) committed goes live here. Returns the environments reloaded or dropped, sorted. Cheap when nothing
    /// changed: one query of the `environments` table.
    ///
    /// Runs under the write lock, so it cannot swap in an older revision over a newer commit of this process.
    @discardableResult
    package func refreshChanged() throws -> [Key] {
        try locked {
            let live = try repository.liveRevisionNumbers().map {
                (Key(app: $0.app, environment: $0.environment), $0.revision)
            }
            let served = state.withLock { state in
                state.snapshots.mapValues { Optional($0.revision) }.merging(
                    state.unavailable.mapValues(\.revision)
                ) { snapshot, _ in snapshot }
            }
            let inDatabase = Dictionary(live, uniquingKeysWith: { first, _ in first })
            var changed = inDatabase.filter { key, revision in served[key].map { $0 != revision } ?? true }.keys
                .sorted()
            for key in changed { try reload(app: key.app, environment: key.environment) }
            let gone = served.keys.filter { inDatabase[$0] == nil }.sorted()
            state.withLock { state in
                for key in gone {
                    state.snapshots[key] = nil
                    state.unavailable[key] = nil
                }
            }
            if !gone.isEmpty { changes.bump() }
            changed += gone
            return changed.sorted()
        }
    }

    // MARK: - Writing

    /// Makes `document` the live policy of `environment` of `app` as a new revision (number = the app's highest + 1),
    /// with its audit row, in one transaction; then swaps the snapshot. This is the one publish path: the admin API,
    /// rollbacks, promotions and imports all end here.
    ///
    /// - Parameters:
    ///   - document: a document that passed ``PolicyValidator`` in this build with no problems; its `app.id` must be
    ///     `app` (else refused). The revision records this build's ``PolicyValidator/rulesVersion``, so a start-up
    ///     under the same rules does not validate it again (docs/storage.md, "Start-up").
    ///   - author: who made the change (a token name); stored on the revision and as the audit actor.
    ///   - action: the audit action, e.g. `policy.replace`, `feature.patch`.
    ///   - precondition: what the live revision must be (the request's `If-Match`, parsed by the HTTP adapter);
    ///     nil skips the check (trusted callers such as imports).
    ///   - auditDetail: what changed, stored as the audit row's JSON detail.
    ///   - events: what the app's webhooks are told, enqueued in the same transaction (``WebhookOutbox``), with the
    ///     diff from the live snapshot's document to `document` (the diff the admin API shows and audits).
    ///   - applying: the change request this publish applies, marked applied in the same transaction as the
    ///     revision and its webhook deliveries (``ChangeRequestRepository/Application``).
    ///   - prepared: `document` serialized, when the caller already has its canonical bytes; nil serializes here.
    /// - Returns: the new live snapshot.
    @discardableResult
    package func commit(
        app: String, environment: String = EnvironmentName.production, document: PolicyDocument, author: String,
        action: String, message: String?, precondition: RevisionPrecondition?, auditDetail: JSONValue,
        events: [WebhookEventType] = [.revisionPublished], applying: ChangeRequestRepository.Application? = nil,
        prepared known: ServedPolicy.PreparedDocument? = nil
    ) throws -> ServedPolicy {
        try Self.requireSameApp(document, app)
        let prepared = known ?? ServedPolicy.PreparedDocument(document)
        return try locked {
            let current = try checkPrecondition(app: app, environment: environment, precondition)
            let now = clock.milliseconds
            let revision: Int
            do {
                revision = try repository.publish(
                    app: app, environment: environment, name: document.app.name, canonical: prepared.canonical,
                    author: author, action: action, message: message, detail: auditDetail, at: now,
                    requiringLive: precondition == nil ? .none : .some(current), events: events,
                    previous: snapshot(app: app, environment: environment)?.document.jsonValue, applying: applying,
                    rulesVersion: PolicyValidator.rulesVersion)
            } catch PolicyRepository.Refusal.stale {
                try reload(app: app, environment: environment)
                throw PolicyStoreError.stale(current: snapshot(app: app, environment: environment))
            } catch let refusal as PolicyRepository.Refusal {
                throw PolicyStoreError(refusal)
            }
            return swapIn(
                ServedPolicy(
                    appID: app, environment: environment, revision: revision, document: document, prepared: prepared,
                    createdAt: now,
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

    /// Creates `app` with its production environment serving `document` (validated as for
    /// ``commit(app:environment:document:author:action:message:precondition:auditDetail:events:applying:prepared:)``) as
    /// revision 1 and an `app.create` audit row; refused when the app exists.
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
                    detail: auditDetail, at: now, rulesVersion: PolicyValidator.rulesVersion)
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
            let current = try checkPrecondition(app: app, environment: EnvironmentName.production, precondition)
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
                for key in state.snapshots.keys where key.app == app { state.snapshots[key] = nil }
                for key in state.unavailable.keys where key.app == app { state.unavailable[key] = nil }
            }
            changes.bump()
        }
    }

    /// Creates environment `name` of `app` (an `environment.create` audit row), empty or with a copy of the live
    /// policy of `copyFrom` as its first revision, in one transaction; then serves it. Returns the new snapshot, nil
    /// when the environment starts empty. The copy records this build's ``PolicyValidator/rulesVersion`` only when
    /// the source meets this build's rules as it is (no stored findings): a copy of a revision served with findings
    /// carries them until the next start-up, which validates it again (as it does its source) and reports what it
    /// finds.
    @discardableResult
    package func createEnvironment(
        app: String, name: String, copyFrom source: String?, author: String, auditDetail: JSONValue
    ) throws -> ServedPolicy? {
        try locked {
            var first: (document: PolicyDocument, prepared: ServedPolicy.PreparedDocument, source: ServedPolicy)?
            if let source {
                guard let live = snapshot(app: app, environment: source) else {
                    if unavailability(app: app, environment: source) != nil {
                        throw PolicyStoreError.stale(current: nil)
                    }
                    throw try repository.liveRevision(app: app, environment: EnvironmentName.production) == nil
                        ? PolicyStoreError.unknownApp(app)
                        : PolicyStoreError.unknownEnvironment(app: app, environment: source)
                }
                first = (
                    live.document,
                    ServedPolicy.PreparedDocument(canonical: live.canonicalBytes),
                    live
                )
            }
            let now = clock.milliseconds
            let message = source.map { "copied from \($0)" }
            let revision: Int?
            do {
                revision = try repository.createEnvironment(
                    app: app, name: name, first: first.map { ($0.prepared.canonical, message) }, actor: author,
                    detail: auditDetail, at: now,
                    rulesVersion: first?.source.storedFindings.isEmpty == true ? PolicyValidator.rulesVersion : nil)
            } catch let refusal as PolicyRepository.Refusal {
                throw PolicyStoreError(refusal)
            }
            guard let revision, let first else {
                try reload(app: app, environment: name)
                return nil
            }
            return swapIn(
                ServedPolicy(
                    appID: app, environment: name, revision: revision, document: first.document,
                    prepared: first.prepared, createdAt: now, author: author, message: message,
                    resolvedCacheCapacity: resolvedCacheCapacity, cacheControl: cacheControl,
                    storedFindings: first.source.storedFindings, fallbacks: first.source.fallbacks))
        }
    }

    /// Changes the settings of environment `name` of `app` (``PolicyRepository/updateEnvironment(app:name:change:actor:action:at:check:applying:)``:
    /// one transaction with the gate's `check` over the settings it read, its audit record, its `environment.updated`
    /// deliveries and the change request `applying` applies), then bumps ``changes``: the change feed carries the settings, so a replica's held
    /// poll answers with them at once rather than when it times out.
    package func updateEnvironment(
        app: String, name: String, change: EnvironmentSettings.Change, actor: String,
        action: String = "environment.settings", at now: Int64,
        check: (EnvironmentSettings) throws -> GovernanceGate.Authority = { _ in .writer },
        applying: ChangeRequestRepository.Application? = nil
    ) throws -> PolicyRepository.SettingsUpdate {
        try locked {
            let stored = try repository.updateEnvironment(
                app: app, name: name, change: change, actor: actor, action: action, at: now, check: check,
                applying: applying)
            changes.bump()
            return stored
        }
    }

    // MARK: - Internals

    private func locked<T: Sendable>(_ body: () throws -> T) throws -> T {
        try writeLock.withLock { _ in try body() }
    }

    /// Refuses (stale) unless `precondition` holds for the live snapshot; returns the live revision number checked
    /// (which the transaction then verifies is still live in the database).
    private func checkPrecondition(app: String, environment: String, _ precondition: RevisionPrecondition?) throws
        -> Int?
    {
        if let current = snapshot(app: app, environment: environment) {
            if let precondition, !precondition.admits(current.entityTags) {
                throw PolicyStoreError.stale(current: current)
            }
            return current.revision
        }
        if let broken = unavailability(app: app, environment: environment) {
            // An app whose live revision is broken has no current representation: only `*` can replace it.
            if let precondition, !precondition.admits(nil) {
                throw PolicyStoreError.stale(current: nil)
            }
            return broken.revision
        }
        return nil
    }

    private func swapIn(_ snapshot: ServedPolicy) -> ServedPolicy {
        let key = Key(app: snapshot.appID, environment: snapshot.environment)
        state.withLock { state in
            state.snapshots[key] = snapshot
            state.unavailable[key] = nil
        }
        changes.bump()
        return snapshot
    }

    /// Decodes one `environments ⟕ policy_revisions` row into a served revision, or why it cannot be served.
    private static func decodeLive(_ row: PolicyRepository.LiveRow, capacity: Int, cacheControl: PolicyCacheControl)
        -> Result<ServedPolicy, Unavailable>
    {
        PolicyRevision.decode(row).map { live in
            ServedPolicy(live, resolvedCacheCapacity: capacity, cacheControl: cacheControl)
        }
    }
}
