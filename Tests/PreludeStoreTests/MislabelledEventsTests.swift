import Foundation
import PreludeCore
import PreludeStorage
import PreludeStore
import PreludeStoreTestSupport
import PreludeTestSupport
import Testing

/// Issue 17: events whose variant disagrees with the install's deterministic assignment are counted, reported and
/// kept out of the arms; on both engines.
@Suite("Mislabelled events")
struct MislabelledEventsTests {
    @Test func theLabelIsCheckedAgainstTheBucketingOfTheLivePolicy() {
        let install = "install-1"
        let right = ResultsFixture.assignedVariant(install)
        #expect(
            ExperimentAggregator.check(
                installID: install, feature: "camera", experiment: ResultsFixture.experiment, variant: right,
                in: ResultsFixture.demoPolicy) == .trusted)
        #expect(
            ExperimentAggregator.check(
                installID: install, feature: "camera", experiment: ResultsFixture.experiment,
                variant: ResultsFixture.otherVariant(right), in: ResultsFixture.demoPolicy)
                == .mislabelled(expected: right))
        // Not checkable: no policy, an experiment the live policy does not have, another feature.
        #expect(
            ExperimentAggregator.check(
                installID: install, feature: "camera", experiment: ResultsFixture.experiment,
                variant: ResultsFixture.otherVariant(right), in: nil) == .trusted)
        #expect(
            ExperimentAggregator.check(
                installID: install, feature: "camera", experiment: "gone", variant: "x", in: ResultsFixture.demoPolicy)
                == .trusted)
        #expect(
            ExperimentAggregator.check(
                installID: install, feature: "photos", experiment: ResultsFixture.experiment,
                variant: ResultsFixture.otherVariant(right), in: ResultsFixture.demoPolicy) == .trusted)
        // Outside the coverage every label is wrong.
        var stopped = ResultsFixture.demoPolicy
        stopped.experiments[0].coverage = 0
        #expect(
            ExperimentAggregator.check(
                installID: install, feature: "camera", experiment: ResultsFixture.experiment, variant: right,
                in: stopped) == .mislabelled(expected: nil))
    }

    /// 1,000 installs, 7 % of which report the other arm: their events are counted as mislabelled, the arms hold only
    /// the honest installs, and both the JSON and the table say so.
    @Test func mislabelledEventsAreCountedAndKeptOutOfTheArms() throws {
        let fixture = try ResultsFixture(onTheLane: true)
        let document = ResultsFixture.demoPolicy
        let aggregator = ExperimentAggregator { app, _ in app == ResultsFixture.app ? document : nil }
        var random = SplitMix64(state: 1707)
        var events: [TestEvent] = []
        var honest: [String: Int] = [:]
        var mislabelledEvents = 0
        for index in 0..<1000 {
            let install = "install-\(index)"
            let assigned = ResultsFixture.assignedVariant(install)
            let lies = random.chance(0.07)
            let flow = TestEvent.flow(
                install: install, variant: lies ? ResultsFixture.otherVariant(assigned) : assigned,
                ["primeShown", "primeAccepted", random.chance(0.5) ? "systemGranted" : "systemDenied"])
            events += flow
            if lies { mislabelledEvents += flow.count } else { honest[assigned, default: 0] += 1 }
        }
        #expect(mislabelledEvents > 0)
        try ResultsFixture.ingest(events, into: fixture.database, batchSize: 100, aggregator: aggregator)
        let results = try fixture.results()
        #expect(results.mislabelled.total == mislabelledEvents)
        #expect(
            results.report.variants.map(\.funnel.exposed) == [honest["control"] ?? 0, honest["short-copy"] ?? 0])
        let json = results.encodeJSON()
        #expect(json["mislabelled"]?["events"] == .integer(mislabelledEvents))
        #expect(json["mislabelled"]?["byVariant"]?.arrayValue?.count == 2)
        #expect(results.renderTable().contains("Mislabelled: \(mislabelledEvents) events"))

        // The per-event path agrees with the batch path.
        let single = try ResultsFixture(onTheLane: true)
        try single.database.write { connection in
            for (number, event) in events.enumerated() {
                try aggregator.didInsert(
                    StoredEvent(
                        rowID: Int64(number), appID: ResultsFixture.app, installID: event.install,
                        clientEventID: event.id, type: AnalyticsEvent(rawValue: event.type)!,
                        feature: Feature(rawValue: event.feature)!, experiment: event.experiment,
                        variant: event.variant, occurredAt: 0, receivedAt: 1_700_000_000_000),
                    connection: connection)
            }
        }
        #expect(try single.results().mislabelled == results.mislabelled)
        #expect(try single.arms() == (try fixture.arms()))
    }
}
