import Foundation
import PreludeCore
import PreludeStorage
import PreludeStore
import PreludeStoreTestSupport
import PreludeTestSupport
import Testing

@testable import PreludeService

/// The breakdowns in the results JSON and page (what ingestion stores and counts, and the cap on distinct values:
/// PreludeStoreTests/SegmentAggregationTests).
@Suite struct SegmentReportTests {
    @Test func theResultsCarryBothBreakdownsLabelledExploratoryWithoutVerdicts() throws {
        let fixture = try ResultsFixture()
        var generator = SplitMix64(state: 11)
        var events: [TestEvent] = []
        // fr-CA on iOS 18: short-copy grants far more; en-US on iOS 17: no difference; older clients: no segment.
        for (segment, rates, prefix) in [
            (EventSegment(osMajor: 18, locale: "fr-CA"), (0.3, 0.7), "fr"),
            (EventSegment(osMajor: 17, locale: "en-US"), (0.5, 0.5), "en"), (EventSegment(), (0.5, 0.5), "old"),
        ] {
            for (variant, rate) in [("control", rates.0), ("short-copy", rates.1)] {
                for var event in FlowSimulator.events(
                    variant: variant, installs: 300, grantRate: rate, generator: &generator)
                {
                    event.install = prefix + "-" + event.install
                    event.segment = segment
                    events.append(event)
                }
            }
        }
        try fixture.ingest(events)
        let results = try fixture.results()
        let json = results.encodeJSON()
        let segments = try #require(json["segments"])
        #expect(segments["exploratory"] == .bool(true))
        #expect(segments["note"] == .string(SegmentBreakdown.exploratoryNote))
        guard case .array(let os)? = segments["osMajor"], case .array(let locales)? = segments["locale"] else {
            Issue.record("no breakdowns in \(segments)")
            return
        }
        #expect(os.compactMap { $0["value"]?.stringValue }.sorted() == ["17", "18", "unknown"])
        #expect(locales.compactMap { $0["value"]?.stringValue }.last == "unknown")
        #expect(Set(locales.compactMap { $0["value"]?.stringValue }) == ["fr-CA", "en-US", "unknown"])
        let total = os.compactMap { $0["exposed"]?.intValue }.reduce(0, +)
        #expect(total == results.report.totalExposed)
        for segment in os + locales {
            guard case .array(let variants)? = segment["variants"] else { continue }
            #expect(variants.allSatisfy { $0["verdict"] == .null && $0["taskVerdict"] == .null })
        }
        // fr-CA's difference is clear in its own confidence sequence; en-US's interval covers 0.
        let french = try #require(locales.first { $0["value"] == .string("fr-CA") }?["variants"]?[1]?["comparison"])
        #expect((french["sequentialInterval"]?["lower"]?.doubleValue ?? 0) > 0)
        let english = try #require(locales.first { $0["value"] == .string("en-US") }?["variants"]?[1]?["comparison"])
        #expect((english["sequentialInterval"]?["lower"]?.doubleValue ?? 1) < 0)

        // The page shows the same figures, labelled exploratory.
        let page = results.renderPage()
        #expect(page.contains("<section id=\"breakdowns\">"))
        #expect(page.contains("exploratory"))
        let frenchRate = try #require(locales.first { $0["value"] == .string("fr-CA") }?["variants"]?[1]?["grantRate"])
        #expect(
            page.contains(
                "data-segment=\"fr-CA\" data-variant=\"short-copy\"><th scope=\"row\">short-copy</th>"
                    + "<td data-field=\"funnel.exposed\" data-value=\"300\" class=\"num\">300</td>"))
        #expect(page.contains("data-field=\"grant.rate\" data-value=\"\(frenchRate.serialized())\""))
    }
}

/// The segment headers over the real events endpoint.
@Suite struct SegmentHeaderTests {
    let fixture = PublicFixture()

    static let body = EventsTests.batch([
        EventsTests.event("s1", extra: #","experiment":"camera-prime-copy","variant":"control""#)
    ])

    private func storedSegments(_ service: PreludeService) throws -> [String] {
        try service.database.read { db in
            try db.query("SELECT os_major, locale FROM events ORDER BY id").map {
                "\(try $0.get(0, as: Int?.self).map(String.init) ?? "-") \(try $0.get(1, as: String?.self) ?? "-")"
            }
        }
    }

    @Test func validHeadersAreStoredWithEveryEventOfTheBatch() throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = PublicClient(port: service.port)
        let sent = try client.post(
            "/v1/apps/demo/events", json: EventsTests.batch([EventsTests.event("a"), EventsTests.event("b")]),
            headers: [("Prelude-OS-Major", "18"), ("Prelude-Locale", "FR_ca")])
        #expect(sent.status == 202)
        let plain = try client.post("/v1/apps/demo/events", json: EventsTests.batch([EventsTests.event("c")]))
        #expect(plain.status == 202)
        #expect(try storedSegments(service) == ["18 fr-CA", "18 fr-CA", "- -"])
    }

    @Test(arguments: [
        ("Prelude-OS-Major", "18.2"), ("Prelude-OS-Major", "0"), ("Prelude-OS-Major", "iOS 18"),
        ("Prelude-Locale", "zh-Hant-TW"), ("Prelude-Locale", "other"), ("Prelude-Locale", ""),
    ])
    func anInvalidHeaderIsA400NamingItAndStoresNothing(name: String, value: String) throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let response = try PublicClient(port: service.port).post(
            "/v1/apps/demo/events", json: Self.body, headers: [(name, value)])
        #expect(response.status == 400)
        #expect(response["Content-Type"] == "application/problem+json")
        #expect(try response.problemPointers() == ["/headers/\(name)"])
        #expect(String(decoding: response.body, as: UTF8.self).contains("header.invalid"))
        #expect(try storedSegments(service).isEmpty)
    }
}
