/// The device segment a batch of events comes from: the OS major version and the locale (docs/results.md,
/// "Breakdowns"). A client sends it with each batch in two request headers, ``osMajorHeader`` and
/// ``localeHeader``, which servers before the breakdowns ignore; results are broken down by both.
///
/// Both values are small by construction, so a hostile client cannot make their number of distinct values grow
/// without bound: the OS major version is an integer from 1 to ``maximumOSMajor``, and the locale is reduced to
/// `language[-REGION]` (no script, variant or extension). Storage caps distinct locales further per experiment
/// (``maximumStoredValues``).
public struct EventSegment: Sendable, Hashable {
    /// The request header carrying the OS major version, e.g. `Prelude-OS-Major: 18`.
    public static let osMajorHeader = "Prelude-OS-Major"
    /// The request header carrying the locale, e.g. `Prelude-Locale: fr-CA`.
    public static let localeHeader = "Prelude-Locale"
    /// The largest OS major version accepted.
    public static let maximumOSMajor = 99
    /// How many distinct values of one dimension one experiment's aggregates keep; later new values count as
    /// ``otherValue``.
    public static let maximumStoredValues = 64
    /// The segment value of events that carried none (sent by older clients, or stored before the breakdowns).
    public static let unknownValue = "unknown"
    /// The segment value that gathers every value beyond a cap.
    public static let otherValue = "other"

    /// The OS major version (`18` for iOS 18.2), or nil when not sent.
    public var osMajor: Int?
    /// The locale as `language[-REGION]` (`fr-CA`, `es-419`, `de`), or nil when not sent.
    public var locale: String?

    /// A segment with the given, already canonical values (see ``parseOSMajor(_:)`` and ``parseLocale(_:)``).
    public init(osMajor: Int? = nil, locale: String? = nil) {
        self.osMajor = osMajor
        self.locale = locale
    }

    /// Whether neither value is known.
    public var isEmpty: Bool { osMajor == nil && locale == nil }

    /// The segment of a device from its raw values, each reduced to what a segment keeps; a value that does not
    /// parse is left out (nil), never guessed.
    ///
    /// - Parameters:
    ///   - systemVersion: the OS version as the device reports it (`18.2.1`, `17.4`).
    ///   - localeIdentifier: a locale identifier or language tag (`fr_CA`, `zh-Hant-TW`, `en-US@calendar=gregorian`).
    public init(systemVersion: String?, localeIdentifier: String?) {
        osMajor = systemVersion.flatMap { version in
            let digits = version.prefix { $0.isASCII && $0.isNumber }
            return Self.parseOSMajor(String(digits))
        }
        locale = localeIdentifier.flatMap { identifier in
            // `@…` carries keywords (calendar, collation), not the locale.
            let base = identifier.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            guard let tag = LocaleTag(parsingPrefixOf: String(base)) else { return nil }
            return tag.region.map { tag.language + "-" + $0 } ?? tag.language
        }
    }

    /// A header's OS major version: 1–2 ASCII digits, 1 to ``maximumOSMajor``, no sign or leading zero; nil otherwise.
    public static func parseOSMajor(_ text: String) -> Int? {
        let utf8 = text.utf8
        guard (1...2).contains(utf8.count), utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), utf8.first != 0x30,
            let value = Int(text), (1...maximumOSMajor).contains(value)
        else { return nil }
        return value
    }

    /// A header's locale: `language` (2–3 letters) optionally followed by `-` or `_` and a region (2 letters or 3
    /// digits), any case, returned with the case BCP 47 recommends (`fr-CA`); nil for anything else (a script,
    /// variant or extension subtag included: the client reduces those before sending).
    public static func parseLocale(_ text: String) -> String? {
        guard text.utf8.count <= 7, let tag = LocaleTag(text), tag.script == nil else { return nil }
        return tag.region.map { tag.language + "-" + $0 } ?? tag.language
    }

    /// What a valid OS major header looks like, for error messages.
    public static let osMajorRule = "expected the OS major version as an integer from 1 to \(maximumOSMajor), e.g. 18"
    /// What a valid locale header looks like, for error messages.
    public static let localeRule =
        "expected language[-REGION]: 2–3 letters, optionally a 2-letter or 3-digit region, e.g. fr-CA (no script)"
}
