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
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .integer(let value): output.append(contentsOf: String(value).utf8)
        case .double(let value):
            // RFC 8259 §6: NaN and infinities are not JSON numbers; they can only come from code, not from parsing.
            guard value.isFinite else {
                output.append(contentsOf: "null".utf8)
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

    private static func newline(_ output: inout [UInt8], indent: Int) {
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    // RFC 8259 §7: quotation mark, reverse solidus and U+0000...U+001F must be escaped; everything else may be literal.
    private static func writeString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Fast path: most texts need no escape, so copy their UTF-8 in one go.
        let utf8 = string.utf8
        if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            output.append(contentsOf: utf8)
            output.append(UInt8(ascii: "\""))
            return
        }
        for byte in utf8 {
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
