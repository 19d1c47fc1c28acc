import Foundation

/// Tells its subscribers that the app came to the foreground; ``PreludeClient`` subscribes by itself unless the
/// configuration opts out (``PreludeClientConfiguration/observesForeground``), and then refreshes, flushes and has
/// its flows re-read their statuses (``PreludeClient/appBecameActive()``).
///
/// Platform-free. ``application`` is the running app's signal: on iOS, iPadOS and visionOS it fires on every
/// `UIApplication.didBecomeActiveNotification` (one observer per process, `Platform/Apple/ApplicationForeground.swift`,
/// installed by the first client that subscribes); on other platforms only ``activate()`` fires it. Tests give a
/// client a signal of their own and call ``activate()``.
public final class ForegroundSignal: @unchecked Sendable {
    // @unchecked Sendable: `subscriptions` is read and written only while holding `lock`.
    private let lock = NSLock()
    private var subscriptions: [Subscription] = []

    /// The running app's signal (see the type's documentation).
    public static let application = ForegroundSignal()

    /// A signal that fires only when ``activate()`` is called.
    public init() {}

    /// The app came to the foreground: runs every subscriber's action concurrently and returns when all finished.
    public func activate() async {
        let actions = lock.withLock { subscriptions.compactMap(\.action) }
        await withTaskGroup(of: Void.self) { group in
            for action in actions { group.addTask { await action() } }
        }
    }

    /// Runs `action` on every activation until the subscription is cancelled or released.
    public func subscribe(_ action: @escaping @Sendable () async -> Void) -> Subscription {
        let subscription = subscription()
        subscription.attach(action)
        return subscription
    }

    /// The subscriptions in place (a released client's is gone).
    public var subscriberCount: Int { lock.withLock { subscriptions.count } }

    /// A subscription without an action yet: for an initializer that must create it before `self` exists.
    func subscription() -> Subscription {
        let subscription = Subscription(signal: self)
        lock.withLock { subscriptions.append(subscription) }
        return subscription
    }

    fileprivate func remove(_ subscription: Subscription) {
        lock.withLock { subscriptions.removeAll { $0 === subscription } }
    }

    /// One subscriber's place in a ``ForegroundSignal``: its action runs on every activation until ``cancel()``.
    public final class Subscription: @unchecked Sendable {
        // @unchecked Sendable: `storedAction` is read and written only while holding `lock`; `signal` is set once,
        // in init, and weak loads are atomic.
        private let lock = NSLock()
        private var storedAction: (@Sendable () async -> Void)?
        private weak var signal: ForegroundSignal?

        fileprivate init(signal: ForegroundSignal) { self.signal = signal }

        fileprivate var action: (@Sendable () async -> Void)? { lock.withLock { storedAction } }

        func attach(_ action: @escaping @Sendable () async -> Void) { lock.withLock { storedAction = action } }

        /// Stops the action from running on later activations.
        public func cancel() {
            lock.withLock { storedAction = nil }
            signal?.remove(self)
        }
    }
}

extension ForegroundSignal {
    /// Makes ``application`` fire on the platform's own notification, once per process: on UIKit platforms the
    /// observer of `Platform/Apple/ApplicationForeground.swift`; nothing elsewhere.
    static func observeApplicationOnce() {
        #if canImport(UIKit) && !os(watchOS)
            if Thread.isMainThread {
                MainActor.assumeIsolated { ApplicationForeground.observe(application) }
            } else {
                Task { @MainActor in ApplicationForeground.observe(application) }
            }
        #endif
    }
}
