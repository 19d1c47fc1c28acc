import PreludeCore

/// What the running app knows about itself, as `ClientContext.current()` reads it on Apple platforms (UIKit and
/// Foundation), turned into a context here: platform-free, so tested on Linux.
public struct DeviceFacts: Sendable, Hashable {
    /// `UIDevice.current.systemVersion`, e.g. `17.4` or `18.0.1`.
    public var systemVersion: String
    /// Whether `UIDevice.current.userInterfaceIdiom` is `.pad` (iPadOS) rather than a phone (iOS).
    public var isPad: Bool
    /// The bundle's `CFBundleShortVersionString`, e.g. `2.3.0`; nil when absent.
    public var shortVersion: String?
    /// `Locale.preferredLanguages`, most preferred first (`fr-CA`, `en-US`).
    public var preferredLanguages: [String]

    /// Facts as read from the device.
    public init(systemVersion: String, isPad: Bool, shortVersion: String?, preferredLanguages: [String]) {
        self.systemVersion = systemVersion
        self.isPad = isPad
        self.shortVersion = shortVersion
        self.preferredLanguages = preferredLanguages
    }

    /// The context these facts describe, each given argument overriding them: platform `ios` or `ipados`, the OS
    /// and app versions when they parse, and the preferred languages as an `Accept-Language` value (`fr-CA,
    /// en-US;q=0.9, …`, at most ten), so locale fallback sees every language the person reads.
    ///
    /// `region` (the storefront, ``PreludeCore/StorefrontRegion``'s `current()` on Apple platforms) and `ageRange`
    /// (only what the app obtained by asking Declared Age Range) are passed through: no device fact gives them
    /// without an asynchronous call or a request the app decides to make.
    public func context(
        installId: String? = nil, platform: Platform? = nil, osVersion: SemanticVersion? = nil,
        appVersion: SemanticVersion? = nil, locale: String? = nil, acceptLanguage: String? = nil,
        region: StorefrontRegion? = nil, ageRange: AgeRange? = nil
    ) -> ClientContext {
        ClientContext(
            platform: platform ?? (isPad ? .ipados : .ios), osVersion: osVersion ?? SemanticVersion(systemVersion),
            appVersion: appVersion ?? shortVersion.flatMap { SemanticVersion($0) }, locale: locale,
            acceptLanguage: acceptLanguage ?? preferredAcceptLanguage, installId: installId, region: region,
            ageRange: ageRange)
    }

    /// The segment events are sent with (``PreludeClientConfiguration/segment``): the OS major version of
    /// `systemVersion` and the first preferred language reduced to `language[-REGION]`; a part that does not parse
    /// is left out.
    public var segment: EventSegment {
        EventSegment(systemVersion: systemVersion, localeIdentifier: preferredLanguages.first)
    }

    /// `preferredLanguages` as an `Accept-Language` value; nil when none parses as a language tag.
    var preferredAcceptLanguage: String? {
        let languages = preferredLanguages.filter { LocaleTag(parsingPrefixOf: $0) != nil }.prefix(10)
        guard !languages.isEmpty else { return nil }
        return languages.enumerated().map { index, tag in index == 0 ? tag : "\(tag);q=0.\(10 - index)" }
            .joined(separator: ", ")
    }
}
