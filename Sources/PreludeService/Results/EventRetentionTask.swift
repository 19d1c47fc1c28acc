import Dispatch
import PreludeStorage
import PreludeStore
import Synchronization

/// Runs ``EventPruner`` periodically on a Dispatch timer while the service runs.
///
/// The pruning logic takes `now` from the injected clock, so tests call ``runOnce()`` with a fake clock and
/// never wait for the timer. Failures are logged and retried at the next tick: pruning is housekeeping, it must
/// never take the service down.
package final class EventRetentionTask: Sendable {
    private let pruner: EventPruner
    private let database: Database
    private let clock: ServiceClock
    private let election: LeaderElection?
    private let logger: Logger
    private let timer = RepeatingTimer(label: "prelude.retention")

    /// Creates a task pruning at `clock`'s time; with an `election`, only while this node leads `retention`.
    package init(
        pruner: EventPruner, database: Database, logger: Logger, clock: ServiceClock = .system,
        election: LeaderElection? = nil
    ) {
        self.election = election
        self.pruner = pruner
        self.database = database
        self.logger = logger
        self.clock = clock
    }

    /// Starts the timer: a first run after `initialDelay` seconds, then every `interval` seconds. No-op when the
    /// retention is 0 (keep forever) or when already started.
    package func start(initialDelay: Double = 60, interval: Double = 3600) {
        guard pruner.retentionDays > 0 else { return }
        timer.start(after: initialDelay, every: interval, leeway: .seconds(max(1, Int(interval / 20)))) { [self] in
            runOnce()
        }
    }

    /// Stops the timer and waits for a run in progress to finish (call before closing the database).
    package func stop() {
        timer.stop()
    }

    /// One pruning run at the clock's current time; returns the events deleted (0 after a logged failure).
    @discardableResult
    package func runOnce() -> Int {
        guard database.isOpen, election?.leads(.retention) ?? true else { return 0 }
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
