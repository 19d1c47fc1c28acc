import Foundation
import PreludeCore
import PreludeTestSupport
import Testing

/// ``RFC3339`` against independent readers on generated valid and near-valid strings (seeded, deterministic):
///
/// - accept/reject and the instant against a reference written differently: a regular expression for the grammar,
///   Foundation's `Calendar` (Gregorian, UTC) for the date arithmetic and month lengths. Years are drawn from
///   1600-9999: Foundation's Gregorian calendar is Julian before 1582-10-15, RFC 3339's is proleptic (the unit
///   tests cover years 0000-1599).
/// - the instant against Foundation's `ISO8601DateFormatter` (`.withInternetDateTime`, plus
///   `.withFractionalSeconds` when a fraction is present) where both define the answer: upper-case `T`/`Z`, no
///   leap second, no fraction or exactly three digits. They legitimately differ elsewhere: the formatter reads
///   lower-case `t`/`z` as it pleases, has no notion of a leap second (RFC 3339 §5.7), and rounds fractions longer than
///   a millisecond through `Double` where we cut them.
struct RFC3339PropertyTests {
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// The reference: nil when `text` is not an RFC 3339 date-time (or names an instant outside years 0000-9999 in
    /// UTC), else its milliseconds since the epoch.
    static func reference(_ text: String) -> Int64? {
        let pattern =
            /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([Zz]|([+-])([0-9]{2}):([0-9]{2}))$/
        guard let match = text.wholeMatch(of: pattern) else { return nil }
        let year = Int(match.1)!
        let month = Int(match.2)!
        let day = Int(match.3)!
        let hour = Int(match.4)!
        let minute = Int(match.5)!
        let second = Int(match.6)!
        guard hour <= 23, minute <= 59, second <= 60 else { return nil }
        var offsetMinutes = 0
        if let sign = match.9, let oh = match.10.flatMap({ Int($0) }), let om = match.11.flatMap({ Int($0) }) {
            guard oh <= 23, om <= 59 else { return nil }
            offsetMinutes = (sign == "-" ? -1 : 1) * (oh * 60 + om)
        }
        var components = DateComponents(
            year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59))
        components.calendar = utc
        components.timeZone = utc.timeZone
        guard (1...12).contains(month), components.isValidDate(in: utc), let local = utc.date(from: components)
        else { return nil }
        let utcSeconds = Int64(local.timeIntervalSince1970.rounded()) - Int64(offsetMinutes * 60)
        if second == 60 {
            // Only at 23:59:60 UTC on a month's last day; read as the next second.
            let at = Date(timeIntervalSince1970: Double(utcSeconds))
            let parts = utc.dateComponents([.hour, .minute, .day], from: at)
            guard parts.hour == 23, parts.minute == 59, parts.day == utc.range(of: .day, in: .month, for: at)?.count
            else { return nil }
        }
        let fraction = match.7.map {
            String($0.dropFirst().prefix(3)).padding(toLength: 3, withPad: "0", startingAt: 0)
        }
        let milliseconds = (utcSeconds + (second == 60 ? 1 : 0)) * 1000 + Int64(fraction.flatMap { Int($0) } ?? 0)
        guard milliseconds >= -62_167_219_200_000, milliseconds <= 253_402_300_799_999 else { return nil }
        return milliseconds
    }

    /// A date-time with random fields, mostly valid, sometimes one field out of range.
    static func generated(_ random: inout SplitMix64) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = 1600 + random.below(8400)
        let month = random.chance(0.03) ? random.below(14) : 1 + random.below(12)
        let lastDay = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][max(0, min(11, month - 1))]
        var day = random.chance(0.2) ? lastDay - random.below(2) : 1 + random.below(lastDay)
        if random.chance(0.03) { day = random.below(33) }
        var hour = random.chance(0.03) ? random.below(26) : random.below(24)
        var minute = random.chance(0.03) ? random.below(62) : random.below(60)
        var second = random.chance(0.03) ? random.below(62) : random.below(60)
        if random.chance(0.1) {
            (hour, minute, second) = (23, 59, 60)
            if random.chance(0.5) { day = lastDay }
        }
        let fraction: String =
            switch random.below(4) {
            case 0: "." + String(random.below(1000) + 1000).dropFirst()
            case 1: "." + (0..<(1 + random.below(12))).map { _ in String(random.below(10)) }.joined()
            default: ""
            }
        let offset: String =
            switch random.below(5) {
            case 0: "Z"
            case 1: "z"
            default:
                (random.chance(0.5) ? "+" : "-") + two(random.chance(0.03) ? random.below(30) : random.below(24)) + ":"
                    + two(random.chance(0.03) ? random.below(70) : [0, 30, 45, random.below(60)][random.below(4)])
            }
        let separator = ["T", "T", "T", "t"][random.below(4)]
        return
            "\(year)-\(two(month))-\(two(day))\(separator)\(two(hour)):\(two(minute)):\(two(second))\(fraction)\(offset)"
    }

    /// `text` damaged in one place: a character removed, replaced, inserted or the end cut.
    static func mutated(_ text: String, _ random: inout SplitMix64) -> String {
        var characters = Array(text)
        let alphabet = Array("0123456789-:T tZz+.,Ｔ\u{0}é")
        let at = random.below(characters.count)
        switch random.below(4) {
        case 0: characters.remove(at: at)
        case 1: characters[at] = alphabet[random.below(alphabet.count)]
        case 2: characters.insert(alphabet[random.below(alphabet.count)], at: at)
        default: characters.removeLast(1 + random.below(min(6, characters.count)))
        }
        return String(characters)
    }

    @Test func agreesWithTheReferenceOnGeneratedStrings() {
        var random = SplitMix64(state: 0x3339)
        var accepted = 0
        var leapSeconds = 0
        for _ in 0..<20_000 {
            let valid = Self.generated(&random)
            let text = random.chance(0.4) ? Self.mutated(valid, &random) : valid
            // A mutation can shift digits into a year before 1600, where Foundation's calendar is Julian.
            if let year = Int(text.prefix(4)), year < 1600 { continue }
            let ours = RFC3339.milliseconds(text)
            let theirs = Self.reference(text)
            #expect(ours == theirs, "\(text)")
            if ours != nil { accepted += 1 }
            if ours != nil, text.contains(":60") { leapSeconds += 1 }
        }
        // Both sides of the line are exercised.
        #expect(accepted > 5_000 && accepted < 18_000, "\(accepted)")
        #expect(leapSeconds > 50, "\(leapSeconds)")
    }

    @Test func agreesWithISO8601DateFormatterWhereBothDefineTheAnswer() throws {
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var random = SplitMix64(state: 0x8601)
        var compared = 0
        for _ in 0..<5_000 {
            let text = Self.generated(&random)
            guard let ours = RFC3339.milliseconds(text), !text.contains("t"), !text.contains("z"),
                !text.contains(":60")
            else { continue }
            let fraction = text.split(separator: ".").dropFirst().first
            let digits = fraction.map { $0.prefix { $0.isNumber }.count }
            guard digits == nil || digits == 3 else { continue }
            let formatter = digits == nil ? plain : fractional
            let date = try #require(formatter.date(from: text), "\(text)")
            #expect(Int64((date.timeIntervalSince1970 * 1000).rounded()) == ours, "\(text)")
            compared += 1
        }
        #expect(compared > 1_000, "\(compared)")
    }

    /// What we write, we read back as the same instant, and Foundation reads it too.
    @Test func formatThenParseRoundTrips() {
        var random = SplitMix64(state: 0x2026)
        for _ in 0..<5_000 {
            let milliseconds =
                RFC3339.earliestMilliseconds
                + Int64(random.next() % UInt64(RFC3339.latestMilliseconds - RFC3339.earliestMilliseconds + 1))
            let text = RFC3339.string(milliseconds: milliseconds)
            #expect(RFC3339.milliseconds(text) == milliseconds, "\(text)")
            if milliseconds >= -11_676_096_000_000 {  // 1600-01-01: see the type's note on Julian dates
                #expect(Self.reference(text) == milliseconds, "\(text)")
            }
        }
    }
}
