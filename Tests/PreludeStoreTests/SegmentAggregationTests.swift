import Foundation
import PreludeCore
import PreludeStorage
import PreludeStore
import PreludeStoreTestSupport
import PreludeTestSupport
import Testing

/// Breakdowns per OS major version and locale (docs/results.md, "Breakdowns"): what ingestion stores and counts and
/// the cap on distinct values; on both engines.
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
        let fixture = try ResultsFixture(onTheLane: true)
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
        let fixture = try ResultsFixture(onTheLane: true)
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
        let fixture = try ResultsFixture(onTheLane: true)
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
}
