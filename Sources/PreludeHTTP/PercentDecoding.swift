#if canImport(Glibc)
    import Glibc
#endif

/// Percent-decoding of request targets and query strings (RFC 3986 §2.1, WHATWG form encoding for `+`).
package enum PercentDecoding {
    /// Decodes `%XX` escapes (and `+` as space when asked). Nil when an escape is malformed,
    /// decodes to NUL, or the result is not valid UTF-8.
    package static func decode(_ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> String? {
        // One pass finds both whether there is an escape and whether the bytes are ASCII (taken as they are).
        var ascii = true
        for b in bytes {
            if b == UInt8(ascii: "%") || (plusAsSpace && b == UInt8(ascii: "+")) {
                return decodeEscapes(bytes, plusAsSpace)
            }
            if b >= 0x80 { ascii = false }
        }
        return ascii ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
    }

    private static func decodeEscapes(_ bytes: UnsafeBufferPointer<UInt8>, _ plusAsSpace: Bool) -> String? {
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

    /// `%`, `&`, `+` and `=` as a bit set over the bytes below 0x40.
    private static let querySpecials: UInt64 = 1 << 0x25 | 1 << 0x26 | 1 << 0x2B | 1 << 0x3D

    /// One piece of a query, `name[=value]`, as ``scanQuery(_:_:)`` finds it.
    package struct QueryPiece {
        /// The name's bytes, not decoded.
        package let name: UnsafeBufferPointer<UInt8>
        /// The value's bytes, not decoded; nil when the piece has no `=`.
        package let value: UnsafeBufferPointer<UInt8>?
        /// Whether the name needs decoding (an escape, `+`, or a byte that is not ASCII).
        package let nameNeedsDecoding: Bool
        /// Whether the value needs decoding.
        package let valueNeedsDecoding: Bool
    }

    /// Calls `body` with each non-empty piece of `a=1&b=2`, in order (empty pieces, `a=1&&b`, are skipped), until
    /// it returns false. Returns false when `body` did.
    @inline(__always)
    package static func scanQuery(
        _ bytes: UnsafeBufferPointer<UInt8>, _ body: (QueryPiece) -> Bool
    ) -> Bool {
        // One pass: each piece's `=` and whether its name or value needs decoding; plain ASCII, nearly every query,
        // is handed over as it is.
        guard let base = bytes.baseAddress else { return true }
        var start = 0
        var equals = -1
        var nameNeedsWork = false
        var valueNeedsWork = false
        var i = 0
        let count = bytes.count
        while true {
            // Letters and most punctuation (0x40–0x7F) and the bytes below 0x40 other than `%&+=` need nothing.
            while i < count {
                let byte = base[i]
                guard byte &- 0x40 < 0x40 || (byte < 0x40 && Self.querySpecials >> UInt64(byte) & 1 == 0) else { break }
                i += 1
            }
            let byte = i < count ? base[i] : UInt8(ascii: "&")
            if byte == UInt8(ascii: "&") {
                if i > start {
                    let nameEnd = equals >= 0 ? equals : i
                    let piece = QueryPiece(
                        name: UnsafeBufferPointer(start: base + start, count: nameEnd - start),
                        value: equals >= 0 ? UnsafeBufferPointer(start: base + equals + 1, count: i - equals - 1) : nil,
                        nameNeedsDecoding: nameNeedsWork, valueNeedsDecoding: valueNeedsWork)
                    guard body(piece) else { return false }
                }
                if i >= count { break }
                start = i + 1
                equals = -1
                nameNeedsWork = false
                valueNeedsWork = false
            } else if byte == UInt8(ascii: "=") && equals < 0 {
                equals = i
            } else if byte == UInt8(ascii: "%") || byte == UInt8(ascii: "+") || byte >= 0x80 {
                if equals < 0 { nameNeedsWork = true } else { valueNeedsWork = true }
            }
            i += 1
        }
        return true
    }

    /// Splits `a=1&b=2` into decoded pairs, in order. Empty pieces (`a=1&&b`) are skipped; a name without
    /// `=` gets an empty value. Nil when any piece has a malformed escape.
    package static func parseQuery(_ bytes: UnsafeBufferPointer<UInt8>) -> [(name: String, value: String)]? {
        var result: [(name: String, value: String)] = []
        var separators = 0
        for byte in bytes where byte == UInt8(ascii: "&") { separators += 1 }
        result.reserveCapacity(separators + 1)
        let complete = scanQuery(bytes) { piece in
            guard let name = text(piece.name, decoding: piece.nameNeedsDecoding) else { return false }
            var value = ""
            if let valueBytes = piece.value {
                guard let decoded = text(valueBytes, decoding: piece.valueNeedsDecoding) else { return false }
                value = decoded
            }
            result.append((name: name, value: value))
            return true
        }
        return complete ? result : nil
    }

    /// Whether every piece of the query decodes (what ``parseQuery(_:)`` checks), building only the pieces that
    /// need decoding: the parser checks a query this way and leaves decoding to the handler that reads it.
    package static func isValidQuery(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Without an escape, ASCII decodes as it is, piece by piece (`+` becomes a space): nearly every query, and
        // checked at memchr's speed instead of piece by piece.
        if let base = bytes.baseAddress, memchr(base, Int32(UInt8(ascii: "%")), bytes.count) == nil,
            ByteClass.isASCII(bytes)
        {
            return true
        }
        return scanQuery(bytes) { piece in
            if piece.nameNeedsDecoding && decode(piece.name, plusAsSpace: true) == nil { return false }
            if let value = piece.value, piece.valueNeedsDecoding, decode(value, plusAsSpace: true) == nil {
                return false
            }
            return true
        }
    }

    @inline(__always)
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, decoding: Bool) -> String? {
        decoding ? decode(bytes, plusAsSpace: true) : String(decoding: bytes, as: UTF8.self)
    }
}
