/// Rewrites the store's statements, written with SQLite's placeholders, into PostgreSQL's.
///
/// `?NNN` becomes `$NNN` and a bare `?` the next number after the largest so far (SQLite's rule). Quoted strings,
/// quoted identifiers and comments are copied as they are. Everything else of a statement must already be valid
/// in both dialects; where the two differ, the store asks ``Connection/engine`` and writes each its own.
package enum PostgresDialect {
    /// A statement ready for PostgreSQL.
    package struct Translation: Sendable, Equatable {
        /// The statement with `$n` placeholders.
        package let text: String
        /// How many parameters it takes (the largest placeholder number).
        package let parameterCount: Int
    }

    /// Translates one statement's placeholders.
    package static func translate(_ sql: String) -> Translation {
        let bytes = Array(sql.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 8)
        var highest = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                let end = closingQuote(bytes, from: index)
                output.append(contentsOf: bytes[index..<end])
                index = end
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                var end = index
                while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
                output.append(contentsOf: bytes[index..<end])
                index = end
            case UInt8(ascii: "?"):
                var end = index + 1
                var number = 0
                while end < bytes.count, let digit = digitValue(bytes[end]) {
                    number = number * 10 + digit
                    end += 1
                }
                if end == index + 1 { number = highest + 1 }
                highest = max(highest, number)
                output.append(contentsOf: Array("$\(number)".utf8))
                index = end
            default:
                output.append(byte)
                index += 1
            }
        }
        return Translation(text: String(decoding: output, as: UTF8.self), parameterCount: highest)
    }

    /// The index just past the quote that closes the one at `start` (a doubled quote is part of the text).
    private static func closingQuote(_ bytes: [UInt8], from start: Int) -> Int {
        let quote = bytes[start]
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == quote {
                if index + 1 < bytes.count && bytes[index + 1] == quote {
                    index += 2
                    continue
                }
                return index + 1
            }
            index += 1
        }
        return bytes.count
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }
}
