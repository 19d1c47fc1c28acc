import Dispatch
import Synchronization

/// A Dispatch timer on a serial queue of its own: how ``PeriodicTask`` (the live reloader, the rollout guard, event
/// pruning) and the leader election wake. Started once, stopped once; ``stop()`` waits for a run in progress, so the
/// caller may close what the handler uses right after it.
package final class RepeatingTimer: Sendable {
    /// The serial queue the handler runs on; work queued here (a wake-up between ticks) never overlaps a tick.
    package let queue: DispatchQueue
    private struct Running {
        let source: any DispatchSourceTimer
        let handler: @Sendable () -> Void
    }
    private let running = Mutex<Running?>(nil)
    private let soon = Atomic(false)

    /// A stopped timer whose queue is labelled `label`.
    package init(label: String) { queue = DispatchQueue(label: label) }

    /// True between ``start(after:every:leeway:_:)`` and ``stop()``.
    package var isRunning: Bool { running.withLock { $0.map { _ in true } ?? false } }

    /// Runs `handler` on ``queue`` after `delay` seconds, then every `interval` seconds. No-op when running.
    package func start(
        after delay: Double, every interval: Double, leeway: DispatchTimeInterval,
        _ handler: @escaping @Sendable () -> Void
    ) {
        running.withLock { running in
            guard running == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + delay, repeating: interval, leeway: leeway)
            timer.setEventHandler(handler: handler)
            timer.resume()
            running = Running(source: timer, handler: handler)
        }
    }

    /// Queues one extra run of the handler between ticks. Cheap and non-blocking: while one is queued and not yet
    /// begun, further calls add nothing. No-op when stopped.
    package func runSoon() {
        guard let handler = running.withLock({ $0?.handler }) else { return }
        guard !soon.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.async { [self] in
            soon.store(false, ordering: .releasing)
            handler()
        }
    }

    /// Cancels the timer and waits for a run in progress (and for work already queued on ``queue``).
    package func stop() {
        let timer = running.withLock { running in
            defer { running = nil }
            return running?.source
        }
        timer?.cancel()
        queue.sync {}
    }
}
