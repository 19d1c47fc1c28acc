// UIKit only (iOS, iPadOS, visionOS): not part of a Linux build. scripts/check-apple-sources.sh type-checks it on
// Linux against a stub of UIKit's documented declarations; it has never run on a device. It only reads the device;
// `DeviceFacts.segment` (platform-free, tested) reduces the raw values.
#if canImport(UIKit) && !os(watchOS)
    import UIKit

    extension EventSegment {
        /// The running device's segment: the OS major version of `UIDevice.current.systemVersion` (Apple's UIKit
        /// documentation, `UIDevice.systemVersion`: "The current version of the operating system", e.g. `18.2`)
        /// and the first of `Locale.preferredLanguages`, reduced by ``DeviceFacts/segment``.
        @MainActor public static func current() -> EventSegment {
            DeviceFacts(
                systemVersion: UIDevice.current.systemVersion, isPad: false, shortVersion: nil,
                preferredLanguages: Locale.preferredLanguages
            ).segment
        }
    }
#endif
