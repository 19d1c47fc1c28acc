/// PostgreSQL's text form of a one-dimensional array (`{"a","b",NULL}`), for sending many values as one parameter
/// (`?::text[]`, then `unnest`): a batch of rows becomes one statement and one round trip.
///
/// Every element is quoted, so commas, braces, spaces and the word `NULL` stay data; inside the quotes only `"` and
/// `\` are escaped with a backslash (PostgreSQL's documentation, "Arrays", section 8.15.6 "Array Input and Output
/// Syntax"). A nil element is the unquoted `NULL`.
package enum PostgresArrayLiteral {
    /// The array of `values` (nil: SQL NULL), for a `text[]` parameter.
    package static func text(_ values: [String?]) -> String {
        var literal = "{"
        literal.reserveCapacity(2 + values.count * 24)
        for (index, value) in values.enumerated() {
            if index > 0 { literal.append(",") }
            guard let value else {
                literal.append("NULL")
                continue
            }
            literal.append("\"")
            for character in value.unicodeScalars {
                if character == "\"" || character == "\\" { literal.append("\\") }
                literal.unicodeScalars.append(character)
            }
            literal.append("\"")
        }
        literal.append("}")
        return literal
    }

    /// The array of `values`, for a `text[]` parameter.
    package static func text(_ values: [String]) -> String { text(values.map { Optional($0) }) }

    /// The array of `values` (nil: SQL NULL), for a `bigint[]` parameter.
    package static func integers(_ values: [Int64?]) -> String {
        "{" + values.map { $0.map(String.init) ?? "NULL" }.joined(separator: ",") + "}"
    }

    /// The array of `values`, for a `bigint[]` parameter.
    package static func integers(_ values: [Int64]) -> String { integers(values.map { Optional($0) }) }
}
