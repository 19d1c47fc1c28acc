import Foundation
import PreludeCore
import PreludeStorage
import PreludeStore
import PreludeStoreTestSupport
import PreludeTestSupport
import Testing

@testable import PreludeService

/// Breakdowns per OS major version and locale (docs/results.md, "Breakdowns"): what ingestion stores and counts,
/// the cap on distinct values, the results JSON and page, and the request headers.
@Suite struct SegmentAggregationTests {
    typealias Breakdown = [String: [String: FunnelCounts]]  // value → variant → funnel

    /// An independent recount from the raw events: per arm, each install counts in the segment of its first event in
    /// the arm, with the union of its events' steps.
    static func recount(_ fixture: ResultsFixture, feature: String, dimension: SegmentBreakdown.Dimension) throws
        -> Breakdown
    {
        let rows = try fixture.database.read { db in
            try db.query(
                """
                SELECT install_id, type, variant, os_major, locale FROM events
                WHERE app_id = ? AND experiment = ? AND feature = ? AND variant IS NOT NULL AND variant <> ''
                ORDER BY id
                """, [.text(ResultsFixture.app), .text(ResultsFixture.experiment), .text(feature)])
        }
        var first: [String: String] = [:]
        var steps: [String: (variant: String, steps: FunnelSteps)] = [:]
        for row in rows {
            let variant = try row.get(2, as: String.self)
            let key = variant + "/" + (try row.get(0, as: String.self))
            let value =
                dimension == .osMajor
                ? (try row.get(3, as: Int?.self)).map(String.init) : try row.get(4, as: String?.self)
            if first[key] == nil { first[key] = value ?? EventSegment.unknownValue }
            steps[key, default: (variant, [])].steps.formUnion(
                FunnelSteps.marked(byEvent: try row.get(1, as: String.self)))
        }
        var result: Breakdown = [:]
        for (key, install) in steps {
            var delta = FunnelCounts()
            delta.add(from: [], to: install.steps)
            result[first[key]!, default: [:]][install.variant] =
                (result[first[key]!]?[install.variant] ?? FunnelCounts()) + delta
        }
        return result
    }

    static func stored(_ fixture: ResultsFixture, feature: String, dimension: SegmentBreakdown.Dimension) throws
        -> Breakdown
    {
        let rows = try fixture.database.read {
            try ExperimentSegmentCounts.load(
                appID: ResultsFixture.app, environment: "production", experiment: ResultsFixture.experiment,
                feature: feature, on: $0)
        }
        var result: Breakdown = [:]
        for row in rows where row.dimension == dimension { result[row.value, default: [:]][row.variant] = row.counts }
        return result
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func segmentCountsEqualARecountFromRawEventsAndAddUpToTheArms(seed: UInt64) throws {
        let fixture = try ResultsFixture()
        try fixture.ingest(EventStreams.messyStream(seed: seed, installs: 150, events: 3000), batchSize: 97)
        let arms = try fixture.arms()
        for feature in ["camera", "photos"] {
            for dimension in SegmentBreakdown.Dimension.allCases {
                let stored = try Self.stored(fixture, feature: feature, dimension: dimension)
                #expect(stored == (try Self.recount(fixture, feature: feature, dimension: dimension)))
                #expect(stored.keys.count >= 2, "\(dimension): \(stored.keys.sorted())")
                // For each dimension, an arm's segments add up to the arm.
                for arm in arms where arm.feature == feature {
                    let sum = stored.values.compactMap { $0[arm.variant] }.reduce(FunnelCounts(), +)
                    #expect(sum == arm.counts, "\(feature)/\(arm.variant) by \(dimension)")
                }
            }
        }
    }

    @Test func anInstallStaysInTheSegmentOfItsFirstEvent() throws {
        let fixture = try ResultsFixture()
        var before = TestEvent(install: "a", id: "1", type: "primeShown", variant: "control")
        before.segment = EventSegment(osMajor: 17, locale: "de")
        var after = TestEvent(install: "a", id: "2", type: "systemGranted", variant: "control")
        after.segment = EventSegment(osMajor: 18, locale: "de-AT")  // updated the OS, changed the language
        try fixture.ingest([before])
        try fixture.ingest([after])
        let granted = FunnelCounts(exposed: 1, primeShown: 1, systemGranted: 1, granted: 1)
        #expect(try Self.stored(fixture, feature: "camera", dimension: .osMajor) == ["17": ["control": granted]])
        #expect(try Self.stored(fixture, feature: "camera", dimension: .locale) == ["de": ["control": granted]])
        let raw = try fixture.database.read { db in
            try db.query("SELECT os_major, locale FROM events ORDER BY id").map {
                "\(try $0.get(0, as: Int.self)) \(try $0.get(1, as: String.self))"
            }
        }
        #expect(raw == ["17 de", "18 de-AT"])  // the raw events keep what each batch said
    }

    @Test func distinctValuesAreCappedPerExperimentAndTheRestCountAsOther() throws {
        let fixture = try ResultsFixture()
        let cap = EventSegment.maximumStoredValues
        // cap + 6 locales, each with one install in each arm, arriving one locale after another.
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        var locales: [String] = []
        for index in 0..<(cap + 6) {
            let tens: Character = letters[index / 26]
            let units: Character = letters[index % 26]
            locales.append("q" + String(tens) + String(units))
        }
        var events: [TestEvent] = []
        for (index, locale) in locales.enumerated() {
            for variant in ["control", "short-copy"] {
                var event = TestEvent(install: "\(variant)-\(index)", id: "1", type: "primeShown", variant: variant)
                event.segment = EventSegment(osMajor: 18, locale: locale)
                events.append(event)
            }
        }
        try fixture.ingest(events, batchSize: 50)
        let stored = try Self.stored(fixture, feature: "camera", dimension: .locale)
        #expect(stored.count == cap + 1)
        #expect(Set(stored.keys) == Set(locales.prefix(cap) + ["other"]))
        let shown = FunnelCounts(exposed: 1, primeShown: 1)
        let other = FunnelCounts(exposed: 6, primeShown: 6)
        // Every arm alike: a value kept in one arm is kept in all, so segments stay comparable.
        #expect(stored["other"] == ["control": other, "short-copy": other])
        #expect(stored[locales[0]] == ["control": shown, "short-copy": shown])
        #expect(try Self.stored(fixture, feature: "camera", dimension: .osMajor).keys.sorted() == ["18"])
    }

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

    @Test func aReplicasOutboxForwardsEachSegmentInItsOwnBatch() throws {
        let fixture = try ResultsFixture()
        let replica = EventIngestor(database: fixture.database, table: .outbox, clock: .fixed(1_700_000_000_000))
        func batch(_ ids: [String], _ segment: EventSegment) -> EventBatch {
            EventBatch(
                events: ids.map {
                    EventBatch.Event(
                        id: $0, installID: "i", type: .primeShown, feature: .camera, occurredAt: 1_700_000_000_000,
                        segment: segment)
                })
        }
        let french = EventSegment(osMajor: 18, locale: "fr-CA")
        _ = try replica.ingest(app: ResultsFixture.app, batch: batch(["a", "b"], french))
        _ = try replica.ingest(app: ResultsFixture.app, batch: batch(["c"], EventSegment()))
        _ = try replica.ingest(app: ResultsFixture.app, batch: batch(["d"], french))
        let outbox = ReplicaOutbox(database: fixture.database)
        var forwarded: [(EventSegment, [String])] = []
        while let next = try outbox.oldestBatch(limit: 10) {
            forwarded.append((next.segment, next.events.compactMap { $0["id"]?.stringValue }))
            try outbox.delete(next.ids)
        }
        #expect(forwarded.map(\.0) == [french, EventSegment()])
        #expect(forwarded.map(\.1) == [["a", "b", "d"], ["c"]])
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
