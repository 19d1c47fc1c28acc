import PreludeCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Times in the admin API: stored as milliseconds since the Unix epoch, shown in RFC 3339 (UTC) by the core's one
/// writer and read by its one parser (``RFC3339``).
package enum AdminTime {
    /// `2026-11-22T12:13:41.002Z`.
    package static func iso8601(_ milliseconds: Int64) -> String { RFC3339.string(milliseconds: milliseconds) }

    /// `2026-11-22T12:13:41.002Z`, or JSON null for no time.
    package static func json(_ milliseconds: Int64?) -> JSONValue {
        milliseconds.map { .string(RFC3339.string(milliseconds: $0)) } ?? .null
    }

    /// Milliseconds since the epoch of a `Date`.
    package static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// Parses a filter's time: an RFC 3339 date-time (`2026-11-22T12:00:00Z`, fractional seconds allowed), an RFC 3339
    /// full-date (`2026-11-22`, midnight UTC) or integer milliseconds since the epoch. Nil when it is none of these:
    /// a date followed by anything else (`2026-11-22T12:00:00`, no zone) is refused, never read as the date alone.
    package static func parse(_ text: String) -> Int64? {
        if let number = Int64(text) { return number }
        return RFC3339.milliseconds(text) ?? RFC3339.milliseconds(fullDate: text)
    }
}
