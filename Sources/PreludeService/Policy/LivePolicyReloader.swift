import Dispatch
import PreludeStorage
import Synchronization

/// Makes revisions committed by another process go live here within a poll interval (docs/operations.md,
/// "Changing the database from outside the server").
///
/// Every `interval` it asks ``DataVersionWatcher`` whether any other connection committed; only then it runs
/// ``PolicyStore/refreshChanged()`` (one query of the `apps` table). Event ingestion commits too, so a busy
/// server runs that query at most once per interval. Failures are logged and retried at the next tick. Every node
/// runs it (a ``PeriodicTask``, an entry of every role's ``BackgroundServices``).
package final class LivePolicyReloader: Sendable {
    /// The default poll interval: a revision written elsewhere is served within a quarter of a second.
    package static let defaultInterval = 0.25

    private let watcher: DataVersionWatcher
    private let store: PolicyStore
    private let logger: Logger
    private let task: PeriodicTask

    /// A reloader for `store`, watching `database` on a connection of its own, polling every `interval` seconds once
    /// started.
    package init(database: Database, store: PolicyStore, logger: Logger, interval: Double = defaultInterval) throws {
        watcher = try DataVersionWatcher(database: database)
        self.store = store
        self.logger = logger
        task = PeriodicTask(
            name: "policy-reload", initialDelay: interval, interval: interval, leeway: .milliseconds(20))
    }

    /// One poll: reloads the changed apps when another connection committed (and on the first poll, which covers
    /// commits between the store's load at start and the watcher's first look). Returns the apps reloaded.
    @discardableResult
    package func pollOnce() -> [PolicyStore.Key] {
        do {
            guard try watcher.hasChanged() else { return [] }
            let keys = try store.refreshChanged()
            for key in keys {
                let revision = store.snapshot(app: key.app, environment: key.environment)?.revision
                logger.info(
                    "policy reloaded from the database", ["app": key.app, "environment": key.environment],
                    numbers: revision.map { ["revision": Double($0)] } ?? [:])
            }
            return keys
        } catch {
            logger.error("policy reload failed", ["error": "\(error)"])
            return []
        }
    }
}

extension LivePolicyReloader: BackgroundService {
    /// "policy-reload".
    package var name: String { task.name }

    /// Starts polling. No-op when already started.
    package func start(gate: RunGate) {
        task.start(gate: gate) { [self] in pollOnce() }
    }

    /// A poll soon, between two ticks.
    package func wake() { task.wake() }

    /// Stops polling, waits for a poll in progress, and closes the watcher's connection.
    package func stop() {
        task.stop()
        watcher.close()
    }
}
