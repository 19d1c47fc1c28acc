import Dispatch

/// Work that runs on a timer (``RepeatingTimer``): a first run after `initialDelay` seconds, then one every
/// `interval` seconds, and one more soon after each ``wake()``. Runs never overlap; each happens only while the gate
/// given at start is open. How the live reloader, the rollout guard and event pruning run.
package final class PeriodicTask: Sendable {
    /// The task's name in logs and tests.
    package let name: String
    /// Seconds before the first run.
    package let initialDelay: Double
    /// Seconds between two runs.
    package let interval: Double
    private let leeway: DispatchTimeInterval
    private let timer: RepeatingTimer

    /// A stopped task; `leeway` is how late the system may fire a tick (to batch wake-ups).
    package init(name: String, initialDelay: Double, interval: Double, leeway: DispatchTimeInterval) {
        self.name = name
        self.initialDelay = initialDelay
        self.interval = interval
        self.leeway = leeway
        timer = RepeatingTimer(label: "prelude.\(name)")
    }

    /// True between ``start(gate:run:)`` and ``stop()``.
    package var isRunning: Bool { timer.isRunning }

    /// Starts the timer; every tick and wake-up runs `run` while `gate` is open. No-op when running.
    package func start(gate: RunGate, run: @escaping @Sendable () -> Void) {
        timer.start(after: initialDelay, every: interval, leeway: leeway) {
            if gate.isOpen() { run() }
        }
    }

    /// Asks for a run soon, between ticks (coalesced: many calls during a run cause one more). No-op when stopped.
    package func wake() { timer.runSoon() }

    /// Stops the timer and waits for a run in progress.
    package func stop() { timer.stop() }
}
