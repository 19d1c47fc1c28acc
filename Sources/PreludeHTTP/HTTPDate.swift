#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `Date` header value in IMF-fixdate form (RFC 9110 §5.6.7), recomputed at most once per second.
///
/// Each event loop owns one; it is not shared between threads.
package struct HTTPDate {
    private var second: Int = -1
    /// `Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n` as bytes.
    package private(set) var headerLine: [UInt8] = []

    package init() {}

    /// Refreshes the cached line when the wall-clock second changed.
    package mutating func refresh() {
        let now = time(nil)
        guard Int(now) != second else { return }
        second = Int(now)
        headerLine = Array(("Date: " + Self.format(now) + "\r\n").utf8)
    }

    /// Formats a time as IMF-fixdate.
    package static func format(_ t: time_t) -> String {
        var t = t
        var tmv = tm()
        gmtime_r(&t, &tmv)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(days[Int(tmv.tm_wday)]), \(two(tmv.tm_mday)) \(months[Int(tmv.tm_mon)]) \(tmv.tm_year + 1900) "
            + "\(two(tmv.tm_hour)):\(two(tmv.tm_min)):\(two(tmv.tm_sec)) GMT"
    }
}
