#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// Times in the admin API: stored as milliseconds since the Unix epoch, shown as ISO 8601 UTC.
package enum AdminTime {
    /// `2026-11-22T12:13:41.002Z`.
    package static func iso8601(_ milliseconds: Int64) -> String {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000).formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    /// Milliseconds since the epoch of a `Date`.
    package static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// Parses a query time: ISO 8601 with a zone (`2026-11-22T12:00:00Z`, fractional seconds allowed), a date
    /// (`2026-11-22`, midnight UTC), or integer milliseconds since the epoch. Nil when it is none of these.
    package static func parse(_ text: String) -> Int64? {
        if let number = Int64(text) { return number }
        if let date = try? Date(text, strategy: .iso8601) { return milliseconds(date) }
        if let date = try? Date(
            text,
            strategy: .iso8601.year().month().day().time(includingFractionalSeconds: true)
                .timeZone(separator: .omitted))
        {
            return milliseconds(date)
        }
        if let date = try? Date(text, strategy: .iso8601.year().month().day()) { return milliseconds(date) }
        return nil
    }
}
