import PreludeHTTP
import Synchronization

#if canImport(FoundationEssentials)
    import Dispatch
    import Glibc
#else
    import Foundation
#endif

/// A thread of its own that runs a pass, then sleeps for what the pass asked (``Pause``), until ``wake()`` or
/// ``stop()``: how the replica sync, the outbox forwarder, the webhook dispatcher and the publish scheduler run.
///
/// A wake-up that arrives while a pass runs is not lost: the sleep after that pass is skipped. A pass that must not
/// be cut short (a backoff after a failure) asks for a sleep that only ``stop()`` ends. The pass decides from its own
/// state machine, which takes time as input, so tests drive the machine and never this thread.
package final class WorkerThread: Sendable {
    /// What the thread does after a pass.
    package enum Pause: Sendable, Equatable {
        /// Runs the next pass at once.
        case none
        /// Sleeps until `deadline` (seconds since the Unix epoch, the realtime clock); a ``WorkerThread/wake()``
        /// ends the sleep early when `wakeable`, ``WorkerThread/stop()`` always does.
        case until(deadline: Double, wakeable: Bool)

        /// Sleeps `seconds` from now (none when 0 or less).
        package static func after(_ seconds: Double, wakeable: Bool = true) -> Pause {
            seconds > 0 ? .until(deadline: WorkerThread.epochSeconds() + seconds, wakeable: wakeable) : .none
        }
    }

    /// The thread's name in logs and tests.
    package let name: String
    /// The sleep between two looks at a closed gate (a role taken also wakes the thread).
    private let closedLook: Double
    private let onStop: @Sendable () -> Void
    private let condition = WakeCondition()
    private let wakes = Atomic(0)
    private let passes = Atomic(0)
    private let stopping = Atomic(false)
    private let started = Atomic(false)
    private let finished = DispatchSemaphore(value: 0)

    /// A stopped worker. `closedLook` is how long it sleeps while its gate is closed (wakeable); `onStop` runs
    /// first in ``stop()`` to abort I/O in progress (an HTTP exchange), so stopping never waits for a timeout.
    package init(name: String, closedLook: Double = 1, onStop: @escaping @Sendable () -> Void = {}) {
        self.name = name
        self.closedLook = closedLook
        self.onStop = onStop
    }

    /// True once ``stop()`` was called: a long pass checks it between items.
    package var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// Passes run since start (gate closed or not), for tests.
    package var passCount: Int { passes.load(ordering: .acquiring) }

    /// Starts the thread: passes of `pass` while `gate` is open, each followed by the pause it returns. No-op when
    /// already started or stopped.
    package func start(gate: RunGate, pass: @escaping @Sendable () -> Pause) {
        guard !isStopping,
            started.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        ThreadLauncher.start { [self] in
            run(gate: gate, pass: pass)
            finished.signal()
        }
    }

    /// Ends the current sleep (or the next one, when a pass is running) unless that sleep is not wakeable.
    package func wake() {
        wakes.add(1, ordering: .releasing)
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Stops the thread: aborts I/O in progress (`onStop`), ends any sleep, and waits for the pass in progress.
    package func stop() {
        stopping.store(true, ordering: .releasing)
        onStop()
        wake()
        if started.load(ordering: .acquiring) {
            finished.wait()
            finished.signal()  // a second stop() returns at once
        }
    }

    private func run(gate: RunGate, pass: @Sendable () -> Pause) {
        while !isStopping {
            let seen = wakes.load(ordering: .acquiring)
            let pause = gate.isOpen() ? pass() : .after(closedLook)
            passes.add(1, ordering: .releasing)
            guard case .until(let deadline, let wakeable) = pause else { continue }
            condition.lock()
            while !isStopping, Self.epochSeconds() < deadline,
                !wakeable || wakes.load(ordering: .acquiring) == seen
            {
                _ = condition.wait(untilEpochSeconds: deadline)
            }
            condition.unlock()
        }
    }

    /// The realtime clock in seconds since the Unix epoch (what the condition's deadline is measured on).
    package static func epochSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
