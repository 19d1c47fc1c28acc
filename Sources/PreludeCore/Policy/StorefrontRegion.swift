/// The country of the App Store storefront a client buys from: ISO 3166-1 alpha-3, upper case, as StoreKit reports
/// it (`Storefront.countryCode`, "FRA"). The `region` of ``ClientContext``: targeting rules match it
/// (`"when": {"region": ["EU", "CHE"]}`) and the engine reads it where a system rule depends on the storefront
/// (tracking's expanded request on iOS 27.2, docs/catalogue.md).
public struct StorefrontRegion: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The three upper-case letters.
    public let code: String

    /// The region of `text`: three ASCII letters in any case; nil for anything else.
    public init?(_ text: String) {
        let utf8 = text.utf8
        guard utf8.count == 3, utf8.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) else { return nil }
        code = String(decoding: utf8.map { $0 & ~0x20 }, as: UTF8.self)
    }

    /// Whether the storefront is in one of the European Union's 27 member states.
    public var isInEuropeanUnion: Bool { Self.europeanUnion.contains(code) }

    /// The group names a targeting rule may use beside codes, with their members.
    public static let groups: [String: Set<String>] = ["EU": europeanUnion]

    /// The European Union's member states (2026), ISO 3166-1 alpha-3.
    public static let europeanUnion: Set<String> = [
        "AUT", "BEL", "BGR", "HRV", "CYP", "CZE", "DNK", "EST", "FIN", "FRA", "DEU", "GRC", "HUN", "IRL",
        "ITA", "LVA", "LTU", "LUX", "MLT", "NLD", "POL", "PRT", "ROU", "SVK", "SVN", "ESP", "SWE",
    ]

    /// Whether `selector` (a code or a group name such as `EU`, as a targeting rule writes it) names this region.
    public func matches(selector: String) -> Bool {
        if let group = Self.groups[selector] { return group.contains(code) }
        return selector == code
    }

    /// The code.
    public var description: String { code }

    public static func < (lhs: StorefrontRegion, rhs: StorefrontRegion) -> Bool { lhs.code < rhs.code }
}
