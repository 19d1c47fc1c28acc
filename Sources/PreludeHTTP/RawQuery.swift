#if canImport(Glibc)
    import Glibc
#endif

/// A request's query as the client sent it (the bytes after `?`, not decoded), read in place: the pieces' names and
/// values as byte views, one piece found by name, or the decoded pairs when a handler wants strings.
///
/// The parser has checked that every piece decodes (``PercentDecoding/isValidQuery(_:)``), so ``pairs`` always
/// succeeds for a parsed request. A handler that reads the raw pieces pays for no strings: the resolved-policy route
/// reads plain queries (no escape, no `+`) this way and decodes only what is not plain.
package struct RawQuery: Sendable, Hashable {
    /// The query text as sent, without the `?`.
    package let text: String

    /// The query `text` (not decoded).
    package init(_ text: String) { self.text = text }

    /// The query whose decoded pairs are `pairs`: each name and value percent-encoded (every byte but the
    /// unreserved ones, RFC 3986 §2.3), joined with `&`. ``pairs`` gives them back.
    package init(encoding pairs: [(name: String, value: String)]) {
        var bytes: [UInt8] = []
        for (index, pair) in pairs.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "&")) }
            Self.percentEncode(pair.name, into: &bytes)
            bytes.append(UInt8(ascii: "="))
            Self.percentEncode(pair.value, into: &bytes)
        }
        text = String(decoding: bytes, as: UTF8.self)
    }

    /// One piece of the query, `name[=value]`, as sent: views into the query's bytes, valid inside the call that
    /// hands it over.
    package typealias Piece = PercentDecoding.QueryPiece

    /// The decoded pairs, in order (`+` as space; a piece without `=` has an empty value; empty pieces skipped).
    /// Empty when a piece does not decode, which a parsed request's query never has.
    package var pairs: [(name: String, value: String)] {
        withBytes { PercentDecoding.parseQuery($0) } ?? []
    }

    /// Calls `body` with the query's bytes.
    package func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        var text = text
        return try text.withUTF8(body)
    }

    /// Calls `body` with each non-empty piece, in order, until it returns false; returns false when it did.
    package func forEachPiece(_ body: (Piece) -> Bool) -> Bool {
        withBytes { PercentDecoding.scanQuery($0, body) }
    }

    /// Whether raw bytes (a piece's name, say) are exactly the ASCII `literal`.
    @inline(__always)
    package static func bytes(_ bytes: UnsafeBufferPointer<UInt8>, equal literal: StaticString) -> Bool {
        ByteClass.equals(bytes, literal)
    }

    /// Where the value of the piece named exactly `name` is, in a query's raw bytes.
    package enum ValueLocation: Sendable, Equatable {
        /// No piece is named `name`.
        case absent
        /// One piece `name=value`; the value's bytes are at this range (possibly empty).
        case at(Range<Int>)
        /// `name` more than once, or without `=`: not a plain query, for the caller's long way to report.
        case ambiguous
    }

    /// Finds the one piece `name=…` in `bytes` (a query's raw bytes) at `memchr`'s speed, without visiting the
    /// other pieces' bytes one by one. Names are compared as sent (a name spelled with an escape is not `name`).
    package static func valueLocation(of name: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> ValueLocation {
        guard let base = bytes.baseAddress else { return .absent }
        let nameLength = name.utf8CodeUnitCount
        var found: Range<Int>?
        var start = 0
        while start <= bytes.count {
            let end =
                memchr(base + start, 0x26, bytes.count - start).map {
                    UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - base
                }
                ?? bytes.count
            let length = end - start
            if length >= nameLength && memcmp(base + start, name.utf8Start, nameLength) == 0 {
                // `name` exactly, then `=` or the piece's end; a longer name sharing the prefix counts as a repeat
                // once `name` was seen (conservative: the long way decides).
                if length == nameLength || found != nil { return .ambiguous }
                if base[start + nameLength] == UInt8(ascii: "=") { found = (start + nameLength + 1)..<end }
            }
            start = end + 1
        }
        return found.map { .at($0) } ?? .absent
    }

    private static func percentEncode(_ text: String, into bytes: inout [UInt8]) {
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            }
        }
    }
}
