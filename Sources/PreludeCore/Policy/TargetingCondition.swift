/// The `when` of a targeting rule: every given criterion must match (AND); an empty condition always matches.
public struct TargetingCondition: Sendable, Hashable {
    /// The client platforms that match; empty means any.
    public var platforms: [Platform]
    /// The OS versions that match.
    public var os: VersionRange?
    /// The app versions that match.
    public var appVersion: VersionRange?
    /// Locales that match the client's preferred locale or one of its fallbacks (`zh` matches `zh-Hant-TW`).
    public var locales: [LocaleTag]
    /// Storefront regions that match: ISO 3166-1 alpha-3 codes or group names (`EU`); empty means any.
    public var regions: [String]
    /// The declared age band that matches (`>=18`, `<18`); nil means any, including an unknown age.
    public var ageRange: AgeCondition?
    /// A condition on the client's attributes (GrowthBook's language, segments through `$inSegment`).
    public var condition: Condition?

    /// A condition with the given criteria.
    public init(
        platforms: [Platform] = [], os: VersionRange? = nil, appVersion: VersionRange? = nil, locales: [LocaleTag] = [],
        regions: [String] = [], ageRange: AgeCondition? = nil, condition: Condition? = nil
    ) {
        self.platforms = platforms
        self.os = os
        self.appVersion = appVersion
        self.locales = locales
        self.regions = regions
        self.ageRange = ageRange
        self.condition = condition
    }

    /// Whether the client matches. A criterion the client did not report (no OS version, no locale) does not match.
    public func matches(_ context: ClientContext) -> Bool {
        if !platforms.isEmpty {
            guard let platform = context.platform, platforms.contains(platform) else { return false }
        }
        if let os {
            guard let version = context.osVersion, os.contains(version) else { return false }
        }
        if let appVersion {
            guard let version = context.appVersion, appVersion.contains(version) else { return false }
        }
        if !locales.isEmpty {
            guard let preferred = context.preferredLocale else { return false }
            let chain = preferred.fallbackChain
            guard locales.contains(where: chain.contains) else { return false }
        }
        if !regions.isEmpty {
            guard let region = context.region, regions.contains(where: region.matches(selector:)) else { return false }
        }
        if let ageRange {
            guard let band = context.ageRange, ageRange.matches(band) else { return false }
        }
        if let condition, !condition.matches(context) { return false }
        return true
    }
}
