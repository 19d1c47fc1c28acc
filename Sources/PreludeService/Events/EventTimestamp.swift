import PreludeCore

/// Parses event times: RFC 3339 `date-time` strings (RFC 3339 §5.6) or integer milliseconds since the epoch.
package enum EventTimestamp {
    /// Milliseconds since the Unix epoch of an RFC 3339 date-time such as `2026-11-22T12:30:00Z`,
    /// `2026-11-22T13:30:00.250+01:00`, read by the core's one parser (``RFC3339``); events also take a space
    /// between date and time (§5.6 NOTE), as they always have from apps in the field. Nil when malformed or out of
    /// range.
    package static func parseRFC3339(_ text: String) -> Int64? {
        RFC3339.milliseconds(text, allowingSpaceSeparator: true)
    }

    /// ``parseRFC3339(_:)`` over UTF-8 bytes.
    package static func parseRFC3339(bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        RFC3339.milliseconds(bytes: bytes, allowingSpaceSeparator: true)
    }
}
