/// A strong entity tag (RFC 9110 §8.8.3) and the conditional-request checks that use it (RFC 9110 §13).
public struct ETag: Sendable, Hashable, CustomStringConvertible {
    /// The opaque tag without quotes; only etagc characters (RFC 9110 §8.8.3: %x21 / %x23-7E / obs-text).
    public let opaqueTag: String

    /// Creates a tag; traps on characters an entity tag cannot hold (a programmer error).
    public init(_ opaqueTag: String) {
        precondition(
            opaqueTag.utf8.allSatisfy { $0 == 0x21 || ($0 >= 0x23 && $0 != 0x7F) }, "invalid entity-tag characters")
        self.opaqueTag = opaqueTag
    }

    /// A tag derived from content: 64-bit FNV-1a of the bytes plus their length, in hex. Identical bytes
    /// give identical tags on every machine and restart.
    public static func strong(for bytes: [UInt8]) -> ETag {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            hash ^= UInt64(b)
            hash &*= 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return ETag(String(repeating: "0", count: 16 - hex.count) + hex + "-" + String(bytes.count, radix: 16))
    }

    /// The header form, with quotes: `"abc"`.
    public var headerValue: String { "\"" + opaqueTag + "\"" }

    public var description: String { headerValue }

    /// Parses an `If-Match` / `If-None-Match` value into its tags. Returns nil for `*`.
    /// Weak tags (`W/"x"`) are returned with `weak` set.
    public static func parseList(_ value: String) -> (tags: [(tag: String, weak: Bool)], isWildcard: Bool) {
        let trimmed = value.trimmingOWS()
        if trimmed == "*" { return ([], true) }
        var tags: [(tag: String, weak: Bool)] = []
        var rest = Substring(trimmed)
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
            if rest.isEmpty { break }
            var weak = false
            if rest.hasPrefix("W/") {
                weak = true
                rest = rest.dropFirst(2)
            }
            guard rest.first == "\"" else {
                // Not an entity-tag: skip to the next comma (lenient, but such an element never matches).
                rest = rest.drop { $0 != "," }
                continue
            }
            rest = rest.dropFirst()
            guard let close = rest.firstIndex(of: "\"") else { break }
            tags.append((String(rest[..<close]), weak))
            rest = rest[rest.index(after: close)...]
        }
        return (tags, false)
    }

    /// RFC 9110 §13.1.2: If-None-Match uses the weak comparison; `*` matches any current representation.
    public func matchesIfNoneMatch(_ headerValue: String) -> Bool {
        let list = Self.parseList(headerValue)
        return list.isWildcard || list.tags.contains { $0.tag == opaqueTag }
    }

    /// RFC 9110 §13.1.1: If-Match uses the strong comparison, so a weak tag never matches.
    public func matchesIfMatch(_ headerValue: String) -> Bool {
        let list = Self.parseList(headerValue)
        return list.isWildcard || list.tags.contains { !$0.weak && $0.tag == opaqueTag }
    }
}
