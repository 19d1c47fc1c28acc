/// Parses event times: RFC 3339 `date-time` strings (RFC 3339 §5.6) or integer milliseconds since the epoch.
package enum EventTimestamp {
    /// Milliseconds since the Unix epoch of an RFC 3339 date-time such as `2026-11-22T12:30:00Z`,
    /// `2026-11-22T13:30:00.250+01:00` (`t`/`z` lower-case and a space separator are accepted, as §5.6 allows);
    /// nil when malformed or out of range (month, day of month, hour, minute, second ≤ 60, offset).
    package static func parseRFC3339(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { parseRFC3339(bytes: $0) }
    }

    /// ``parseRFC3339(_:)`` over UTF-8 bytes.
    package static func parseRFC3339(bytes b: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        func digits(_ count: Int) -> Int? {
            guard i + count <= b.count else { return nil }
            var value = 0
            for k in 0..<count {
                let c = b[i + k]
                guard c >= 0x30, c <= 0x39 else { return nil }
                value = value * 10 + Int(c - 0x30)
            }
            i += count
            return value
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(UInt8(ascii: "-")), let month = digits(2), expect(UInt8(ascii: "-")),
            let day = digits(2)
        else { return nil }
        guard i < b.count, b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") || b[i] == UInt8(ascii: " ")
        else { return nil }
        i += 1
        guard let hour = digits(2), expect(UInt8(ascii: ":")), let minute = digits(2), expect(UInt8(ascii: ":")),
            let second = digits(2)
        else { return nil }
        var millis = 0
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            var scale = 100
            var count = 0
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                millis += Int(b[i] - 0x30) * scale
                scale /= 10
                count += 1
                i += 1
            }
            guard count > 0 else { return nil }
        }
        var offsetMinutes = 0
        guard i < b.count else { return nil }
        switch b[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            i += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let hours = digits(2), expect(UInt8(ascii: ":")), let minutes = digits(2), hours <= 23, minutes <= 59
            else { return nil }
            offsetMinutes = sign * (hours * 60 + minutes)
        default:
            return nil
        }
        guard i == b.count else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour <= 23, minute <= 59,
            second <= 60
        else { return nil }
        // A leap second (:60) is folded onto the next second.
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetMinutes * 60)
        return seconds * 1000 + Int64(millis)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
