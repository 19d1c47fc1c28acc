// UIKit only (iOS, iPadOS, visionOS): not part of a Linux build. scripts/check-apple-sources.sh type-checks it on
// Linux against a stub of UIKit's documented declarations; it has never run on a device. It only turns the
// notification into `ForegroundSignal.activate()`; what runs then (refresh, flush, the flows) is platform-free and
// tested (ForegroundTests).
#if canImport(UIKit) && !os(watchOS)
    import UIKit

    /// The one observer of the app becoming active, per process.
    @MainActor enum ApplicationForeground {
        private static var observed = false

        /// Fires `signal` on every `UIApplication.didBecomeActiveNotification` — posted "when the app becomes
        /// active", including at launch
        /// (https://developer.apple.com/documentation/uikit/uiapplication/didbecomeactivenotification). Once per
        /// process; later calls do nothing.
        static func observe(_ signal: ForegroundSignal) {
            guard !observed else { return }
            observed = true
            _ = NotificationCenter.default.addObserver(
                forName: UIApplication.didBecomeActiveNotification, object: nil, queue: .main
            ) { _ in
                Task { await signal.activate() }
            }
        }
    }
#endif
