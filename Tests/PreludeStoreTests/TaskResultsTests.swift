import Foundation
import PreludeCore
import PreludeStorage
import PreludeStore
import PreludeStoreTestSupport
import PreludeTestSupport
import Testing

/// "Ask less" measured by task success (issue 27): synthetic traffic on the demo's `photos-ask-vs-picker`
/// experiment through the real ingestion path, read back by the results reader.
@Suite struct TaskResultsTests {
    @Test func askVersusPickerIsDecidedOnTaskCompletion() throws {
        let fixture = try ResultsFixture(onTheLane: true)
        let (events, truth) = try TaskTraffic.events(installs: 4_000, seed: 0x7A5C)
        // Two days of arrival, so the daily series has two points.
        let half = events.count / 2
        try fixture.ingest(Array(events[..<half]), receivedAt: 1_764_115_200_000)
        try fixture.ingest(Array(events[half...]), receivedAt: 1_764_115_200_000 + 86_400_000)
        let results = try ExperimentResultsReader(database: fixture.database).results(
            appID: ResultsFixture.app, experiment: TaskTraffic.experiment)
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
        let fixture = try ResultsFixture(onTheLane: true)
        let events = [
            IncomingEvent(
                id: "t1", installID: "i1", type: .taskStarted, feature: .photos, experiment: "photos-ask-vs-picker",
                variant: "picker", occurredAt: 1_700_000_000_000, task: "attach-photo"),
            IncomingEvent(
                id: "t2", installID: "i1", type: .primeShown, feature: .photos, occurredAt: 1_700_000_000_000),
        ]
        let primary = EventIngestor(database: fixture.database, clock: .fixed(1_700_000_000_000))
        #expect(try primary.ingest(app: ResultsFixture.app, events: events).accepted == 2)
        let stored = try fixture.database.read {
            try $0.query("SELECT task FROM events ORDER BY client_event_id").map { try $0.get(0, as: String?.self) }
        }
        #expect(stored == ["attach-photo", nil])

        let replica = EventIngestor(database: fixture.database, table: .outbox, clock: .fixed(1_700_000_000_000))
        #expect(try replica.ingest(app: ResultsFixture.app, events: events).accepted == 2)
        let batch = try #require(try ReplicaOutbox(database: fixture.database).oldestBatch(limit: 10))
        guard case .object(let first) = batch.events[0], case .object(let second) = batch.events[1] else {
            throw ResultsFixture.Failure.notAnObject
        }
        #expect(first["task"] == .string("attach-photo"))
        #expect(second["task"] == nil)
    }
}
