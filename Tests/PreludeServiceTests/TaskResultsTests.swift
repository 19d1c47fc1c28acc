import Foundation
import PreludeCore
import PreludeStorage
import PreludeStore
import PreludeStoreTestSupport
import PreludeTestSupport
import Testing

@testable import PreludeService

/// "Ask less" measured by task success (issue 27): synthetic traffic on the demo's `photos-ask-vs-picker`
/// experiment through the real ingestion path, read back by the results reader.
@Suite struct TaskResultsTests {
    static let experiment = "photos-ask-vs-picker"

    /// Installs assigned by the documented bucketing over the demo's experiment (so nothing is mislabelled). The
    /// ask arm primes and asks: a task completes only when access is granted. The picker arm presents PhotosPicker
    /// and completes whenever the person picks something. Returns the events and the tally of what was simulated.
    static func traffic(installs: Int, seed: UInt64) throws -> (events: [TestEvent], truth: [String: FunnelCounts]) {
        let document = PolicyDocument.decode(try JSONParser().parse(ResultsFixture.demoText)).document
        let definition = try #require(document.experiments.first { $0.key == experiment })
        var generator = SplitMix64(state: seed)
        var events: [TestEvent] = []
        var truth: [String: FunnelCounts] = [:]
        for index in 0..<installs {
            let install = "photos-install-\(index)"
            let arm = try #require(
                Bucketing.assign(
                    seed: definition.hashSeed, installId: install, weights: definition.variants.map(\.weight),
                    coverage: definition.coverage))
            let variant = definition.variants[arm].name
            var types = ["taskStarted"]
            var counts = FunnelCounts(exposed: 1, taskStarted: 1)
            if variant == "ask" {
                types.append("primeShown")
                counts.primeShown = 1
                if generator.chance(0.7) {
                    types.append("primeAccepted")
                    counts.primeContinued = 1
                    if generator.chance(0.75) {
                        types += ["systemGranted", "taskCompleted"]
                        counts.systemGranted = 1
                        counts.granted = 1
                        counts.taskCompleted = 1
                    } else {
                        types.append("systemDenied")
                        counts.systemDenied = 1
                    }
                } else {
                    types.append("primeDismissed")
                    counts.primeDismissed = 1
                }
            } else if generator.chance(0.8) {
                types.append("taskCompleted")
                counts.taskCompleted = 1
            }
            if generator.chance(0.2) { types.append("taskStarted") }  // a second attempt counts once
            events += types.enumerated().map { offset, type in
                TestEvent(
                    install: install, id: "\(install)-\(offset)", type: type, feature: "photos",
                    experiment: experiment, variant: variant)
            }
            truth[variant] = (truth[variant] ?? FunnelCounts()) + counts
        }
        return (events, truth)
    }

    @Test func askVersusPickerIsDecidedOnTaskCompletion() throws {
        let fixture = try ResultsFixture()
        let (events, truth) = try Self.traffic(installs: 4_000, seed: 0x7A5C)
        // Two days of arrival, so the daily series has two points.
        let half = events.count / 2
        try fixture.ingest(Array(events[..<half]), receivedAt: 1_764_115_200_000)
        try fixture.ingest(Array(events[half...]), receivedAt: 1_764_115_200_000 + 86_400_000)
        let results = try ExperimentResultsReader(database: fixture.database).results(
            appID: ResultsFixture.app, experiment: Self.experiment)
        let report = results.report
        #expect(report.variants.map(\.name) == ["ask", "picker"])
        #expect(report.controlName == "ask")
        for variant in report.variants { #expect(variant.funnel == truth[variant.name], "\(variant.name)") }
        let ask = report.variants[0]
        let picker = report.variants[1]
        // The picker never asks: on grants it loses outright, which says nothing about what the app wanted.
        #expect(picker.grantRate == 0)
        #expect(picker.verdict == .worse)
        // On tasks it wins: about 80 % against 0.7 × 0.75 ≈ 52.5 %.
        let askRate = try #require(ask.taskCompletionRate)
        let pickerRate = try #require(picker.taskCompletionRate)
        #expect(abs(askRate - 0.525) < 0.04 && abs(pickerRate - 0.8) < 0.04)
        #expect(picker.taskVerdict == .better)
        let comparison = try #require(picker.taskComparison)
        #expect(comparison.sequentialInterval.lower > 0.2)
        #expect(!report.sampleRatio.isMismatch)

        // The JSON of the endpoint and CLI carries the same figures.
        guard case .object(let json) = results.encodeJSON(),
            case .array(let variants) = json["variants"] ?? .null,
            case .object(let pickerJSON) = variants[1]
        else { throw ResultsFixture.Failure.notAnObject }
        #expect(pickerJSON["taskCompletionRate"] == .double(pickerRate))
        #expect(pickerJSON["taskVerdict"] == .string("better"))
        #expect(results.renderTable().contains("Task completion"))
    }
}

/// The task name travels with its event: stored in `events.task`, kept by a replica's outbox and forwarded whole.
@Suite struct TaskNameStorageTests {
    @Test func theTaskNameIsStoredAndForwarded() throws {
        let fixture = try ResultsFixture()
        let events = [
            EventBatch.Event(
                id: "t1", installID: "i1", type: .taskStarted, feature: .photos, experiment: "photos-ask-vs-picker",
                variant: "picker", occurredAt: 1_700_000_000_000, task: "attach-photo"),
            EventBatch.Event(
                id: "t2", installID: "i1", type: .primeShown, feature: .photos, occurredAt: 1_700_000_000_000),
        ]
        let primary = EventIngestor(database: fixture.database, clock: .fixed(1_700_000_000_000))
        #expect(try primary.ingest(app: ResultsFixture.app, batch: EventBatch(events: events)).accepted == 2)
        let stored = try fixture.database.read {
            try $0.query("SELECT task FROM events ORDER BY client_event_id").map { try $0.get(0, as: String?.self) }
        }
        #expect(stored == ["attach-photo", nil])

        let replica = EventIngestor(database: fixture.database, table: .outbox, clock: .fixed(1_700_000_000_000))
        #expect(try replica.ingest(app: ResultsFixture.app, batch: EventBatch(events: events)).accepted == 2)
        let batch = try #require(try ReplicaOutbox(database: fixture.database).oldestBatch(limit: 10))
        guard case .object(let first) = batch.events[0], case .object(let second) = batch.events[1] else {
            throw ResultsFixture.Failure.notAnObject
        }
        #expect(first["task"] == .string("attach-photo"))
        #expect(second["task"] == nil)
    }
}
