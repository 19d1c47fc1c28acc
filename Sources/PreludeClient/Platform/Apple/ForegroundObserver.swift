// UIKit only (iOS, iPadOS, visionOS): not part of a Linux build. scripts/check-apple-sources.sh type-checks it on
// Linux against a stub of UIKit's documented declarations; it has never run on a device. It only forwards the
// notification to the platform-free `ForegroundHandler`, which the tests drive.
#if canImport(UIKit) && !os(watchOS)
    import UIKit

    /// Runs a ``ForegroundHandler`` each time the app becomes active (`UIApplication.didBecomeActiveNotification`),
    /// until ``stop()`` or deinitialisation. Keep it alive as long as the app runs (e.g. in the app delegate).
    @MainActor public final class ForegroundObserver {
        private var observation: (any NSObjectProtocol)?

        /// Observes the app becoming active; `onChange` gets the new decisions of the features whose status changed
        /// (e.g. to dismiss the Settings nudge and open the camera). A failed ledger write is not reported here: the
        /// next `record` surfaces it.
        public init(
            handler: ForegroundHandler, onChange: @escaping @MainActor ([Feature: Decision]) -> Void = { _ in }
        ) {
            observation = NotificationCenter.default.addObserver(
                forName: UIApplication.didBecomeActiveNotification, object: nil, queue: .main
            ) { _ in
                Task { @MainActor in
                    let changed = (try? await handler.appBecameActive()) ?? [:]
                    if !changed.isEmpty { onChange(changed) }
                }
            }
        }

        /// Stops observing.
        public func stop() {
            if let observation { NotificationCenter.default.removeObserver(observation) }
            observation = nil
        }
    }
#endif
