extension JSONValue {
    /// `text` as a JSON string literal (RFC 8259 §7), quotes included: the one JSON string escaper for
    /// the JSON it writes as text rather than as a ``JSONValue`` (log lines, the request log, JSON parameters of
    /// SQL statements). It escapes exactly as PreludeCore's writer does, which it calls for texts that need it.
    package static func quoted(_ text: String) -> String {
        // Only `"`, `\` and control characters below U+0020 must be escaped; most values have none, and then one
        // copy beats building bytes (the request log quotes four values per request).
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 8)
        writeString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
