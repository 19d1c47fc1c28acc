/// The one reader and writer of instants in text: RFC 3339 `date-time` (§5.6), to and from milliseconds since the
/// Unix epoch. Pure (no Foundation formatter, no clock, no locale), so the server, the CLI and the fuzzer agree.
///
/// Accepted, exactly: `full-date "T" full-time`, where `full-time` is `HH:MM:SS[.fraction]` followed by `Z`, `z` or
/// `±hh:mm`. Seconds and the offset are required; the fraction is optional (read to the millisecond, further digits
/// cut); `t`/`z` may be lower-case (§5.6 NOTE: ABNF strings are case-insensitive). Ranges are checked as §5.7 says:
/// month 01-12, day within its month (leap years in February), hour 00-23, minute 00-59, offset hours 00-23 and
/// minutes 00-59.
///
/// Leap seconds: second 60 is accepted only where one can occur, at 23:59:60 UTC (after the offset is applied) on the
/// last day of a month (§5.7; ITU-R TF.460 places them at the end of a month, so far always June or December). Times
/// here are POSIX (no leap seconds), so it is read as the next second: `2016-12-31T23:59:60Z` is
/// `2017-01-01T00:00:00Z`. Elsewhere :60 is refused.
///
/// An instant whose UTC form falls outside years 0000-9999 (`0000-01-01T00:00:00+01:00`) is refused: it could not be
/// written back in RFC 3339.
public enum RFC3339 {
    /// 0000-01-01T00:00:00.000Z, the earliest instant RFC 3339 can write.
    public static let earliestMilliseconds: Int64 = -62_167_219_200_000
    /// 9999-12-31T23:59:59.999Z, the latest instant RFC 3339 can write.
    public static let latestMilliseconds: Int64 = 253_402_300_799_999

    /// What the refusal of a text that is not an RFC 3339 date-time says it should look like, built from `now`
    /// (milliseconds since the epoch): an hour later, to the minute, as `2026-11-29T23:00:00Z`.
    public static func example(now: Int64) -> String {
        let later = now + 3_600_000
        return string(milliseconds: later - ((later % 60_000) + 60_000) % 60_000, fractionalSeconds: false)
    }

    /// Milliseconds since the Unix epoch of an RFC 3339 `date-time` such as `2026-11-29T23:00:00Z` or
    /// `2026-11-30T00:00:00.250+01:00`; nil for anything else.
    ///
    /// `allowingSpaceSeparator` also takes a space between date and time (§5.6 NOTE lets applications choose it for
    /// readability): only event ingestion, which has always taken it from apps, passes true.
    public static func milliseconds(_ text: String, allowingSpaceSeparator: Bool = false) -> Int64? {
        var text = text
        return text.withUTF8 { milliseconds(bytes: $0, allowingSpaceSeparator: allowingSpaceSeparator) }
    }

    /// ``milliseconds(_:allowingSpaceSeparator:)`` over UTF-8 bytes.
    public static func milliseconds(bytes b: UnsafeBufferPointer<UInt8>, allowingSpaceSeparator: Bool = false)
        -> Int64?
    {
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
        // full-date = date-fullyear "-" date-month "-" date-mday
        guard let year = digits(4), expect(UInt8(ascii: "-")), let month = digits(2), expect(UInt8(ascii: "-")),
            let day = digits(2)
        else { return nil }
        // "T" (or "t", §5.6 NOTE; a space only where the caller allows it)
        guard i < b.count,
            b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t")
                || (allowingSpaceSeparator && b[i] == UInt8(ascii: " "))
        else { return nil }
        i += 1
        // partial-time = time-hour ":" time-minute ":" time-second [time-secfrac]
        guard let hour = digits(2), expect(UInt8(ascii: ":")), let minute = digits(2), expect(UInt8(ascii: ":")),
            let second = digits(2)
        else { return nil }
        var millis = 0
        if i < b.count, b[i] == UInt8(ascii: ".") {
            // time-secfrac = "." 1*DIGIT: any length, read to the millisecond.
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
        // time-offset = "Z" / time-numoffset
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
        // §5.7 restrictions.
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour <= 23, minute <= 59,
            second <= 60
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let localSeconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        let utcSeconds = localSeconds - Int64(offsetMinutes * 60)
        if second == 60 {
            // 23:59:60 UTC on a month's last day, read as the next second (see the type's documentation).
            let utcDay = floorDivide(utcSeconds - 60, 86_400)
            let secondOfDay = utcSeconds - 60 - utcDay * 86_400
            let (utcYear, utcMonth, utcDate) = civilFromDays(Int(utcDay))
            guard secondOfDay == 23 * 3600 + 59 * 60, utcDate == daysIn(month: utcMonth, year: utcYear) else {
                return nil
            }
        }
        let result = utcSeconds * 1000 + Int64(millis)
        guard result >= earliestMilliseconds, result <= latestMilliseconds else { return nil }
        return result
    }

    /// Milliseconds since the epoch of midnight UTC starting an RFC 3339 `full-date` (`2026-11-29`, nothing else);
    /// nil for anything else. For filters that take a whole day; never a fallback for a `date-time`.
    public static func milliseconds(fullDate text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for c in bytes[range] {
                guard c >= 0x30, c <= 0x39 else { return nil }
                value = value * 10 + Int(c - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), (1...12).contains(month),
            day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        return Int64(daysFromCivil(year: year, month: month, day: day)) * 86_400_000
    }

    /// `2026-11-29T23:00:00.000Z`: the RFC 3339 form (UTC, `Z`) every answer shows; with `fractionalSeconds: false`,
    /// `2026-11-29T23:00:00Z` (milliseconds dropped). An instant outside years 0000-9999 is written as the nearest
    /// one inside (stored times come from clocks, so only a damaged row could be that far).
    public static func string(milliseconds: Int64, fractionalSeconds: Bool = true) -> String {
        let clamped = min(max(milliseconds, earliestMilliseconds), latestMilliseconds)
        let days = floorDivide(clamped, 86_400_000)
        let inDay = Int(clamped - days * 86_400_000)
        let (year, month, day) = civilFromDays(Int(days))
        var text = ""
        text.reserveCapacity(24)
        func append(_ value: Int, width: Int) {
            let digits = String(value)
            text += String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        append(year, width: 4)
        text += "-"
        append(month, width: 2)
        text += "-"
        append(day, width: 2)
        text += "T"
        append(inDay / 3_600_000, width: 2)
        text += ":"
        append(inDay / 60_000 % 60, width: 2)
        text += ":"
        append(inDay / 1000 % 60, width: 2)
        if fractionalSeconds {
            text += "."
            append(inDay % 1000, width: 3)
        }
        text += "Z"
        return text
    }

    /// Days in `month` of `year` (proleptic Gregorian: a leap year is divisible by 4, and not by 100 unless by 400).
    static func daysIn(month: Int, year: Int) -> Int {
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

    /// The proleptic Gregorian date of `days` since 1970-01-01 (H. Hinnant's `civil_from_days`).
    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
