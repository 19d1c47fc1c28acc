import PreludeCore
import Testing

/// The device segment's two values: what a header may say, and how a device's raw values are reduced.
@Suite struct EventSegmentTests {
    @Test(arguments: [
        ("18", 18), ("1", 1), ("99", 99), ("26", 26),
    ])
    func acceptsAnOSMajorVersionFrom1To99(text: String, expected: Int) {
        #expect(EventSegment.parseOSMajor(text) == expected)
    }

    @Test(arguments: ["", "0", "100", "018", "+18", "-1", "18.2", " 18", "1e1", "١٨", "999999999999999999999"])
    func refusesAnyOtherOSMajorText(text: String) {
        #expect(EventSegment.parseOSMajor(text) == nil)
    }

    @Test(arguments: [
        ("fr-CA", "fr-CA"), ("FR_ca", "fr-CA"), ("de", "de"), ("es-419", "es-419"), ("iw-IL", "he-IL"),
    ])
    func acceptsLanguageAndRegionInAnyCase(text: String, expected: String) {
        #expect(EventSegment.parseLocale(text) == expected)
    }

    @Test(arguments: [
        "", "f", "french", "zh-Hant-TW", "zh-Hant", "en-US-POSIX", "en-u-ca-buddhist", "other", "unknown",
        "en-USA", "e1-US", "en US",
    ])
    func refusesAnyOtherLocaleText(text: String) {
        #expect(EventSegment.parseLocale(text) == nil)
    }

    @Test(
        arguments: [
            ("18.2.1", "fr_CA", 18, "fr-CA"),
            ("17.4", "zh-Hant-TW", 17, "zh-TW"),
            ("26.0", "en-US@calendar=gregorian", 26, "en-US"),
            ("9", "de", 9, "de"),
        ] as [(String, String, Int?, String?)])
    func reducesADevicesRawValues(version: String, identifier: String, osMajor: Int?, locale: String?) {
        let segment = EventSegment(systemVersion: version, localeIdentifier: identifier)
        #expect(segment == EventSegment(osMajor: osMajor, locale: locale))
        // What the client sends is what the server accepts.
        if let osMajor { #expect(EventSegment.parseOSMajor(String(osMajor)) == osMajor) }
        if let locale { #expect(EventSegment.parseLocale(locale) == locale) }
    }

    @Test func leavesOutWhatDoesNotParse() {
        #expect(EventSegment(systemVersion: "beta", localeIdentifier: "??") == EventSegment())
        #expect(EventSegment(systemVersion: "100.1", localeIdentifier: nil).isEmpty)
        #expect(EventSegment(systemVersion: nil, localeIdentifier: "ja_JP").locale == "ja-JP")
    }
}
