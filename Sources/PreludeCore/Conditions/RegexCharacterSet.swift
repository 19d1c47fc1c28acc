/// A set of Unicode scalars as ranges, possibly inverted: a regex class `[…]` or an escape such as `\d`.
struct RegexCharacterSet: Sendable {
    var ranges: [ClosedRange<UInt32>] = []
    /// Nested sets (`[\d_]`), each with its own inversion.
    var nested: [RegexCharacterSet] = []
    var isInverted = false

    init() {}

    init(ranges: [ClosedRange<Unicode.Scalar>], isInverted: Bool = false) {
        self.ranges = ranges.map { $0.lowerBound.value...$0.upperBound.value }
        self.isInverted = isInverted
    }

    mutating func include(_ set: RegexCharacterSet) { nested.append(set) }

    var inverted: RegexCharacterSet {
        var copy = self
        copy.isInverted.toggle()
        return copy
    }

    /// Whether `scalar` (or, when `caseInsensitive`, one of its case variants) is in the set.
    func contains(_ scalar: Unicode.Scalar, caseInsensitive: Bool) -> Bool {
        if caseInsensitive {
            let found = Self.caseVariants(of: scalar).contains { containsExactly($0) }
            return found != isInverted
        }
        return containsExactly(scalar) != isInverted
    }

    private func containsExactly(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        for range in ranges where range.contains(value) { return true }
        for set in nested where set.contains(scalar, caseInsensitive: false) { return true }
        return false
    }

    /// The scalar and its simple lower- and uppercase forms (one scalar each), as `RegExp`'s `i` flag folds.
    static func caseVariants(of scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        var variants = [scalar]
        let properties = scalar.properties
        for mapping in [properties.lowercaseMapping, properties.uppercaseMapping] {
            let scalars = mapping.unicodeScalars
            if scalars.count == 1, let only = scalars.first, !variants.contains(only) { variants.append(only) }
        }
        return variants
    }

    static let digits = RegexCharacterSet(ranges: ["0"..."9"])
    static let word = RegexCharacterSet(ranges: ["a"..."z", "A"..."Z", "0"..."9", "_"..."_"])
    /// JavaScript's `\s`: WhiteSpace and LineTerminator (ECMA-262 §22.2.2.9).
    static let space = RegexCharacterSet(ranges: [
        "\t"..."\r", " "..." ", "\u{A0}"..."\u{A0}", "\u{1680}"..."\u{1680}", "\u{2000}"..."\u{200A}",
        "\u{2028}"..."\u{2029}", "\u{202F}"..."\u{202F}", "\u{205F}"..."\u{205F}", "\u{3000}"..."\u{3000}",
        "\u{FEFF}"..."\u{FEFF}",
    ])

    static func isWord(_ scalar: Unicode.Scalar) -> Bool { word.containsExactly(scalar) }

    /// `.` matches anything but these (ECMA-262 LineTerminator).
    static func isLineTerminator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x0D, 0x2028, 0x2029: true
        default: false
        }
    }
}
