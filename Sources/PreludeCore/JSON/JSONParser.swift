/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// Strict means: no comments, no trailing commas, no leading zeros, no NaN/Infinity, no single quotes,
/// no unescaped control characters, no lone surrogates, valid UTF-8 only, and no duplicate member names
/// (RFC 8259 §4 says names SHOULD be unique; a policy edited by hand with a duplicate key is a mistake
/// we would rather report than silently resolve). A leading UTF-8 byte order mark is skipped (§8.1 allows it).
public struct JSONParser: Sendable {
    /// The default maximum nesting depth of arrays and objects.
    public static let defaultMaxDepth = 256

    /// The maximum nesting depth; deeper input is refused instead of exhausting the stack.
    public var maxDepth: Int

    /// A parser refusing input nested deeper than `maxDepth`.
    public init(maxDepth: Int = JSONParser.defaultMaxDepth) {
        self.maxDepth = maxDepth
    }

    /// Parses `text` as one JSON value.
    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var text = text
        // withUTF8 is untyped-rethrows, so carry the typed error out in a Result.
        let result = text.withUTF8 { buffer in Result { () throws(JSONParseError) in try parse(bytes: buffer) } }
        return try result.get()
    }

    /// Parses UTF-8 `bytes` as one JSON value.
    public func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) in try parse(bytes: buffer) }
        }
        return try result.get()
    }

    /// Parses UTF-8 bytes in `buffer` as one JSON value.
    public func parse(bytes buffer: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var reader = Reader(bytes: buffer, maxDepth: maxDepth)
        return try reader.parseDocument()
    }
}

extension JSONValue {
    /// Parses `text` strictly (see `JSONParser`).
    public init(parsing text: String) throws(JSONParseError) {
        self = try JSONParser().parse(text)
    }

    /// Parses UTF-8 `bytes` strictly (see `JSONParser`).
    public init(parsing bytes: [UInt8]) throws(JSONParseError) {
        self = try JSONParser().parse(bytes)
    }
}

private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0
    var depth = 0
    var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        // RFC 8259 §8.1: a parser MAY ignore a byte order mark.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        guard index < bytes.count else {
            throw error(.emptyInput, "The input holds no JSON value", at: index)
        }
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else {
            throw error(.trailingCharacters, "Unexpected \(describe(index)) after the JSON value", at: index)
        }
        return value
    }

    // RFC 8259 §2: insignificant whitespace is space, tab, line feed, carriage return.
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else {
            throw error(.unexpectedEndOfInput, "Unexpected end of input, expected a value", at: index)
        }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default:
            throw error(.unexpectedCharacter, "Unexpected \(describe(index)), expected a value", at: index)
        }
    }

    mutating func parseLiteral(_ word: StaticString, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let start = index
        let length = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { literal in
            guard start + length <= bytes.count else { return false }
            for offset in 0..<length where bytes[start + offset] != literal[offset] { return false }
            return true
        }
        guard matches else {
            throw error(.invalidLiteral, "Invalid literal, expected '\(word)'", at: start)
        }
        index += length
        return value
    }

    mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > maxDepth {
            throw error(.tooDeeplyNested, "Arrays and objects nest deeper than \(maxDepth) levels", at: index)
        }
    }

    mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else {
                throw error(
                    .unexpectedEndOfInput, "Unexpected end of input inside an array, expected ',' or ']'", at: index)
            }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    throw error(.unexpectedCharacter, "Trailing comma before ']'", at: index)
                }
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(elements)
            default:
                throw error(
                    .unexpectedCharacter, "Unexpected \(describe(index)) in an array, expected ',' or ']'", at: index)
            }
        }
    }

    mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var object = JSONObject()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else {
                throw error(
                    .unexpectedEndOfInput, "Unexpected end of input inside an object, expected a member name", at: index
                )
            }
            guard bytes[index] == UInt8(ascii: "\"") else {
                let hint =
                    bytes[index] == UInt8(ascii: "}")
                    ? "Trailing comma before '}'"
                    : "Unexpected \(describe(index)), expected a member name in double quotes"
                throw error(.unexpectedCharacter, hint, at: index)
            }
            let keyOffset = index
            let key = try parseString()
            if object.contains(key) {
                throw error(.duplicateKey, "Duplicate member name \"\(key)\"", at: keyOffset)
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                if index >= bytes.count {
                    throw error(.unexpectedEndOfInput, "Unexpected end of input, expected ':'", at: index)
                }
                throw error(
                    .unexpectedCharacter, "Unexpected \(describe(index)), expected ':' after the member name", at: index
                )
            }
            index += 1
            skipWhitespace()
            // The duplicate check above already looked the name up: append without a second lookup.
            object.appendNew(key, try parseValue())
            skipWhitespace()
            guard index < bytes.count else {
                throw error(
                    .unexpectedEndOfInput, "Unexpected end of input inside an object, expected ',' or '}'", at: index)
            }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(object)
            default:
                throw error(
                    .unexpectedCharacter, "Unexpected \(describe(index)) in an object, expected ',' or '}'", at: index)
            }
        }
    }

    // RFC 8259 §7: strings; escapes \" \\ \/ \b \f \n \r \t \uXXXX; control characters must be escaped.
    mutating func parseString() throws(JSONParseError) -> String {
        let start = index
        index += 1
        // Fast path: no escapes, so the bytes between the quotes are the string.
        var scan = index
        while scan < bytes.count {
            let byte = bytes[scan]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[index..<scan])
                guard let string = String(validating: slice, as: UTF8.self) else {
                    throw error(
                        .invalidUTF8, "The string holds bytes that are not valid UTF-8",
                        at: firstInvalidUTF8(from: index, to: scan))
                }
                index = scan + 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 {
                throw error(
                    .unescapedControlCharacter, "Unescaped control character 0x\(hex(byte)) in a string", at: scan)
            }
            scan += 1
        }
        guard scan < bytes.count else {
            throw error(.unexpectedEndOfInput, "Unterminated string", at: start)
        }
        // Slow path: copy, decoding escapes.
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<scan]))
        let contentStart = index
        index = scan
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                guard let string = String(validating: scratch, as: UTF8.self) else {
                    throw error(
                        .invalidUTF8, "The string holds bytes that are not valid UTF-8",
                        at: firstInvalidUTF8(from: contentStart, to: index))
                }
                index += 1
                return string
            case UInt8(ascii: "\\"):
                try parseEscape()
            case 0..<0x20:
                throw error(
                    .unescapedControlCharacter, "Unescaped control character 0x\(hex(byte)) in a string", at: index)
            default:
                scratch.append(byte)
                index += 1
            }
        }
        throw error(.unexpectedEndOfInput, "Unterminated string", at: start)
    }

    mutating func parseEscape() throws(JSONParseError) {
        let escapeStart = index
        index += 1
        guard index < bytes.count else {
            throw error(.unexpectedEndOfInput, "Unterminated escape sequence", at: escapeStart)
        }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): scratch.append(0x22)
        case UInt8(ascii: "\\"): scratch.append(0x5C)
        case UInt8(ascii: "/"): scratch.append(0x2F)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4(escapeStart: escapeStart)
            if (0xD800...0xDBFF).contains(scalar) {
                // RFC 8259 §7: a character outside the BMP is a surrogate pair, "\uD834\uDD1E".
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else {
                    throw error(
                        .loneSurrogate, "High surrogate \\u\(hex16(scalar)) is not followed by a low surrogate",
                        at: escapeStart)
                }
                let lowStart = index
                index += 2
                let low = try parseHex4(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error(
                        .loneSurrogate,
                        "High surrogate \\u\(hex16(scalar)) is followed by \\u\(hex16(low)), not a low surrogate",
                        at: escapeStart)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error(
                    .loneSurrogate, "Low surrogate \\u\(hex16(scalar)) without a preceding high surrogate",
                    at: escapeStart)
            }
            appendUTF8(scalar)
        default:
            throw error(.invalidEscape, "Invalid escape sequence '\\\(printable(byte))'", at: escapeStart)
        }
    }

    mutating func parseHex4(escapeStart: Int) throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else {
            throw error(.invalidUnicodeEscape, "A \\u escape needs four hexadecimal digits", at: escapeStart)
        }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default:
                throw error(.invalidUnicodeEscape, "A \\u escape needs four hexadecimal digits", at: escapeStart)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | (scalar >> 6)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | (scalar >> 12)))
            scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            scratch.append(UInt8(0xF0 | (scalar >> 18)))
            scratch.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    // RFC 8259 §6: number = [ minus ] int [ frac ] [ exp ]; int = zero / ( digit1-9 *DIGIT ).
    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw error(.invalidNumber, "A '-' must be followed by a digit", at: start)
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw error(.invalidNumber, "Numbers must not have leading zeros", at: start)
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error(.invalidNumber, "A decimal point must be followed by a digit", at: start)
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error(.invalidNumber, "An exponent must have at least one digit", at: start)
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let integer = Int(text) {
            return .integer(integer)
        }
        guard let double = Double(text), double.isFinite else {
            throw error(.numberOutOfRange, "The number \(text) is outside the range of a double", at: start)
        }
        return .double(double)
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    func firstInvalidUTF8(from start: Int, to end: Int) -> Int {
        var position = start
        while position < end {
            let byte = bytes[position]
            let length: Int
            switch byte {
            case 0..<0x80: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return position
            }
            guard position + length <= end,
                String(validating: UnsafeBufferPointer(rebasing: bytes[position..<position + length]), as: UTF8.self)
                    != nil
            else { return position }
            position += length
        }
        return start
    }

    func describe(_ offset: Int) -> String {
        guard offset < bytes.count else { return "end of input" }
        return "character '\(printable(bytes[offset]))'"
    }

    func printable(_ byte: UInt8) -> String {
        (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "0x\(hex(byte))"
    }

    func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    func hex16(_ value: UInt32) -> String {
        hex(UInt8(value >> 8)) + hex(UInt8(value & 0xFF))
    }

    func error(_ reason: JSONParseError.Reason, _ message: String, at offset: Int) -> JSONParseError {
        var line = 1
        var lineStart = 0
        for position in 0..<min(offset, bytes.count) where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        return JSONParseError(
            reason: reason, offset: offset, line: line, column: offset - lineStart + 1, message: message)
    }
}
