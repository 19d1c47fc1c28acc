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

/// A database whose experiments were counted before the segments migration: nothing is lost, and what was counted
/// before shows as "unknown".
@Suite struct SegmentMigrationTests {
    @Test func aggregatesCountedBeforeTheMigrationAreUnknownAndTheirInstallsStaySo() throws {
        let fixture = ServiceFixture()
        let database = try Database(path: fixture.path("old.sqlite"), readerCount: 1)
        defer { database.close() }
        let all = try MigrationCatalog.load(directory: ServiceFixture.migrationsDirectory)
        let segments = try #require(all.first { $0.name.hasSuffix("_event_segments") })
        _ = try Migrator(migrations: all.filter { $0.number < segments.number }).migrate(database)
        // As the build before stored them: an arm with two installs, one granted, and their raw events.
        try database.write { db in
            try db.executeScript(
                """
                INSERT INTO apps (id, name, live_revision, created_at, updated_at) VALUES ('demo', 'Demo', NULL, 0, 0);
                INSERT INTO environments (app_id, name, created_at, updated_at) VALUES ('demo', 'production', 0, 0);
                INSERT INTO experiment_install_steps
                    (app_id, environment, experiment_key, feature, variant, install_id, steps, first_seen_at)
                VALUES ('demo', 'production', 'camera-prime-copy', 'camera', 'control', 'old-1', 1, 5),
                    ('demo', 'production', 'camera-prime-copy', 'camera', 'control', 'old-2', 17, 5);
                INSERT INTO experiment_funnel_counts (app_id, environment, experiment_key, feature, variant, exposed,
                    system_granted, granted, first_event_at, last_event_at)
                VALUES ('demo', 'production', 'camera-prime-copy', 'camera', 'control', 2, 1, 1, 5, 5);
                INSERT INTO events (app_id, install_id, client_event_id, type, feature, experiment, variant,
                    occurred_at, received_at)
                VALUES ('demo', 'old-1', 'o1', 'primeShown', 'camera', 'camera-prime-copy', 'control', 5, 5),
                    ('demo', 'old-2', 'o2', 'systemGranted', 'camera', 'camera-prime-copy', 'control', 5, 5);
                """)
        }
        // Upgrading to the segments migration applies exactly it; the later ones then apply as at any start.
        #expect(
            try Migrator(migrations: all.filter { $0.number <= segments.number }).migrate(database) == [segments.name])
        _ = try Migrator(migrations: all).migrate(database)

        // After the upgrade: old-1 grants from an iOS 18 device, and a new install arrives from one.
        let ingestor = EventIngestor(
            database: database, observers: [ExperimentAggregator()], clock: .fixed(1_700_000_000_000))
        let ios18 = EventSegment(osMajor: 18, locale: "en-GB")
        _ = try ingestor.ingest(
            app: "demo",
            batch: EventBatch(
                events: ["old-1", "new-1"].map {
                    EventBatch.Event(
                        id: "n-" + $0, installID: $0, type: .systemGranted, feature: .camera,
                        experiment: "camera-prime-copy", variant: "control", occurredAt: 1_700_000_000_000,
                        segment: ios18)
                }))
        let rows = try database.read {
            try ExperimentSegmentCounts.load(
                appID: "demo", environment: "production", experiment: "camera-prime-copy", feature: "camera", on: $0)
        }
        let byOS = Dictionary(
            uniqueKeysWithValues: rows.filter { $0.dimension == .osMajor }.map { ($0.value, $0.counts) })
        // old-1's grant stays with its install in "unknown"; only new-1 is iOS 18.
        #expect(byOS["unknown"] == FunnelCounts(exposed: 2, systemGranted: 2, granted: 2))
        #expect(byOS["18"] == FunnelCounts(exposed: 1, systemGranted: 1, granted: 1))
        #expect(byOS.count == 2)
        #expect(rows.filter { $0.dimension == .locale }.map(\.value).sorted() == ["en-GB", "unknown"])
        let events = try database.read {
            try $0.query("SELECT client_event_id, os_major FROM events ORDER BY id").map {
                "\(try $0.get(0, as: String.self)):\(try $0.get(1, as: Int?.self).map(String.init) ?? "-")"
            }
        }
        #expect(events == ["o1:-", "o2:-", "n-old-1:18", "n-new-1:18"])
    }
}
