// UIKit only (iOS, iPadOS, visionOS): not part of a Linux build. scripts/check-apple-sources.sh type-checks it on
// Linux against a stub of UIKit's documented declarations; it has never run on a device.
#if canImport(UIKit) && !os(watchOS)
    import UIKit

    /// Opens the app's page in Settings after the decision's delay (UIKit only).
    public enum SettingsOpener {
        /// Waits `delayMs` (the decision's `settingsDelayMs`), then opens `UIApplication.openSettingsURLString`.
        ///
        /// The delay is the camera-authorization-flow seed's fix: opening the URL straight from an alert's button
        /// handler sometimes crashes. Returns whether the system opened it.
        @MainActor public static func open(afterMilliseconds delayMs: Int) async -> Bool {
            try? await Task.sleep(nanoseconds: UInt64(max(0, delayMs)) * 1_000_000)
            guard let url = URL(string: UIApplication.openSettingsURLString) else { return false }
            return await UIApplication.shared.open(url, options: [:])
        }
    }
#endif
