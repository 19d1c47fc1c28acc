#if canImport(Glibc)
    import Glibc
#endif

/// Character classes of RFC 9110 §5.6.2 and RFC 3986, as byte predicates.
package enum ByteClass {
    static let cr: UInt8 = 13
    static let lf: UInt8 = 10
    static let sp: UInt8 = 32
    static let htab: UInt8 = 9
    static let colon: UInt8 = 58

    /// `tchar` (RFC 9110 §5.6.2), the characters of a token such as a method or field name, as two bit sets:
    /// bytes 0–63 and 64–127 (DIGIT, ALPHA and ``!#$%&'*+-.^_`|~``; ByteClassTests checks them against the list).
    static let tcharLow: UInt64 = 0x03FF_6CFA_0000_0000
    static let tcharHigh: UInt64 = 0x57FF_FFFF_C7FF_FFFE

    /// Whether every byte is ASCII (below 0x80), eight bytes at a time.
    package static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        var high: UInt64 = 0
        var offset = 0
        while offset + 8 <= raw.count {
            high |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < raw.count {
            high |= UInt64(raw[offset])
            offset += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// Whether `b` is a `tchar`.
    @inline(__always) package static func isTchar(_ b: UInt8) -> Bool {
        b < 64 ? tcharLow >> UInt64(b) & 1 != 0 : b < 128 && tcharHigh >> UInt64(b - 64) & 1 != 0
    }

    /// field-vchar / SP / HTAB, including obs-text (RFC 9110 §5.5). Excludes CTLs, so a bare CR or NUL fails.
    @inline(__always) static func isFieldValueByte(_ b: UInt8) -> Bool {
        b == htab || (b >= 0x20 && b != 0x7F)
    }

    /// Visible ASCII, the only bytes allowed in a request target (RFC 9112 §3.2, RFC 3986 §2).
    @inline(__always) static func isTargetByte(_ b: UInt8) -> Bool { b > 0x20 && b < 0x7F }

    @inline(__always) static func lower(_ b: UInt8) -> UInt8 { (b >= 65 && b <= 90) ? b | 0x20 : b }

    @inline(__always) static func hexValue(_ b: UInt8) -> Int? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(b - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// Exact comparison of raw bytes with an ASCII literal.
    @inline(__always) static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount, let base = bytes.baseAddress else {
            return bytes.count == literal.utf8CodeUnitCount
        }
        return memcmp(base, literal.utf8Start, bytes.count) == 0
    }

    /// Case-insensitive comparison of raw bytes with a lowercase ASCII literal.
    static func equalsLowercase(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        let lit = literal.utf8Start
        for i in 0..<bytes.count where lower(bytes[i]) != lit[i] { return false }
        return true
    }
}
