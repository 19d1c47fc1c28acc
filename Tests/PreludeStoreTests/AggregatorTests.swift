import Dispatch
import PreludeCore
import PreludeStorage
import PreludeStoreTestSupport
import PreludeTestSupport
import Synchronization
import Testing

@testable import PreludeStore

/// The incremental aggregates against an independent recount from raw events, duplicates, and what counts.
@Suite struct AggregatorTests {

    @Test(arguments: [UInt64(1), 2, 3])
    func countersEqualAnIndependentRecountFromRawEvents(seed: UInt64) throws {
        let fixture = try ResultsFixture(onTheLane: true)
        let stream = EventStreams.messyStream(seed: seed, installs: 150, events: 3000)
        try fixture.ingest(stream, batchSize: 97)
        let arms = try fixture.arms()
        #expect(arms.count >= 5)  // control, short-copy, ghost × camera, photos
        #expect(arms == (try fixture.recount()))
        for arm in arms { #expect(arm.counts.validationProblems().isEmpty, "\(arm)") }
        // The daily increments (migration 0010) add up to the counters, arm by arm.
        #expect(try fixture.dailyTotals() == arms.map { $0.counts })
    }

    @Test func duplicateEventsChangeNothing() throws {
        let fixture = try ResultsFixture(onTheLane: true)
        let stream = EventStreams.messyStream(seed: 7, installs: 80, events: 800)
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
        // They are new events, though: the events-per-day health check counts them (tagged ones, per arm).
        let tagged = stream.filter { ($0.experiment ?? "").isEmpty == false && ($0.variant ?? "").isEmpty == false }
        #expect(try fixture.taggedEventsCounted() == 2 * Set(tagged.map(\.id)).count)
    }

    @Test func anInstallGrantedByBothPathsCountsOnceInGranted() throws {
        let fixture = try ResultsFixture(onTheLane: true)
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
        let fixture = try ResultsFixture(onTheLane: true)
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
        let fixture = try ResultsFixture(onTheLane: true)
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
        let fixture = try ResultsFixture(onTheLane: true)
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

    /// The counter columns every upsert is built from are FunnelCounts' fields, in order (snake case): the values
    /// bound by ``ExperimentAggregator/counterValues(_:)`` land in their own columns.
    @Test func counterColumnsFollowTheFunnelFields() {
        let names = FunnelCounts().fields.map { field in
            field.name.reduce(into: "") { column, character in
                if character.isUppercase { column += "_" + character.lowercased() } else { column.append(character) }
            }
        }
        #expect(ExperimentAggregator.counterColumns == names)
    }

    /// The funnel's event names are exactly the engine's analytics events for those steps, and every other event
    /// the engine tells clients to emit marks exposure only: the two vocabularies agree.
    @Test(arguments: AnalyticsEvent.allCases)
    func funnelStepsFollowTheEnginesAnalyticsEvents(event: AnalyticsEvent) {
        let steps: [AnalyticsEvent: FunnelSteps] = [
            .primeShown: .primeShown, .primeAccepted: .primeContinued, .primeDismissed: .primeDismissed,
            .systemGranted: .systemGranted, .systemDenied: .systemDenied, .settingsOpened: .settingsOpened,
            .returnedGranted: .returnedGranted, .taskStarted: .taskStarted, .taskCompleted: .taskCompleted,
        ]
        let expected = steps[event].map { FunnelSteps.exposed.union($0) } ?? .exposed
        #expect(FunnelSteps.marked(byEvent: event.rawValue) == expected)
    }
}

/// The per-batch aggregation (what ingestion uses) against the per-event one it replaced.
@Suite struct AggregatorBatchTests {
    /// Sees events one at a time only, like an observer written before the batch call existed: the ingestor's
    /// default batch call feeds it event by event, so ExperimentAggregator's per-event `record` runs.
    struct PerEvent: EventIngestionObserver {
        var aggregator = ExperimentAggregator()
        func didInsert(_ event: StoredEvent, connection: Connection) throws {
            try aggregator.didInsert(event, connection: connection)
        }
    }

    static func ingest(
        _ events: [TestEvent], into database: Database, perEvent: Bool, batchSize: Int,
        livePolicy: ExperimentAggregator.LivePolicy? = nil
    ) throws {
        let aggregator = ExperimentAggregator(livePolicy: livePolicy)
        let observer: any EventIngestionObserver = perEvent ? PerEvent(aggregator: aggregator) : aggregator
        let clock = Mutex<Int64>(1_700_000_000_000)
        let ingestor = EventIngestor(
            database: database, observers: [observer], clock: ServiceClock { clock.withLock { $0 } })
        for start in stride(from: 0, to: events.count, by: batchSize) {
            let batch = events[start..<min(start + batchSize, events.count)].map {
                $0.incoming(occurredAt: 1_700_000_000_000)
            }
            _ = try ingestor.ingest(app: ResultsFixture.app, events: batch)
            clock.withLock { $0 += 1000 }  // so first_seen_at / first_event_at / last_event_at tell batches apart
        }
    }

    /// Same stream, same batches: every row of both aggregate tables is identical, timestamps included.
    @Test(arguments: [(UInt64(11), 1), (12, 7), (13, 100), (14, 500)])
    func batchAggregationEqualsPerEventAggregation(seed: UInt64, batchSize: Int) throws {
        let stream = EventStreams.messyStream(seed: seed, installs: 60, events: 1500)
        let perEvent = try ResultsFixture(onTheLane: true)
        let batched = try ResultsFixture(onTheLane: true)
        try Self.ingest(stream, into: perEvent.database, perEvent: true, batchSize: batchSize)
        try Self.ingest(stream, into: batched.database, perEvent: false, batchSize: batchSize)
        let rows = try batched.aggregateRows()
        #expect(rows.count > 10)
        #expect(rows == (try perEvent.aggregateRows()))
        #expect(try batched.dailyEventRows() == (try perEvent.dailyEventRows()))
        #expect(try batched.arms() == (try batched.recount()))
    }

    /// Label checks against the live policy, batched (one check per run of events with the same install, feature,
    /// experiment and variant) against one check per event: runs of one install whose label, feature or experiment
    /// change within the run, installs that come back later, labels right, wrong and unknown. Every aggregate row and
    /// every mislabelled-events row is identical.
    @Test(arguments: [(UInt64(21), 7), (22, 100), (23, 500)])
    func batchedLabelChecksEqualPerEventChecks(seed: UInt64, batchSize: Int) throws {
        let document = ResultsFixture.demoPolicy
        let livePolicy: ExperimentAggregator.LivePolicy = { app, _ in app == ResultsFixture.app ? document : nil }
        var generator = SplitMix64(state: seed)
        let variants: [String?] = ["control", "short-copy", "ghost", nil]
        var stream: [TestEvent] = []
        while stream.count < 1500 {
            let install = "install-\(generator.below(40))"
            var variant =
                generator.chance(0.5) ? ResultsFixture.assignedVariant(install) : variants[generator.below(4)]
            for _ in 0...generator.below(8) {
                if generator.chance(0.15) { variant = variants[generator.below(variants.count)] }
                var event = TestEvent(
                    install: install, id: "e\(stream.count)",
                    type: EventStreams.eventTypes[generator.below(EventStreams.eventTypes.count)],
                    variant: variant)
                if generator.chance(0.1) { event.feature = "photos" }
                if generator.chance(0.05) { event.experiment = "gone" }
                stream.append(event)
            }
        }
        let perEvent = try ResultsFixture(onTheLane: true)
        let batched = try ResultsFixture(onTheLane: true)
        try Self.ingest(stream, into: perEvent.database, perEvent: true, batchSize: batchSize, livePolicy: livePolicy)
        try Self.ingest(stream, into: batched.database, perEvent: false, batchSize: batchSize, livePolicy: livePolicy)
        func mislabelledRows(_ fixture: ResultsFixture) throws -> [Row] {
            try fixture.database.read {
                try $0.query("SELECT * FROM experiment_mislabelled_events ORDER BY 1, 2, 3, 4, 5, 6")
            }
        }
        let mislabelled = try mislabelledRows(batched)
        #expect(mislabelled.count >= 4)
        #expect(mislabelled == (try mislabelledRows(perEvent)))
        #expect(try batched.aggregateRows() == (try perEvent.aggregateRows()))
        #expect(try batched.dailyEventRows() == (try perEvent.dailyEventRows()))
    }

    /// Install ids travel to SQLite as JSON text: quotes, backslashes and control characters must survive.
    @Test func installIDsNeedingJSONEscapesAreCountedExactly() throws {
        let fixture = try ResultsFixture(onTheLane: true)
        let installs = ["a\"b", "c\\d", "\\\"", "tab\there", "nl\n", "\u{1}x", "plain", "é-ü", "[\"x\",1]"]
        var events: [TestEvent] = []
        for (index, install) in installs.enumerated() {
            events += TestEvent.flow(
                install: install, variant: index % 2 == 0 ? "control" : "short-copy",
                ["primeShown", "primeAccepted", "systemGranted"])
        }
        let again = events.map { event in
            var copy = event
            copy.id += "-again"
            return copy
        }
        try fixture.ingest(events + again)
        let stored = try fixture.database.read { db in
            try db.query("SELECT install_id, steps FROM experiment_install_steps ORDER BY install_id").map {
                (try $0.get(0, as: String.self), try $0.get(1, as: Int.self))
            }
        }
        #expect(stored.map(\.0) == installs.sorted())
        #expect(
            stored.allSatisfy {
                $0.1 == FunnelSteps([.exposed, .primeShown, .primeContinued, .systemGranted]).rawValue
            })
        #expect(try fixture.arms() == (try fixture.recount()))
        #expect(try fixture.arms().map(\.counts.granted) == [5, 4])
    }

    @Test func jsonArrayEscapesWhatRFC8259Requires() {
        #expect(ExperimentAggregator.jsonArray(["abc"]) == #"["abc"]"#)
        #expect(ExperimentAggregator.jsonArray(["a\"b\\c\n\u{1F}"]) == #"["a\"b\\c\n\u001f"]"#)
        #expect(ExperimentAggregator.jsonArray(["x", "y\""]) == #"["x","y\""]"#)
        #expect(ExperimentAggregator.jsonArray([]) == "[]")
    }

    /// An observer failing after the aggregator rolls back the batch's events and aggregates.
    @Test func anObserverFailingAfterTheAggregatorRollsBackItsWrites() throws {
        let fixture = try ResultsFixture(onTheLane: true)
        try fixture.ingest(TestEvent.flow(install: "a", variant: "control", ["primeShown"]))
        let rows = try fixture.aggregateRows()
        // The aggregator runs first and writes b's steps and the counters; the next observer then refuses.
        let ingestor = EventIngestor(database: fixture.database, observers: [ExperimentAggregator(), Veto()])
        let batch = [
            IncomingEvent(
                id: "veto", installID: "b", type: .primeShown, feature: .camera, experiment: ResultsFixture.experiment,
                variant: "control", occurredAt: 1_700_000_000_000)
        ]
        #expect(throws: Veto.Refused.self) { try ingestor.ingest(app: ResultsFixture.app, events: batch) }
        #expect(try fixture.eventCount() == 1)
        #expect(try fixture.aggregateRows() == rows)
        #expect(ingestor.statistics.failedBatches == 1)
    }

    /// Batches queued behind a commit are written together (the aggregator told once about all of them); when one of
    /// them is refused, the group is written again batch by batch and only that batch fails: the others are stored
    /// and counted, once each.
    @Test func aRefusedBatchInAGroupFailsAloneAndTheOthersAreCounted() throws {
        let fixture = try ResultsFixture(onTheLane: true)
        let gate = Gate()
        let ingestor = EventIngestor(database: fixture.database, observers: [ExperimentAggregator(), gate])
        func batch(_ id: String, install: String, _ type: AnalyticsEvent) -> [IncomingEvent] {
            [
                IncomingEvent(
                    id: id, installID: install, type: type, feature: .camera, experiment: ResultsFixture.experiment,
                    variant: "control", occurredAt: 1_700_000_000_000)
            ]
        }
        let results = Mutex<[String: Result<EventIngestor.Outcome, any Error>]>([:])
        let done = DispatchGroup()
        func submit(_ name: String, _ batch: [IncomingEvent]) {
            done.enter()
            ingestor.submit(app: ResultsFixture.app, events: batch) { result in
                results.withLock { $0[name] = result }
                done.leave()
            }
        }
        submit("first", batch("hold", install: "a", .primeShown))
        // The committer is inside the first batch's transaction: the next three queue up. (Bounded: when the
        // aggregator refuses the batch first, the gate is never reached.)
        guard gate.entered.wait(timeout: .now() + 10) == .success else {
            Issue.record("the first batch never reached the gate")
            gate.release.signal()
            return
        }
        submit("b", batch("b-shown", install: "b", .primeShown))
        submit("veto", batch("veto", install: "c", .primeShown))
        submit("b-again", batch("b-accepted", install: "b", .primeAccepted))
        gate.release.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
        let outcomes = results.withLock { $0 }
        #expect((try? outcomes["first"]?.get())?.accepted == 1)
        #expect((try? outcomes["b"]?.get())?.accepted == 1)
        #expect((try? outcomes["b-again"]?.get())?.accepted == 1)
        #expect(throws: Veto.Refused.self) { try outcomes["veto"]?.get() }
        let statistics = ingestor.statistics
        #expect(statistics.failedBatches == 1)
        #expect(statistics.transactions == 3)  // the first batch; the group; the group again, batch by batch
        #expect(try fixture.eventCount() == 3)
        #expect(try fixture.arms() == (try fixture.recount()))
        #expect(try fixture.arms().map(\.counts.primeShown).reduce(0, +) == 2)
    }

    /// Holds the committer inside the transaction of the batch with event `hold` until released; refuses `veto`.
    final class Gate: EventIngestionObserver, Sendable {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        func didInsert(_ event: StoredEvent, connection: Connection) throws {
            if event.clientEventID == "hold" {
                entered.signal()
                _ = release.wait(timeout: .now() + 20)
            }
            if event.clientEventID == "veto" { throw Veto.Refused() }
        }
    }

    struct Veto: EventIngestionObserver {
        struct Refused: Error {}
        func didInsert(_ event: StoredEvent, connection: Connection) throws {
            if event.clientEventID == "veto" { throw Refused() }
        }
    }
}
