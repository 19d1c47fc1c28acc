import Dispatch
import Synchronization

/// Runs the rollout guard on the primary: after every group commit of ingested events (``wake()``, coalesced: many
/// commits during one evaluation cause one more) and on a timer (step holds end without events). A read replica
/// never starts one: it serves the assignment in the policy it mirrors, and never decides a step.
///
/// The decisions take the controller's injected clock, so tests call ``RolloutController/evaluateAll()`` directly
/// and never wait for the timer.
package final class RolloutScheduler: Sendable {
    /// The timer's interval in seconds (5).
    package static let defaultInterval = 5.0

    private let controller: RolloutController
    private let election: LeaderElection?
    private let timer = RepeatingTimer(label: "prelude.rollouts")
    private let pending = Atomic<Bool>(false)

    /// A scheduler evaluating `controller`'s rollouts; with an `election`, only while this node leads `rollouts`.
    package init(controller: RolloutController, election: LeaderElection? = nil) {
        self.controller = controller
        self.election = election
    }

    /// One evaluation of every live rollout, when this node leads the guard (docs/scaling.md, "PostgreSQL cluster").
    private func evaluate() {
        guard election?.leads(.rollouts) ?? true else { return }
        _ = controller.evaluateAll()
    }

    /// Starts the timer (every `interval` seconds). No-op when started.
    package func start(interval: Double = defaultInterval) {
        timer.start(after: interval, every: interval, leeway: .milliseconds(250)) { [self] in evaluate() }
    }

    /// Asks for an evaluation soon (after an ingested batch). Cheap and non-blocking: at most one is queued.
    package func wake() {
        guard timer.isRunning else { return }
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        timer.queue.async { [self] in
            pending.store(false, ordering: .releasing)
            evaluate()
        }
    }

    /// Stops the timer and waits for an evaluation in progress (call before closing the database).
    package func stop() {
        timer.stop()
    }
}
