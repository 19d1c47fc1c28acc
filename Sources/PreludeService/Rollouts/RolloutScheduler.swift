import Dispatch

/// Runs the rollout guard on the primary: after every group commit of ingested events (``wake()``, coalesced: many
/// commits during one evaluation cause one more) and on a timer (step holds end without events). A read replica
/// never starts one: it serves the assignment in the policy it mirrors, and never decides a step. A leader-only
/// entry of a primary's ``BackgroundServices`` (``LeaderWork/rollouts``), run by a ``PeriodicTask``.
///
/// The decisions take the controller's injected clock, so tests call ``RolloutController/evaluateAll()`` directly
/// and never wait for the timer.
package final class RolloutScheduler: Sendable {
    /// The timer's interval in seconds (5).
    package static let defaultInterval = 5.0

    private let controller: RolloutController
    private let task: PeriodicTask

    /// A scheduler evaluating `controller`'s rollouts every `interval` seconds once started.
    package init(controller: RolloutController, interval: Double = defaultInterval) {
        self.controller = controller
        task = PeriodicTask(name: "rollouts", initialDelay: interval, interval: interval, leeway: .milliseconds(250))
    }
}

extension RolloutScheduler: BackgroundService {
    /// "rollouts".
    package var name: String { task.name }

    /// Starts the timer. No-op when started.
    package func start(gate: RunGate) {
        task.start(gate: gate) { [self] in _ = controller.evaluateAll() }
    }

    /// Asks for an evaluation soon (after an ingested batch). Cheap and non-blocking: at most one is queued.
    package func wake() { task.wake() }

    /// Stops the timer and waits for an evaluation in progress (call before closing the database).
    package func stop() { task.stop() }
}
