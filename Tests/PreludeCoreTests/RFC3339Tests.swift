import PreludeCore
import Testing

/// The one instant parser and writer (RFC 3339 §5.6 `date-time`), with the two inputs issue 35 reported.
struct RFC3339Tests {
    @Test(arguments: [
        ("2026-11-29T23:00:00Z", Int64(1_795_993_200_000)),
        ("2026-11-29t23:00:00z", 1_795_993_200_000),
        ("2026-11-30T00:00:00+01:00", 1_795_993_200_000),
        ("2026-11-29T17:30:00-05:30", 1_795_993_200_000),
        ("2026-11-29T23:00:00.5Z", 1_795_993_200_500),
        ("2026-11-29T23:00:00.123456789Z", 1_795_993_200_123),
        ("2026-11-29T23:00:00-00:00", 1_795_993_200_000),
        ("1970-01-01T00:00:00Z", 0),
        ("2024-02-29T12:00:00Z", 1_709_208_000_000),
        ("2000-02-29T00:00:00Z", 951_782_400_000),
        ("0000-01-01T00:00:00Z", RFC3339.earliestMilliseconds),
        ("9999-12-31T23:59:59.999Z", RFC3339.latestMilliseconds),
        // Leap seconds: 23:59:60 UTC on a month's last day, read as the next second.
        ("2016-12-31T23:59:60Z", 1_483_228_800_000),
        ("2016-12-31T18:59:60-05:00", 1_483_228_800_000),
        ("2015-06-30T23:59:60.250Z", 1_435_708_800_250),
    ])
    func parsesDateTimes(text: String, milliseconds: Int64) {
        #expect(RFC3339.milliseconds(text) == milliseconds)
    }

    /// Issue 35: both scheduled 2026-11-29T00:00:00Z (a date-only fallback), 23 hours early.
    @Test(arguments: ["2026-11-29T23:00:00", "2026-11-29T23:00Z"])
    func refusesTheReportedInputs(text: String) {
        #expect(RFC3339.milliseconds(text) == nil)
    }

    @Test(arguments: [
        "", "2026-11-29", "2026-11-29T", "2026-11-29T23", "2026-11-29T23:00", "2026-11-29 23:00:00Z",
        "2026-11-29T23:00:00+0100", "2026-11-29T23:00:00+01", "2026-11-29T23:00:00.Z", "2026-11-29T23:00:00Zjunk",
        " 2026-11-29T23:00:00Z", "2026-11-29T23:00:00Z ", "26-11-29T23:00:00Z", "+2026-11-29T23:00:00Z",
        "20261129T230000Z", "2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z", "2026-11-31T00:00:00Z",
        "2026-11-00T00:00:00Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-11-29T24:00:00Z",
        "2026-11-29T23:60:00Z", "2026-11-29T23:00:61Z", "2026-11-29T23:00:00+24:00", "2026-11-29T23:00:00+01:60",
        "2026-11-29T23:00:00UTC", "2026-11-29T23:00:00,5Z", "2026-11-29T23:00:00\u{0}Z", "２０２６-11-29T23:00:00Z",
        // :60 where no leap second can be: not the end of a UTC day, or not a month's last day.
        "2016-12-31T23:58:60Z", "2016-12-30T23:59:60Z", "2016-12-31T23:59:60+01:00",
        // Outside what RFC 3339 can write back in UTC.
        "0000-01-01T00:00:00+00:01", "9999-12-31T23:59:59-00:01", "9999-12-31T23:59:60Z",
    ])
    func refusesEverythingElse(text: String) {
        #expect(RFC3339.milliseconds(text) == nil)
    }

    @Test func spaceSeparatorOnlyWhenAllowed() {
        #expect(RFC3339.milliseconds("2026-11-29 23:00:00Z") == nil)
        #expect(RFC3339.milliseconds("2026-11-29 23:00:00Z", allowingSpaceSeparator: true) == 1_795_993_200_000)
    }

    @Test(arguments: [
        (Int64(1_795_993_200_000), "2026-11-29T23:00:00.000Z"),
        (1_795_993_200_123, "2026-11-29T23:00:00.123Z"),
        (0, "1970-01-01T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (RFC3339.earliestMilliseconds, "0000-01-01T00:00:00.000Z"),
        (RFC3339.latestMilliseconds, "9999-12-31T23:59:59.999Z"),
        (Int64.max, "9999-12-31T23:59:59.999Z"),
    ])
    func writesUTCWithMilliseconds(milliseconds: Int64, text: String) {
        #expect(RFC3339.string(milliseconds: milliseconds) == text)
        #expect(
            RFC3339.milliseconds(text)
                == min(max(milliseconds, RFC3339.earliestMilliseconds), RFC3339.latestMilliseconds))
    }

    @Test func exampleIsAnHourLaterToTheMinuteAndParses() {
        let now: Int64 = 1_795_904_569_123  // 2026-11-28T22:22:49.123Z
        #expect(RFC3339.example(now: now) == "2026-11-28T23:22:00Z")
        #expect(RFC3339.milliseconds(RFC3339.example(now: now)) != nil)
    }

    @Test(arguments: [("2026-11-29", Int64(1_795_910_400_000)), ("2024-02-29", 1_709_164_800_000)])
    func readsFullDates(text: String, milliseconds: Int64) {
        #expect(RFC3339.milliseconds(fullDate: text) == milliseconds)
    }

    @Test(arguments: ["2026-11-29T23:00:00", "2023-02-29", "2026-1-29", "2026-11-29Z", ""])
    func refusesWhatIsNotExactlyAFullDate(text: String) {
        #expect(RFC3339.milliseconds(fullDate: text) == nil)
    }
}
