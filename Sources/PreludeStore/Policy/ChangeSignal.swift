import Dispatch
import Synchronization

/// A generation counter that wakes waiters when it moves: how the change feed's long polls learn, without
/// polling, that a revision went live (``PolicyStore`` bumps it after every swap).
///
/// A waiter names the generation it has already seen, so a bump between its read of the state and its call to
/// ``wait(after:timeout:_:)`` is never missed: the callback then runs at once.
package final class ChangeSignal: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var nextWaiter: UInt64 = 0
        var waiters: [UInt64: @Sendable (Bool) -> Void] = [:]
        var closed = false
    }

    private let state = Mutex(State())

    /// A signal at generation 0.
    package init() {}

    /// The current generation.
    package var generation: UInt64 { state.withLock { $0.generation } }

    /// Moves to the next generation and wakes every waiter (with `true`).
    package func bump() {
        let woken = state.withLock { state -> [@Sendable (Bool) -> Void] in
            state.generation &+= 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter(true) }
    }

    /// Calls `body` exactly once: with `true` as soon as the generation is past `seen` (at once if it already is),
    /// or with `false` after `timeout` seconds, or at once with `false` after ``close()``.
    package func wait(after seen: UInt64, timeout: Double, _ body: @escaping @Sendable (Bool) -> Void) {
        let registered = state.withLock { state -> UInt64? in
            guard state.generation == seen, !state.closed else { return nil }
            state.nextWaiter &+= 1
            state.waiters[state.nextWaiter] = body
            return state.nextWaiter
        }
        guard let id = registered else {
            body(generation != seen)
            return
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + max(0, timeout)) { [self] in
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?(false)
        }
    }

    /// Wakes every waiter with `false` and makes later waits return at once (the service is stopping).
    package func close() {
        let woken = state.withLock { state -> [@Sendable (Bool) -> Void] in
            state.closed = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter(false) }
    }
}
