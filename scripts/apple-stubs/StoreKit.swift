// Stub of Apple's StoreKit for scripts/check-apple-sources.sh: only the symbols Sources/PreludeClient uses, each
// declaration transcribed from the Apple documentation page above it. Type-checked, never run.
@_exported import Foundation

// https://developer.apple.com/documentation/storekit/storefront (`struct Storefront`, iOS 15)
public struct Storefront: Sendable {
    // https://developer.apple.com/documentation/storekit/storefront/countrycode (`let countryCode: String`,
    // ISO 3166-1 alpha-3)
    public let countryCode: String

    // https://developer.apple.com/documentation/storekit/storefront/current
    // (`static var current: Storefront? { get async }`)
    public static var current: Storefront? { get async { fatalError("stub") } }
}
