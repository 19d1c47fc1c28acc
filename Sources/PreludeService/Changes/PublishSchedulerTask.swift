import PreludeCore
import PreludeHTTP
import PreludeStore
import Synchronization

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// The primary's scheduled publishes (docs/change-management.md, "Scheduled publish"): a thread that asks the pure
/// ``PublishScheduler`` what is due at the clock's time and applies it through ``ChangeRequests``, then sleeps until
/// the next instant, a change of schedule (``wake()``), or at most ``pollInterval`` (a schedule set by another
/// process is seen within it).
///
/// The schedule is the `change_requests` rows, so a restart loses nothing: the first run after start applies what
/// fell due while the process was down. A due request is applied in the transaction that marks it applied, guarded
/// by its version, so it fires once even when two processes race for it. A read replica does not run this task.
/// Tests call ``runOnce()`` with an injected clock and never wait for the thread. A leader-only entry of a
/// primary's ``BackgroundServices`` (``LeaderWork/scheduler``), run by a ``WorkerThread``.
package final class PublishSchedulerTask: Sendable {
    private let changes: ChangeRequests
    private let scheduler: PublishScheduler
    private let clock: ServiceClock
    private let logger: Logger
    /// The longest sleep between two looks at the schedule, in seconds.
    package let pollInterval: Double
    private let worker: WorkerThread

    /// A task applying what `changes` has scheduled, at `clock`'s time, as `role` allows.
    package init(
        changes: ChangeRequests, role: PublishScheduler.Role, clock: ServiceClock, logger: Logger,
        pollInterval: Double = 1
    ) {
        worker = WorkerThread(name: "scheduler", closedLook: pollInterval)
        self.changes = changes
        scheduler = PublishScheduler(role: role)
        self.clock = clock
        self.logger = logger
        self.pollInterval = pollInterval
    }

    /// Applies every request due at the clock's time; returns their ids and when the next one is due.
    @discardableResult
    package func runOnce() -> PublishScheduler.Plan {
        let now = clock.milliseconds
        let plan: PublishScheduler.Plan
        do {
            plan = scheduler.plan(try changes.repository.scheduled().map(\.entry), now: now)
        } catch {
            logger.error("reading the publish schedule failed", ["error": "\(error)"])
            return PublishScheduler.Plan(due: [], nextWake: nil)
        }
        var applied: [Int64] = []
        for id in plan.due where fire(id, now: now) { applied.append(id) }
        return PublishScheduler.Plan(due: applied, nextWake: plan.nextWake)
    }

    /// Applies one due request; true when it was published.
    private func fire(_ id: Int64, now: Int64) -> Bool {
        do {
            // Read again: another process may have applied, edited or cancelled it since the schedule was read.
            guard let record = try changes.repository.record(id: id), record.state == .approved,
                let instant = record.scheduledAt, instant <= now
            else { return false }
            do {
                let snapshot = try changes.apply(record, bypass: false, by: .scheduler).snapshot
                logger.info(
                    "scheduled change request applied",
                    ["app": record.app, "environment": record.environment, "kind": record.kind.rawValue],
                    numbers: ["changeRequest": Double(id), "revision": Double(snapshot?.revision ?? 0)])
                return true
            } catch let problem as ProblemDetails {
                switch problem.type {
                case ChangeRequestProblem.staleType, ChangeRequestProblem.changedType:
                    // Marked stale by the apply, or changed by another writer: nothing to repeat.
                    logger.warning(
                        "scheduled change request not applied",
                        ["app": record.app, "reason": problem.detail ?? problem.type],
                        numbers: ["changeRequest": Double(id)])
                default:
                    logger.warning(
                        "scheduled change request refused; its schedule is cleared",
                        ["app": record.app, "reason": problem.detail ?? problem.type],
                        numbers: ["changeRequest": Double(id)])
                    try changes.scheduleFailed(record, problem: problem)
                }
                return false
            }
        } catch {
            // Storage trouble: the request stays scheduled and is tried again at the next run.
            logger.error(
                "applying a scheduled change request failed", ["error": "\(error)"],
                numbers: ["changeRequest": Double(id)])
            return false
        }
    }

    /// One pass of the thread: what is due now, then a sleep until the next instant or at most ``pollInterval``.
    private func pass() -> WorkerThread.Pause {
        let plan = runOnce()
        var sleep = pollInterval
        if let next = plan.nextWake { sleep = min(sleep, max(0, Double(next - clock.milliseconds) / 1000)) }
        return .after(sleep)
    }
}

extension PublishSchedulerTask: BackgroundService {
    /// "scheduler".
    package var name: String { worker.name }

    /// Starts the thread (a first run at once). No-op when already started, and for a replica.
    package func start(gate: RunGate) {
        guard scheduler.role == .primary else { return }
        worker.start(gate: gate) { [self] in pass() }
    }

    /// Makes the thread look at the schedule now (a request was scheduled or unscheduled).
    package func wake() { worker.wake() }

    /// Stops the thread and waits for a run in progress (call before closing the database).
    package func stop() { worker.stop() }
}
