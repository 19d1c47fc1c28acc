/// The type of an attribute a policy declares in its top-level `attributes` (documentation for ops and the linter;
/// on the wire versions and dates are strings).
public enum AttributeKind: String, Sendable, Hashable, CaseIterable {
    /// Text.
    case string
    /// A number.
    case number
    /// `true` or `false`.
    case boolean
    /// A version string, compared with `$vgt` and the other version operators.
    case version
    /// An RFC 3339 instant in UTC, compared as a string.
    case date
}
