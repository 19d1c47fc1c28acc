import Foundation

/// Parses the IMF-fixdate form of an HTTP-date (RFC 9110 §5.6.7), `Sun, 06 Nov 1994 08:49:37 GMT`, the only form
/// a sender may generate.
enum HTTPDateParser {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Seconds since the epoch, or nil when `text` is not an IMF-fixdate.
    static func parse(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let year = Int(parts[3]),
            let month = months.firstIndex(of: String(parts[2]))
        else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        var components = DateComponents()
        components.calendar = Calendar(identifier: .gregorian)
        components.timeZone = TimeZone(identifier: "GMT")
        (components.year, components.month, components.day) = (year, month + 1, day)
        (components.hour, components.minute, components.second) = (time[0], time[1], time[2])
        return components.date?.timeIntervalSince1970
    }
}
