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
    private let queue = DispatchQueue(label: "prelude.rollouts")
    private let timer: Mutex<(any DispatchSourceTimer)?> = Mutex(nil)
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
        timer.withLock { timer in
            guard timer == nil else { return }
            let source = DispatchSource.makeTimerSource(queue: queue)
            source.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(250))
            source.setEventHandler { [self] in evaluate() }
            source.resume()
            timer = source
        }
    }

    /// Asks for an evaluation soon (after an ingested batch). Cheap and non-blocking: at most one is queued.
    package func wake() {
        guard timer.withLock({ $0 != nil }) else { return }
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.async { [self] in
            pending.store(false, ordering: .releasing)
            evaluate()
        }
    }

    /// Stops the timer and waits for an evaluation in progress (call before closing the database).
    package func stop() {
        let source = timer.withLock { timer in
            defer { timer = nil }
            return timer
        }
        source?.cancel()
        queue.sync {}
    }
}
