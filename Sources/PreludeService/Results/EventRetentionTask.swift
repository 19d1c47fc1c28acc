import Dispatch
import PreludeStorage
import PreludeStore
import Synchronization

/// Runs ``EventPruner`` periodically (a ``PeriodicTask``) while the service runs; a leader-only entry of a primary's
/// ``BackgroundServices`` (``LeaderWork/retention``).
///
/// The pruning logic takes `now` from the injected clock, so tests call ``runOnce()`` with a fake clock and
/// never wait for the timer. Failures are logged and retried at the next tick: pruning is housekeeping, it must
/// never take the service down.
package final class EventRetentionTask: Sendable {
    private let pruner: EventPruner
    private let database: Database
    private let clock: ServiceClock
    private let logger: Logger
    private let task: PeriodicTask

    /// Creates a task pruning at `clock`'s time: once started, a first run after `initialDelay` seconds, then every
    /// `interval` seconds.
    package init(
        pruner: EventPruner, database: Database, logger: Logger, clock: ServiceClock = .system,
        initialDelay: Double = 60, interval: Double = 3600
    ) {
        self.pruner = pruner
        self.database = database
        self.logger = logger
        self.clock = clock
        task = PeriodicTask(
            name: "retention", initialDelay: initialDelay, interval: interval,
            leeway: .seconds(max(1, Int(interval / 20))))
    }

    /// One pruning run at the clock's current time; returns the events deleted (0 after a logged failure).
    @discardableResult
    package func runOnce() -> Int {
        guard database.isOpen else { return 0 }
        let now = clock.milliseconds
        do {
            let deleted = try pruner.prune(database, now: now)
            if deleted > 0 {
                logger.info(
                    "events pruned",
                    numbers: [
                        "deleted": Double(deleted), "retentionDays": Double(pruner.retentionDays),
                        "cutoff": Double(pruner.cutoff(now: now)),
                    ])
            }
            return deleted
        } catch {
            logger.error("event pruning failed", ["error": "\(error)"])
            return 0
        }
    }
}

extension EventRetentionTask: BackgroundService {
    /// "retention".
    package var name: String { task.name }

    /// Starts the timer; no-op when the retention is 0 (keep forever) or when already started.
    package func start(gate: RunGate) {
        guard pruner.retentionDays > 0 else { return }
        task.start(gate: gate) { [self] in runOnce() }
    }

    /// No-op: pruning is housekeeping, the next tick is soon enough (also after a takeover of the role).
    package func wake() {}

    /// Stops the timer and waits for a run in progress to finish (call before closing the database).
    package func stop() { task.stop() }
}
