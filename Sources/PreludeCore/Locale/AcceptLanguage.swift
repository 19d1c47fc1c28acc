/// The `Accept-Language` request header (RFC 9110 §12.5.4): the client's preferred languages with q-values.
public struct AcceptLanguage: Sendable {
    /// One language range of the header with its weight.
    public struct Entry: Hashable, Sendable {
        /// The language range as the client wrote it (trimmed), or `*`.
        public let range: String
        /// The range parsed as a tag (variants and extensions dropped); `nil` exactly when `range` is `*`.
        public let tag: LocaleTag?
        /// The weight, 0.001 through 1 (entries with q=0 are "not acceptable" and never returned).
        public let quality: Double

        /// Creates an entry.
        public init(range: String, tag: LocaleTag?, quality: Double) {
            self.range = range
            self.tag = tag
            self.quality = quality
        }
    }

    /// Parses a header value into its acceptable entries, highest q first; equal q keep header order.
    ///
    /// Never fails: an element with a malformed range (RFC 4647 §2.1), a range that is not a usable
    /// language tag (`i-klingon`, `x-private`), a malformed q-value (RFC 9110 §12.4.2: `0` or `1`, at
    /// most three decimals) or an unknown parameter is skipped, and the rest still count.
    /// Entries with `q=0` are excluded. Empty list elements are ignored (RFC 9110 §5.6.1).
    public static func parse(_ header: String) -> [Entry] {
        var entries: [Entry] = []
        for element in header.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            guard let entry = parseElement(element) else { continue }
            entries.append(entry)
        }
        // Swift's sort is not guaranteed stable, so order by (q descending, position ascending).
        return entries.enumerated()
            .sorted { lhs, rhs in
                lhs.element.quality != rhs.element.quality
                    ? lhs.element.quality > rhs.element.quality : lhs.offset < rhs.offset
            }
            .map(\.element)
    }

    private static func parseElement(_ element: Substring.UTF8View) -> Entry? {
        let parts = element.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
        guard let rawRange = parts.first.map(trimmed), !rawRange.isEmpty else { return nil }
        var quality = 1.0
        // RFC 9110 §12.4.2: weight = OWS ";" OWS "q=" qvalue; Accept-Language defines no other parameter.
        if parts.count > 2 { return nil }
        if parts.count == 2 {
            let parameter = trimmed(parts[1])
            guard parameter.count >= 2,
                parameter.first.map({ $0 | 0x20 }) == UInt8(ascii: "q"),
                parameter.dropFirst().first == UInt8(ascii: "=")
            else { return nil }
            guard let q = parseQValue(parameter.dropFirst(2)) else { return nil }
            quality = q
        }
        guard quality > 0 else { return nil }
        let range = String(decoding: rawRange, as: UTF8.self)
        if range == "*" { return Entry(range: range, tag: nil, quality: quality) }
        guard isLanguageRange(rawRange), let tag = LocaleTag(parsingPrefixOf: range) else { return nil }
        return Entry(range: range, tag: tag, quality: quality)
    }

    /// RFC 4647 §2.1: language-range = (1*8ALPHA *("-" 1*8alphanum)) / "*". Underscores are tolerated
    /// because some clients send POSIX-style locales (`en_US`).
    private static func isLanguageRange(_ bytes: Substring.UTF8View) -> Bool {
        var first = true
        for subtag in bytes.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
        {
            guard (1...8).contains(subtag.count) else { return false }
            for byte in subtag {
                let letter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                let digit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                guard letter || (digit && !first) else { return false }
            }
            first = false
        }
        return true
    }

    /// RFC 9110 §12.4.2: qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ).
    /// Computed in thousandths so the result is exact and needs no floating-point parsing.
    static func parseQValue(_ bytes: Substring.UTF8View) -> Double? {
        var iterator = bytes.makeIterator()
        guard let lead = iterator.next(), lead == UInt8(ascii: "0") || lead == UInt8(ascii: "1") else { return nil }
        var thousandths = lead == UInt8(ascii: "1") ? 1000 : 0
        guard let dot = iterator.next() else { return Double(thousandths) / 1000 }
        guard dot == UInt8(ascii: ".") else { return nil }
        var scale = 100
        var digits = 0
        while let byte = iterator.next() {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), digits < 3 else { return nil }
            let value = Int(byte - UInt8(ascii: "0"))
            if lead == UInt8(ascii: "1") && value != 0 { return nil }
            thousandths += value * scale
            scale /= 10
            digits += 1
        }
        return Double(thousandths) / 1000
    }

    private static func trimmed(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        // OWS = *( SP / HTAB ) (RFC 9110 §5.6.3).
        let isOWS: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let start = bytes.firstIndex(where: { !isOWS($0) }) else { return bytes[bytes.endIndex...] }
        let end = bytes.lastIndex(where: { !isOWS($0) })!
        return bytes[start...end]
    }
}
