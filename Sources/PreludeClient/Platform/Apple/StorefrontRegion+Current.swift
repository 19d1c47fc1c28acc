// Apple platforms only (StoreKit present): not part of a Linux build. scripts/check-apple-sources.sh type-checks it
// on Linux against a stub of StoreKit's documented declarations; it has never run on a device. One StoreKit call;
// `StorefrontRegion`'s parsing (platform-free, tested) does the rest.
#if canImport(StoreKit) && (canImport(UIKit) || canImport(AppKit))
    import StoreKit

    extension StorefrontRegion {
        /// The App Store storefront's country: `Storefront.current` (StoreKit 2, iOS 15), ISO 3166-1 alpha-3
        /// (https://developer.apple.com/documentation/storekit/storefront/countrycode). One asynchronous StoreKit
        /// call answered from the device's App Store account, no purchase; nil without an account or storefront.
        /// Read it once per launch and pass it as `region:` to `ClientContext.current`.
        public static func current() async -> StorefrontRegion? {
            guard let storefront = await Storefront.current else { return nil }
            return StorefrontRegion(storefront.countryCode)
        }
    }
#endif
