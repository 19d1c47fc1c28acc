import Dispatch
import Synchronization

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// Turns SIGINT and SIGTERM into a blocking wait, so shutdown runs as ordinary code on a normal thread.
///
/// The default actions are replaced by `SIG_IGN` first, then Dispatch signal sources observe them
/// (docs/container.md: as PID 1 in a container, a process without a handler is SIGKILLed after the stop timeout).
/// Create it before starting the server so a signal during start-up is not lost.
package final class SignalWaiter {
    /// What the handlers share with `wait()`: the first signal received.
    private final class State: Sendable {
        let received = DispatchSemaphore(value: 0)
        let first = Mutex<Int32?>(nil)
    }

    private let state = State()
    private var sources: [any DispatchSourceSignal] = []

    /// Starts observing `signals`.
    package init(signals: [Int32] = [SIGINT, SIGTERM]) {
        let queue = DispatchQueue(label: "prelude.signals")
        let state = state
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                let isFirst = state.first.withLock { current in
                    guard current == nil else { return false }
                    current = number
                    return true
                }
                if isFirst { state.received.signal() }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Blocks until one of the signals arrives and returns its number.
    package func wait() -> Int32 {
        state.received.wait()
        state.received.signal()  // later waiters return at once
        return state.first.withLock { $0 } ?? 0
    }

    deinit { for source in sources { source.cancel() } }
}
