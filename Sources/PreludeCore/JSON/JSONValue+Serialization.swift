extension JSONValue {
    /// How `serialized` lays out the text.
    public enum Layout: Sendable, Hashable {
        /// No whitespace at all.
        case compact
        /// Two-space indentation, one member or element per line, `": "` after names.
        case pretty
    }

    /// The JSON text of this value; object members in insertion order, non-ASCII written as UTF-8.
    public func serialized(_ layout: Layout = .compact) -> String {
        String(decoding: serializedBytes(layout), as: UTF8.self)
    }

    /// The UTF-8 bytes of `serialized(layout)`, without an intermediate `String`.
    public func serializedBytes(_ layout: Layout = .compact) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(to: &output, layout: layout, indent: 0)
        if layout == .pretty { output.append(0x0A) }
        return output
    }

    private func write(to output: inout [UInt8], layout: Layout, indent: Int) {
        switch self {
        case .null: JSONValue.writeLiteral("null", to: &output)
        case .bool(let value): JSONValue.writeLiteral(value ? "true" : "false", to: &output)
        case .integer(let value): JSONValue.writeInteger(value, to: &output)
        case .double(let value):
            // RFC 8259 §6: NaN and infinities are not JSON numbers; they can only come from code, not from parsing.
            guard value.isFinite else {
                JSONValue.writeLiteral("null", to: &output)
                return
            }
            output.append(contentsOf: value.description.utf8)
        case .string(let value): JSONValue.writeString(value, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else {
                output.append(contentsOf: "[]".utf8)
                return
            }
            output.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                if layout == .pretty { JSONValue.newline(&output, indent: indent + 1) }
                element.write(to: &output, layout: layout, indent: indent + 1)
            }
            if layout == .pretty { JSONValue.newline(&output, indent: indent) }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.isEmpty else {
                output.append(contentsOf: "{}".utf8)
                return
            }
            output.append(UInt8(ascii: "{"))
            var first = true
            for (key, value) in object {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                if layout == .pretty { JSONValue.newline(&output, indent: indent + 1) }
                JSONValue.writeString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                if layout == .pretty { output.append(UInt8(ascii: " ")) }
                value.write(to: &output, layout: layout, indent: indent + 1)
            }
            if layout == .pretty { JSONValue.newline(&output, indent: indent) }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Whether `bytes` holds a quotation mark, a reverse solidus or a control character, eight bytes at a time.
    private static func needsEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return false }
        // SWAR tests (the classic "has zero byte" / "has byte less than" word tricks): a high bit ends up set
        // exactly when some byte of the word is 0x22, 0x5C or below 0x20.
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let found =
                ((word &- ones &* 0x20) & ~word) | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
            if found & highBits != 0 { return true }
            offset += 8
        }
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
            offset += 1
        }
        return false
    }

    private static func newline(_ output: inout [UInt8], indent: Int) {
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    /// Appends the compact serialization of this value to `output` (what `serializedBytes()` returns), for
    /// encoders that write the fixed parts of a document themselves.
    package func writeCompact(to output: inout [UInt8]) {
        write(to: &output, layout: .compact, indent: 0)
    }

    /// Appends the decimal digits of `value`, as `String(value)` spells it, without making the string.
    package static func writeInteger(_ value: Int, to output: inout [UInt8]) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // 20 digits hold UInt64.max; fill from the right, then copy the used part.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
    }

    /// Appends the UTF-8 bytes of a literal (JSON punctuation and member names known to need no escape).
    package static func writeLiteral(_ literal: StaticString, to output: inout [UInt8]) {
        literal.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    /// Appends `string` as a JSON string, quotes included.
    package static func writeString(_ string: String, to output: inout [UInt8]) {
        // RFC 8259 §7: quotation mark, reverse solidus and U+0000...U+001F must be escaped; the rest may be literal.
        output.append(UInt8(ascii: "\""))
        // Fast path: most texts need no escape, so copy their UTF-8 in one go (native strings are contiguous).
        let copied = string.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard !needsEscape(bytes) else { return false }
            output.append(contentsOf: bytes)
            return true
        }
        if copied == true {
            output.append(UInt8(ascii: "\""))
            return
        }
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: "\\\\".utf8)
            case 0x0A: output.append(contentsOf: "\\n".utf8)
            case 0x0D: output.append(contentsOf: "\\r".utf8)
            case 0x09: output.append(contentsOf: "\\t".utf8)
            case 0x08: output.append(contentsOf: "\\b".utf8)
            case 0x0C: output.append(contentsOf: "\\f".utf8)
            case 0..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                output.append(contentsOf: "\\u00".utf8)
                output.append(digits[Int(byte >> 4)])
                output.append(digits[Int(byte & 0xF)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
