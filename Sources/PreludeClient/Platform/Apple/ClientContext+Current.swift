// UIKit only (iOS, iPadOS, visionOS): not part of a Linux build. scripts/check-apple-sources.sh type-checks it on
// Linux against a stub of UIKit's documented declarations; it has never run on a device. It only reads the device;
// `DeviceFacts` (platform-free, tested) builds the context.
#if canImport(UIKit) && !os(watchOS)
    import UIKit

    extension ClientContext {
        /// The running app's context: platform (`ipados` on an iPad, else `ios`), `UIDevice`'s system version, the
        /// bundle's `CFBundleShortVersionString` and `Locale.preferredLanguages` (as `acceptLanguage`). Every
        /// argument given overrides what the device says. `region` comes from `await StorefrontRegion.current()`
        /// (StoreKit, asynchronous), `ageRange` only from a Declared Age Range request the app made.
        @MainActor public static func current(
            installId: String? = nil, platform: Platform? = nil, osVersion: SemanticVersion? = nil,
            appVersion: SemanticVersion? = nil, locale: String? = nil, acceptLanguage: String? = nil,
            region: StorefrontRegion? = nil, ageRange: AgeRange? = nil
        ) -> ClientContext {
            let device = UIDevice.current
            let facts = DeviceFacts(
                systemVersion: device.systemVersion, isPad: device.userInterfaceIdiom == .pad,
                shortVersion: Bundle.main.infoDictionary?["CFBundleShortVersionString"] as? String,
                preferredLanguages: Locale.preferredLanguages)
            return facts.context(
                installId: installId, platform: platform, osVersion: osVersion, appVersion: appVersion,
                locale: locale, acceptLanguage: acceptLanguage, region: region, ageRange: ageRange)
        }
    }
#endif
