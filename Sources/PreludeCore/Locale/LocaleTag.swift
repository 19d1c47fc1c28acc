/// A BCP 47 language tag reduced to what copy lookup needs: language, optional script, optional region.
///
/// Parsing accepts `-` or `_` as separator and any letter case, and normalises the case the way
/// BCP 47 recommends (RFC 5646 §2.1.1): language lower-case, script title-case, region upper-case,
/// so `ZH_hant_tw` becomes `zh-Hant-TW`. A few deprecated language codes that old clients still send
/// are replaced by their current ones (`iw` → `he`, `in` → `id`, `ji` → `yi`, `jw` → `jv`, `mo` → `ro`).
///
/// Encoded and decoded as a single JSON string (its ``description``).
public struct LocaleTag: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The primary language subtag, lower-case, 2–3 letters (ISO 639), e.g. `zh`.
    public let language: String
    /// The script subtag, title-case, 4 letters (ISO 15924), e.g. `Hant`.
    public let script: String?
    /// The region subtag, upper-case 2 letters (ISO 3166-1) or 3 digits (UN M.49), e.g. `TW`, `419`.
    public let region: String?

    /// Parses `language[-script][-region]`, with `-` or `_` as separator; `nil` when malformed.
    ///
    /// Tags carrying variants, extensions or private-use subtags (`de-DE-1996`, `en-u-ca-buddhist`) are
    /// rejected here, because this type cannot represent them; ``init(parsingPrefixOf:)`` keeps their
    /// leading part instead.
    public init?(_ string: String) {
        guard let (tag, consumedAll) = Self.parse(string), consumedAll else { return nil }
        self = tag
    }

    /// Parses the language, script and region at the start of a longer tag and drops what follows
    /// (variants, extensions, private use), e.g. `de-DE-1996` → `de-DE`; `nil` when even that part is malformed.
    ///
    /// Used for Accept-Language, where clients may send tags richer than copy is keyed by.
    public init?(parsingPrefixOf string: String) {
        guard let (tag, _) = Self.parse(string) else { return nil }
        self = tag
    }

    /// Builds a tag from its parts, validating and normalising each; `nil` when a part is malformed.
    public init?(language: String, script: String? = nil, region: String? = nil) {
        var text = language
        if let script { text += "-" + script }
        if let region { text += "-" + region }
        self.init(text)
    }

    /// The three subtags packed into one number, equal exactly when the tags are (each letter of the
    /// case-normalised ASCII subtags in 5 bits, a numeric region as its value): what `==` and hashing use, since
    /// tags are compared and hashed on every policy fetch.
    private let packed: UInt64

    private init(validLanguage: String, script: String?, region: String?) {
        self.language = validLanguage
        self.script = script
        self.region = region
        packed = Self.pack(language: validLanguage, script: script, region: region)
    }

    /// Language letters in bits 0–14, script letters in 15–34, the region's kind (none, letters, digits) in
    /// 35–36 and its letters or number in 37–46. Letters are `a`…`z` (either case) as 1…26.
    private static func pack(language: String, script: String?, region: String?) -> UInt64 {
        func letters(_ text: String, at shift: Int) -> UInt64 {
            var value: UInt64 = 0
            for (index, byte) in text.utf8.enumerated() {
                value |= UInt64((byte | 0x20) &- UInt8(ascii: "a") &+ 1) << (shift + 5 * index)
            }
            return value
        }
        var packed = letters(language, at: 0)
        if let script { packed |= letters(script, at: 15) }
        if let region {
            if let number = UInt64(region) {
                packed |= 2 << 35 | number << 37
            } else {
                packed |= 1 << 35 | letters(region, at: 37)
            }
        }
        return packed
    }

    /// Equal subtags (the packed forms are equal exactly then).
    public static func == (lhs: LocaleTag, rhs: LocaleTag) -> Bool { lhs.packed == rhs.packed }

    /// Hashes the packed subtags.
    public func hash(into hasher: inout Hasher) { hasher.combine(packed) }

    /// A number equal for equal tags and different for different ones (the packed subtags), for callers that fold
    /// tags into their own digests.
    public var fingerprint: UInt64 { packed }

    /// The canonical form, e.g. `zh-Hant-TW`.
    public var description: String {
        var text = language
        if let script { text += "-" + script }
        if let region { text += "-" + region }
        return text
    }

    /// The tags to try, most specific first, when looking up copy for this tag (without the app default).
    ///
    /// The rule (RFC 4647 §3.4 "Lookup", plus implied scripts):
    /// 1. The tag itself.
    /// 2. If the tag has no script and its language is written in several scripts, the script implied by
    ///    the region (or by the language alone) is inserted, as CLDR's likely subtags do:
    ///    `zh-TW`, `zh-HK`, `zh-MO` → `Hant`; `zh-CN`, `zh-SG`, `zh-MY` and bare `zh` → `Hans`;
    ///    `sr` → `Cyrl` (`sr-ME` → `Latn`); `uz`, `az`, `bs` → `Latn`; `uz-AF`, `az-IR`, `pa-PK` → `Arab`;
    ///    `pa` → `Guru`; `mn` → `Cyrl`. The chain continues from that fuller tag.
    /// 3. Then subtags are removed from the end one at a time: region, then script.
    ///
    /// So `zh-Hant-TW` → `zh-Hant` → `zh`; `zh-TW` → `zh-Hant-TW` → `zh-Hant` → `zh`;
    /// `zh-CN` → `zh-Hans-CN` → `zh-Hans` → `zh`; `zh` → `zh-Hans`; `en-GB` → `en`; `sr-Latn-RS` → `sr-Latn` → `sr`.
    public var fallbackChain: [LocaleTag] {
        var chain: [LocaleTag] = [self]
        var full = self
        if script == nil, let implied = Self.impliedScript(language: language, region: region) {
            full = LocaleTag(validLanguage: language, script: implied, region: region)
            chain.append(full)
        }
        if full.region != nil {
            let withoutRegion = LocaleTag(validLanguage: full.language, script: full.script, region: nil)
            if !chain.contains(withoutRegion) { chain.append(withoutRegion) }
        }
        if full.script != nil {
            let bare = LocaleTag(validLanguage: full.language, script: nil, region: nil)
            if !chain.contains(bare) { chain.append(bare) }
        }
        return chain
    }

    // MARK: - Codable

    /// Decodes a tag from a single string; a malformed tag is a `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let tag = LocaleTag(text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription:
                    "\"\(text)\" is not a locale tag of the form language[-Script][-REGION], e.g. zh-Hant-TW"
            )
        }
        self = tag
    }

    /// Encodes the tag as its canonical string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    // MARK: - Parsing

    /// Deprecated ISO 639 codes still emitted by some platforms (Java's `Locale` keeps `iw`, `in`, `ji`),
    /// mapped to the codes BCP 47 prefers (IANA registry "Preferred-Value").
    private static func preferredLanguage(_ code: String) -> String {
        switch code {
        case "iw": "he"
        case "in": "id"
        case "ji": "yi"
        case "jw": "jv"
        case "mo": "ro"
        default: code
        }
    }

    /// Returns the parsed tag and whether the whole string was consumed.
    private static func parse(_ string: String) -> (LocaleTag, Bool)? {
        var string = string
        return string.withUTF8 { parse(bytes: $0) }
    }

    /// Parses UTF-8 bytes in place: this runs for every request that names a locale, so no subtag arrays.
    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> (LocaleTag, Bool)? {
        // Subtags are ASCII alphanumerics (RFC 5646 §2.1) separated by `-` (or `_`). At most four are looked at:
        // language, script, region, and whatever follows them.
        var subtags: (Range<Int>, Range<Int>, Range<Int>, Range<Int>) = (0..<0, 0..<0, 0..<0, 0..<0)
        var count = 0
        var start = 0
        var position = 0
        while count < 4 {
            if position == bytes.count || bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "_") {
                switch count {
                case 0: subtags.0 = start..<position
                case 1: subtags.1 = start..<position
                case 2: subtags.2 = start..<position
                default: subtags.3 = start..<position
                }
                count += 1
                if position == bytes.count { break }
                start = position + 1
            }
            position += 1
        }
        func subtag(_ index: Int) -> UnsafeBufferPointer<UInt8> {
            let range =
                switch index {
                case 0: subtags.0
                case 1: subtags.1
                case 2: subtags.2
                default: subtags.3
                }
            return UnsafeBufferPointer(rebasing: bytes[range])
        }
        func text(_ part: UnsafeBufferPointer<UInt8>, _ transform: (UInt8, Int) -> UInt8) -> String {
            String(unsafeUninitializedCapacity: part.count) { buffer in
                for offset in 0..<part.count { buffer[offset] = transform(part[offset], offset) }
                return part.count
            }
        }
        // RFC 5646 §2.2.1: language = 2*3ALPHA (the 4–8 letter forms are reserved or unused in practice).
        let first = subtag(0)
        guard (2...3).contains(first.count), first.allSatisfy(isAlpha) else { return nil }
        let language = preferredLanguage(text(first) { byte, _ in lower(byte) })

        var index = 1
        var script: String?
        var region: String?
        // RFC 5646 §2.2.3: script = 4ALPHA.
        if index < count, subtag(index).count == 4, subtag(index).allSatisfy(isAlpha) {
            script = text(subtag(index)) { byte, offset in offset == 0 ? upper(byte) : lower(byte) }
            index += 1
        }
        // RFC 5646 §2.2.4: region = 2ALPHA / 3DIGIT.
        if index < count {
            let candidate = subtag(index)
            if candidate.count == 2, candidate.allSatisfy(isAlpha) {
                region = text(candidate) { byte, _ in upper(byte) }
                index += 1
            } else if candidate.count == 3, candidate.allSatisfy(isDigit) {
                region = text(candidate) { byte, _ in byte }
                index += 1
            }
        }
        let tag = LocaleTag(validLanguage: language, script: script, region: region)
        if index == count { return (tag, true) }
        // Something follows. It must at least be a syntactically plausible subtag (1–8 alphanumerics),
        // otherwise the input is garbage such as "en--US" or "en-US-".
        let next = subtag(index)
        guard (1...8).contains(next.count), next.allSatisfy({ isAlpha($0) || isDigit($0) }) else { return nil }
        return (tag, false)
    }

    /// The script a language is usually written in, given its region, for the languages written in several.
    /// Values from CLDR likely subtags.
    static func impliedScript(language: String, region: String?) -> String? {
        switch (language, region) {
        case ("zh", "TW"), ("zh", "HK"), ("zh", "MO"): return "Hant"
        case ("zh", _): return "Hans"
        case ("sr", "ME"): return "Latn"
        case ("sr", _): return "Cyrl"
        case ("uz", "AF"), ("az", "IR"), ("pa", "PK"): return "Arab"
        case ("uz", _), ("az", _), ("bs", _): return "Latn"
        case ("pa", _): return "Guru"
        case ("mn", _): return "Cyrl"
        default: return nil
        }
    }
}

@inline(__always) private func isAlpha(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
}

@inline(__always) private func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
}

@inline(__always) private func lower(_ byte: UInt8) -> UInt8 { byte | 0x20 }

@inline(__always) private func upper(_ byte: UInt8) -> UInt8 { byte & ~0x20 }
