/// A set of versions, written like npm ranges without the sugar: used to target OS and app versions.
///
/// Grammar (whitespace is spaces or tabs):
///
///     range      = set *( "||" set )                 ; OR
///     set        = comparator *( 1*WSP comparator )   ; AND
///     comparator = "*" / [ operator *WSP ] version
///     operator   = ">=" / "<=" / ">" / "<" / "="
///     version    = a ``SemanticVersion`` (`17`, `17.4`, `17.4.1`, `18.0.0-beta.2`)
///
/// A version without operator means `=`. Comparison is semver precedence with missing components 0, so
/// `=17.4` (or `17.4`) matches `17.4.0` only, not `17.4.1` — write `>=17.4 <17.5` for "any 17.4.x";
/// and `>=18` excludes `18.0.0-beta.2`, which precedes `18.0.0`. `*` matches every version.
/// Examples: `>=15`, `>=17.2 <18`, `<14 || >=17`, `*`.
///
/// Encoded and decoded as a single JSON string, its canonical ``description`` (`>=17.2 <18`).
public struct VersionRange: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A comparison operator.
    public enum Operator: String, Hashable, Sendable, CaseIterable {
        case greaterThanOrEqual = ">="
        case lessThanOrEqual = "<="
        case greaterThan = ">"
        case lessThan = "<"
        case equal = "="
    }

    /// One comparison: an operator and a version, or `*` (any version).
    public enum Comparator: Hashable, Sendable, CustomStringConvertible {
        /// Matches every version.
        case any
        /// Matches versions that compare to `version` as `operator` says.
        case compare(Operator, SemanticVersion)

        /// Whether `version` satisfies this comparator.
        public func matches(_ version: SemanticVersion) -> Bool {
            switch self {
            case .any: return true
            case .compare(.greaterThanOrEqual, let bound): return version >= bound
            case .compare(.lessThanOrEqual, let bound): return version <= bound
            case .compare(.greaterThan, let bound): return version > bound
            case .compare(.lessThan, let bound): return version < bound
            case .compare(.equal, let bound): return version == bound
            }
        }

        /// `*` or the operator followed by the version, e.g. `>=17.2`.
        public var description: String {
            switch self {
            case .any: return "*"
            case .compare(let op, let version): return op.rawValue + version.description
            }
        }
    }

    /// The alternatives (OR); each is a list of comparators that must all match (AND).
    public let alternatives: [[Comparator]]

    /// The range that contains every version.
    public static let any = VersionRange(alternatives: [[.any]])

    private init(alternatives: [[Comparator]]) {
        self.alternatives = alternatives
    }

    /// Parses a range; `nil` when malformed (empty, an empty alternative, an unknown operator, a bad version).
    public init?(_ string: String) {
        var alternatives: [[Comparator]] = []
        for alternative in Self.split(string, on: "||") {
            var comparators: [Comparator] = []
            var pending: Operator?
            for token in alternative.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                if let op = pending {
                    guard let version = SemanticVersion(String(token)) else { return nil }
                    comparators.append(.compare(op, version))
                    pending = nil
                } else if token == "*" {
                    comparators.append(.any)
                } else if let op = Self.operatorOnly(token) {
                    pending = op  // ">= 17": the version is the next token.
                } else {
                    let (op, rest) = Self.splitOperator(token)
                    guard let version = SemanticVersion(String(rest)) else { return nil }
                    comparators.append(.compare(op, version))
                }
            }
            guard pending == nil, !comparators.isEmpty else { return nil }
            alternatives.append(comparators)
        }
        guard !alternatives.isEmpty else { return nil }
        self.alternatives = alternatives
    }

    /// Whether `version` is in the range: some alternative has all its comparators matching.
    public func contains(_ version: SemanticVersion) -> Bool {
        alternatives.contains { $0.allSatisfy { $0.matches(version) } }
    }

    /// The canonical form: comparators joined by a space, alternatives by ` || `.
    public var description: String {
        alternatives.map { $0.map(\.description).joined(separator: " ") }.joined(separator: " || ")
    }

    // MARK: - Codable

    /// Decodes a range from a string; a malformed one is a `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let range = VersionRange(text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription:
                    "\"\(text)\" is not a version range such as \">=17\", \">=17.2 <18\" or \"<14 || >=17\"")
        }
        self = range
    }

    /// Encodes the canonical form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    // MARK: - Parsing

    private static func split(_ string: String, on separator: String) -> [Substring] {
        var parts: [Substring] = []
        var rest = Substring(string)
        while let found = rest.firstRange(of: separator) {
            parts.append(rest[..<found.lowerBound])
            rest = rest[found.upperBound...]
        }
        parts.append(rest)
        return parts
    }

    private static func operatorOnly(_ token: Substring) -> Operator? {
        Operator(rawValue: String(token))
    }

    private static func splitOperator(_ token: Substring) -> (Operator, Substring) {
        for op in [Operator.greaterThanOrEqual, .lessThanOrEqual, .greaterThan, .lessThan, .equal]
        where token.hasPrefix(op.rawValue) {
            return (op, token.dropFirst(op.rawValue.count))
        }
        return (.equal, token)
    }
}
