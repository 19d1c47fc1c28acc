import Dispatch
import Synchronization

/// A Dispatch timer on a serial queue of its own: how the service's periodic work (the live reloader, the rollout
/// guard, event pruning, the leader election) wakes. Started once, stopped once; ``stop()`` waits for a run in
/// progress, so the caller may close what the handler uses right after it.
package final class RepeatingTimer: Sendable {
    /// The serial queue the handler runs on; work queued here (a wake-up between ticks) never overlaps a tick.
    package let queue: DispatchQueue
    private let source: Mutex<(any DispatchSourceTimer)?> = Mutex(nil)

    /// A stopped timer whose queue is labelled `label`.
    package init(label: String) { queue = DispatchQueue(label: label) }

    /// True between ``start(after:every:leeway:_:)`` and ``stop()``.
    package var isRunning: Bool { source.withLock { $0 != nil } }

    /// Runs `handler` on ``queue`` after `delay` seconds, then every `interval` seconds. No-op when running.
    package func start(
        after delay: Double, every interval: Double, leeway: DispatchTimeInterval,
        _ handler: @escaping @Sendable () -> Void
    ) {
        source.withLock { source in
            guard source == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + delay, repeating: interval, leeway: leeway)
            timer.setEventHandler(handler: handler)
            timer.resume()
            source = timer
        }
    }

    /// Cancels the timer and waits for a run in progress (and for work already queued on ``queue``).
    package func stop() {
        let timer = source.withLock { source in
            defer { source = nil }
            return source
        }
        timer?.cancel()
        queue.sync {}
    }
}
