/// Percent-decoding of request targets and query strings (RFC 3986 §2.1, WHATWG form encoding for `+`).
package enum PercentDecoding {
    /// Decodes `%XX` escapes (and `+` as space when asked). Nil when an escape is malformed,
    /// decodes to NUL, or the result is not valid UTF-8.
    package static func decode(_ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> String? {
        var needsWork = false
        for b in bytes where b == UInt8(ascii: "%") || (plusAsSpace && b == UInt8(ascii: "+")) {
            needsWork = true
            break
        }
        if !needsWork { return validUTF8(bytes) }
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, let hi = ByteClass.hexValue(bytes[i + 1]),
                    let lo = ByteClass.hexValue(bytes[i + 2])
                else { return nil }
                let value = UInt8(hi << 4 | lo)
                // A decoded NUL has no business in a path or parameter and confuses C consumers.
                if value == 0 { return nil }
                out.append(value)
                i += 3
            } else {
                out.append(plusAsSpace && b == UInt8(ascii: "+") ? UInt8(ascii: " ") : b)
                i += 1
            }
        }
        return out.withUnsafeBufferPointer(validUTF8)
    }

    /// The bytes as a String when they are valid UTF-8. ASCII, nearly every query and path, is checked with one
    /// loop and taken as is; only other text goes through the standard library's validating initializer.
    private static func validUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var ascii = true
        for byte in bytes where byte >= 0x80 {
            ascii = false
            break
        }
        return ascii ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
    }

    /// Decodes a string (convenience for callers outside the parser).
    package static func decode(_ string: String, plusAsSpace: Bool) -> String? {
        var s = string
        return s.withUTF8 { decode($0, plusAsSpace: plusAsSpace) }
    }

    /// Splits `a=1&b=2` into decoded pairs, in order. Empty pieces (`a=1&&b`) are skipped; a name without
    /// `=` gets an empty value. Nil when any piece has a malformed escape.
    package static func parseQuery(_ bytes: UnsafeBufferPointer<UInt8>) -> [(name: String, value: String)]? {
        var result: [(name: String, value: String)] = []
        var separators = 0
        for byte in bytes where byte == UInt8(ascii: "&") { separators += 1 }
        result.reserveCapacity(separators + 1)
        var start = 0
        var i = 0
        while i <= bytes.count {
            if i == bytes.count || bytes[i] == UInt8(ascii: "&") {
                if i > start {
                    let piece = UnsafeBufferPointer(rebasing: bytes[start..<i])
                    var eq = piece.count
                    for j in 0..<piece.count where piece[j] == UInt8(ascii: "=") {
                        eq = j
                        break
                    }
                    guard let name = decode(UnsafeBufferPointer(rebasing: piece[0..<eq]), plusAsSpace: true) else {
                        return nil
                    }
                    let valueBytes =
                        eq < piece.count
                        ? UnsafeBufferPointer(rebasing: piece[(eq + 1)...])
                        : UnsafeBufferPointer(rebasing: piece[0..<0])
                    guard let value = decode(valueBytes, plusAsSpace: true) else { return nil }
                    result.append((name: name, value: value))
                }
                start = i + 1
            }
            i += 1
        }
        return result
    }
}
