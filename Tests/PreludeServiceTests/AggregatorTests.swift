import PreludeCore
import PreludeStorage
import Testing

@testable import PreludeService

/// The incremental aggregates against an independent recount from raw events, duplicates, and what counts.
@Suite struct AggregatorTests {
    static let eventTypes = [
        "primeShown", "primeAccepted", "primeDismissed", "systemGranted", "systemDenied", "settingsShown",
        "settingsOpened", "returnedGranted", "deniedShown", "unsupportedShown", "buttonShown",
    ]

    /// A messy random stream: several variants (one not configured), events without an assignment, events of the
    /// experiment under another feature, non-funnel types, retried events (same client ids) and repeated steps.
    static func messyStream(seed: UInt64, installs: Int, events: Int) -> [TestEvent] {
        var generator = SplitMix64(state: seed)
        let variants: [String?] = ["control", "short-copy", "short-copy", "control", "ghost", nil]
        var stream: [TestEvent] = []
        for index in 0..<events {
            let install = "install-\(generator.below(installs))"
            var event = TestEvent(
                install: install, id: "e\(index)", type: eventTypes[generator.below(eventTypes.count)],
                variant: variants[generator.below(variants.count)])
            if generator.chance(0.05) { event.feature = "photos" }
            if generator.chance(0.05) { event.experiment = nil }
            stream.append(event)
            if generator.chance(0.1) {
                stream.append(stream[generator.below(stream.count)])  // a retried event: same client event id
            }
        }
        return stream
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func countersEqualAnIndependentRecountFromRawEvents(seed: UInt64) throws {
        let fixture = try ResultsFixture()
        let stream = Self.messyStream(seed: seed, installs: 150, events: 3000)
        try fixture.ingest(stream, batchSize: 97)
        let arms = try fixture.arms()
        #expect(arms.count >= 5)  // control, short-copy, ghost × camera, photos
        #expect(arms == (try fixture.recount()))
        for arm in arms { #expect(arm.counts.validationProblems().isEmpty, "\(arm)") }
    }

    @Test func duplicateEventsChangeNothing() throws {
        let fixture = try ResultsFixture()
        let stream = Self.messyStream(seed: 7, installs: 80, events: 800)
        let first = try fixture.ingest(stream)
        let rows = try fixture.aggregateRows()
        let json = try fixture.results().encodeJSON()
        let events = try fixture.eventCount()

        // The same batch again, as a client retrying after a lost response: nothing is inserted or counted.
        #expect(try fixture.ingest(stream) == 0)
        #expect(try fixture.eventCount() == events)
        #expect(try fixture.aggregateRows() == rows)
        #expect(try fixture.results().encodeJSON() == json)
        #expect(first == events)

        // The same steps under new client ids (a client logging a step twice): stored, but no install reaches a new
        // step, so the aggregates do not move either.
        let repeated = stream.map { event in
            var copy = event
            copy.id += "-again"
            return copy
        }
        #expect(try fixture.ingest(repeated) > 0)
        #expect(try fixture.aggregateRows() == rows)
    }

    @Test func anInstallGrantedByBothPathsCountsOnceInGranted() throws {
        let fixture = try ResultsFixture()
        try fixture.ingest(
            TestEvent.flow(
                install: "a", variant: "control",
                ["primeShown", "primeAccepted", "systemGranted", "systemDenied", "settingsOpened", "returnedGranted"]))
        let counts = try #require(try fixture.arms().first).counts
        #expect(
            counts
                == FunnelCounts(
                    exposed: 1, primeShown: 1, primeContinued: 1, systemGranted: 1, systemDenied: 1, settingsOpened: 1,
                    returnedGranted: 1, granted: 1))
    }

    @Test func anyEventOfTheFeatureExposesAndOnlyAssignedEventsCount() throws {
        let fixture = try ResultsFixture()
        try fixture.ingest([
            TestEvent(install: "a", id: "1", type: "unsupportedShown", variant: "control"),
            TestEvent(install: "b", id: "1", type: "systemGranted", variant: nil),  // no variant reported
            TestEvent(install: "c", id: "1", type: "systemGranted", experiment: nil, variant: "control"),
        ])
        let arms = try fixture.arms()
        #expect(arms == [ExperimentArm(feature: "camera", variant: "control", counts: FunnelCounts(exposed: 1))])
        #expect(try fixture.eventCount() == 3)
    }

    @Test func aggregatesRollBackWithTheirEvent() throws {
        let fixture = try ResultsFixture()
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try fixture.database.write { db in
                try fixture.aggregator.record(
                    appID: ResultsFixture.app, installID: "a", type: "systemGranted", feature: "camera",
                    experiment: ResultsFixture.experiment, variant: "control", receivedAt: 1, on: db)
                throw Abort()
            }
        }
        #expect(try fixture.aggregateRows().isEmpty)
    }

    @Test func recordReportsWhetherSomethingChanged() throws {
        let fixture = try ResultsFixture()
        let changes = try fixture.database.write { db in
            // A name the service does not know (a newer client) marks exposure only.
            try ["primeShown", "primeShown", "deniedShown", "somethingNew", "primeAccepted"].map { type in
                try fixture.aggregator.record(
                    appID: ResultsFixture.app, installID: "a", type: type, feature: "camera",
                    experiment: ResultsFixture.experiment, variant: "control", receivedAt: 1, on: db)
            }
        }
        #expect(changes == [true, false, false, false, true])
    }

    /// The funnel's event names are exactly the engine's analytics events for those steps, and every other event
    /// the engine tells clients to emit marks exposure only: the two vocabularies agree.
    @Test(arguments: AnalyticsEvent.allCases)
    func funnelStepsFollowTheEnginesAnalyticsEvents(event: AnalyticsEvent) {
        let steps: [AnalyticsEvent: FunnelSteps] = [
            .primeShown: .primeShown, .primeAccepted: .primeContinued, .primeDismissed: .primeDismissed,
            .systemGranted: .systemGranted, .systemDenied: .systemDenied, .settingsOpened: .settingsOpened,
            .returnedGranted: .returnedGranted,
        ]
        let expected = steps[event].map { FunnelSteps.exposed.union($0) } ?? .exposed
        #expect(FunnelSteps.marked(byEvent: event.rawValue) == expected)
    }
}
