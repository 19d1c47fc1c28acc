/// One piece of the service's background work (docs/architecture.md, "Background services"): started once by the
/// role's ``BackgroundServices`` list, woken when something it waits for happened, stopped once in reverse order.
///
/// A service runs its work on a ``WorkerThread`` (a loop that sleeps until a deadline or a wake-up) or a
/// ``PeriodicTask`` (a timer); either checks the ``RunGate`` given at start before every run, which is how a
/// leader-only entry runs only while this node leads its ``LeaderWork``.
package protocol BackgroundService: AnyObject, Sendable {
    /// A short name for logs and tests ("webhooks", "replica-sync", …).
    var name: String { get }
    /// Starts the work; each run happens only while `gate` is open. No-op when already started.
    func start(gate: RunGate)
    /// Asks for a run soon (something it waits for happened); cheap, coalesced, a no-op when not running.
    func wake()
    /// Stops the work and waits for a run in progress, so what it uses may be closed right after. Idempotent.
    func stop()
}

extension BackgroundService {
    /// Starts the work with no gate (tests, and work every node runs).
    package func start() { start(gate: .open) }
}

/// Whether a service may run now: checked before every run, on the service's own thread or queue.
package struct RunGate: Sendable {
    /// The check; cheap (an atomic load).
    package let isOpen: @Sendable () -> Bool

    /// A gate of `isOpen`.
    package init(_ isOpen: @escaping @Sendable () -> Bool) { self.isOpen = isOpen }

    /// Always open: work every node runs.
    package static let open = RunGate { true }
}
