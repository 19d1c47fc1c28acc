/// One value as SQLite stores it: the five storage classes of https://sqlite.org/datatype3.html.
package enum SQLValue: Sendable, Hashable {
    /// SQL NULL.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// An IEEE 754 double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob([UInt8])

    /// The storage class name, used in decoding errors (never the value itself, which may be secret).
    package var storageClass: String {
        switch self {
        case .null: "null"
        case .integer: "integer"
        case .real: "real"
        case .text: "text"
        case .blob: "blob"
        }
    }
}

extension SQLValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByBooleanLiteral
{
    /// `nil` is SQL NULL.
    package init(nilLiteral: ()) { self = .null }
    /// An integer literal.
    package init(integerLiteral value: Int64) { self = .integer(value) }
    /// A floating-point literal.
    package init(floatLiteral value: Double) { self = .real(value) }
    /// A string literal.
    package init(stringLiteral value: String) { self = .text(value) }
    /// A Boolean literal, stored as 0 or 1 (SQLite has no Boolean class).
    package init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}
