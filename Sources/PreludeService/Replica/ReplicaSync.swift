import PreludeHTTP
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

/// The I/O shell around ``ReplicaSyncMachine``: one thread that long-polls the primary's change feed, writes what
/// changed into the replica's database (``ReplicaMirror``) and makes it live in the ``PolicyStore``. An entry of a
/// replica's ``BackgroundServices``, run by a ``WorkerThread``.
package final class ReplicaSync: Sendable {
    private let client: PrimaryClient
    private let database: Database
    private let store: PolicyStore
    private let logger: Logger
    private let machine: Mutex<ReplicaSyncMachine>
    private let worker: WorkerThread
    private let syncs = Atomic(0)
    /// When the sync state was last written (ms): a held poll's 304 rewrites it at most once a minute.
    private let storedAt = Atomic<Int64>(0)

    /// A sync for `store` over `database`, starting from the sync state stored there.
    package init(
        client: PrimaryClient, database: Database, store: PolicyStore, logger: Logger, pollWait: Int = 20,
        retry: RetrySchedule = .init()
    ) throws {
        self.client = client
        worker = WorkerThread(name: "replica-sync") { [client] in client.abort() }
        self.database = database
        self.store = store
        self.logger = logger
        let stored = try ReplicaMirror.state(database)
        // A copy synced from another primary is still served, but its feed tag means nothing to this one.
        let sameOrigin = stored.primary == client.url.description
        machine = Mutex(
            ReplicaSyncMachine(
                etag: sameOrigin ? stored.etag : nil, lastSuccess: stored.syncedAt.map { Double($0) / 1000 },
                pollWait: pollWait, retry: retry))
    }

    /// The machine's current state (for metrics and readiness).
    package var state: ReplicaSyncMachine { machine.withLock { $0 } }

    /// Feeds applied (200s) since start.
    package var appliedFeeds: Int { syncs.load(ordering: .relaxed) }

    /// One pass of the thread: what the machine says at the current time, a poll or a sleep until its next
    /// instant (a backoff: only stopping ends it early).
    private func pass() -> WorkerThread.Pause {
        let now = Date().timeIntervalSince1970
        switch machine.withLock({ $0.next(now: now) }) {
        case .sleep(let until):
            return .until(deadline: until, wakeable: false)
        case .poll(let ifNoneMatch, let wait):
            do {
                let etag = try pollOnce(ifNoneMatch: ifNoneMatch, wait: wait)
                let done = Date().timeIntervalSince1970
                let wasConnected = machine.withLock { machine in
                    defer { machine.succeeded(now: done, etag: etag) }
                    return machine.connected
                }
                if !wasConnected { logger.info("replica in step with the primary", ["primary": "\(client.url)"]) }
            } catch {
                if worker.isStopping { return .none }
                let failures = machine.withLock { machine in
                    machine.failed(now: Date().timeIntervalSince1970, random: Double.random(in: 0..<1))
                    return machine.retry.failures
                }
                // The first failure of a run of them is a warning, the rest debug: a primary down for an hour
                // must not fill the log.
                if failures == 1 {
                    logger.warning("replica sync failed", ["primary": "\(client.url)", "error": "\(error)"])
                } else {
                    logger.debug("replica sync failed", ["primary": "\(client.url)", "error": "\(error)"])
                }
            }
            return .none
        }
    }

    /// One exchange: returns the feed tag now held.
    private func pollOnce(ifNoneMatch: String?, wait: Int) throws -> String? {
        var headers: [(String, String)] = [("Accept", "application/json")]
        if let ifNoneMatch { headers.append(("If-None-Match", ifNoneMatch)) }
        let response = try client.send(
            "GET", "/v1/admin/changes?wait=\(wait)", headers: headers, timeout: Double(wait) + 10)
        let now = Int64((Date().timeIntervalSince1970 * 1000).rounded())
        switch response.status {
        case 304:
            // Written when it makes the replica ready or reconnects, else at most once a minute: a restart with the
            // primary down then reports a lag that is at most a minute too high.
            if state.lastSuccess == nil || !state.connected || now - storedAt.load(ordering: .relaxed) > 60_000 {
                try ReplicaMirror.confirm(database, primary: client.url.description, etag: ifNoneMatch, now: now)
                storedAt.store(now, ordering: .relaxed)
            }
            return ifNoneMatch
        case 200:
            let feed = try ChangeFeed(parsing: response.body)
            let etag = response.headers["etag"]
            let recreated = try ReplicaMirror.apply(
                feed, database, primary: client.url.description, etag: etag, now: now)
            storedAt.store(now, ordering: .relaxed)
            // An app recreated on the primary may keep its revision numbers: reload all its environments.
            let recreatedKeys = feed.apps.filter { recreated.contains($0.id) }.flatMap { app in
                app.environments.map { PolicyStore.Key(app: app.id, environment: $0.name) }
            }
            for key in recreatedKeys { try store.reload(app: key.app, environment: key.environment) }
            let changed = try store.refreshChanged()
            syncs.add(1, ordering: .relaxed)
            for key in changed + recreatedKeys {
                logger.info(
                    "replica revision live", ["app": key.app, "environment": key.environment],
                    numbers: store.snapshot(app: key.app, environment: key.environment).map {
                        ["revision": Double($0.revision)]
                    } ?? [:])
            }
            return etag
        default:
            let detail = String(decoding: response.body.prefix(300), as: UTF8.self)
            throw PrimaryClient.Failure(description: "change feed answered \(response.status): \(detail)")
        }
    }
}

extension ReplicaSync: BackgroundService {
    /// "replica-sync".
    package var name: String { worker.name }

    /// Starts the sync thread. No-op when already started.
    package func start(gate: RunGate) {
        worker.start(gate: gate) { [self] in pass() }
    }

    /// Ends a wait between two polls that is not a backoff (the machine sleeps only in backoffs: a no-op today).
    package func wake() { worker.wake() }

    /// Stops the thread, aborting a poll in progress, and waits for it.
    package func stop() { worker.stop() }
}
