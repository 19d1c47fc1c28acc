import Foundation
import PreludeCore
import PreludeStorage
import PreludeStore
import PreludeStoreTestSupport
import Testing

/// Pruning raw events (``EventPruner``): what goes, what stays, bounded batches; on both engines.
@Suite struct EventPrunerTests {
    static let day = ResultsFixture.day
    static let now: Int64 = 1_800_000_000_000

    @Test func pruningRemovesOldRawEventsAndLeavesResultsUnchanged() throws {
        let fixture = try ResultsFixture(onTheLane: true)
        try fixture.seedRetentionTraffic(now: Self.now)
        let before = try fixture.results().encodeJSON()
        let aggregates = try fixture.aggregateRows()
        let total = try fixture.eventCount()
        let fresh = try fixture.database.read {
            try $0.scalar(
                "SELECT count(*) FROM events WHERE received_at = ?", [.integer(Self.now - 10 * Self.day)], as: Int.self)
        }

        let deleted = try EventPruner(retentionDays: 30, batchSize: 97).prune(fixture.database, now: Self.now)
        #expect(deleted == total - (fresh ?? 0))
        #expect(try fixture.receivedTimes() == [Self.now - 10 * Self.day])
        #expect(try fixture.aggregateRows() == aggregates)
        #expect(try fixture.results().encodeJSON() == before)
        // Nothing left to prune: a second run deletes nothing.
        #expect(try EventPruner(retentionDays: 30).prune(fixture.database, now: Self.now) == 0)
    }

    @Test func theCutoffIsExclusiveAndRetentionIsInDays() throws {
        let fixture = try ResultsFixture(onTheLane: true)
        try fixture.seedRetentionTraffic(now: Self.now)
        // 40 days old is kept with a 40-day retention (not older than the cutoff), pruned with 39.
        try EventPruner(retentionDays: 40).prune(fixture.database, now: Self.now)
        #expect(try fixture.receivedTimes() == [Self.now - 40 * Self.day, Self.now - 10 * Self.day])
        try EventPruner(retentionDays: 39).prune(fixture.database, now: Self.now)
        #expect(try fixture.receivedTimes() == [Self.now - 10 * Self.day])
    }

    @Test func zeroRetentionKeepsEverything() throws {
        let fixture = try ResultsFixture(onTheLane: true)
        try fixture.seedRetentionTraffic(now: Self.now)
        let total = try fixture.eventCount()
        #expect(try EventPruner(retentionDays: 0).prune(fixture.database, now: Self.now + 10_000 * Self.day) == 0)
        #expect(try fixture.eventCount() == total)
    }

    /// After pruning, a client re-sending an old event is no longer recognized as a duplicate by the raw table, but
    /// the install's steps are kept, so the aggregates still do not move.
    @Test func aReSentPrunedEventDoesNotChangeTheAggregates() throws {
        let fixture = try ResultsFixture(onTheLane: true)
        let events = TestEvent.arm("control", exposed: 50, granted: 20)
        try fixture.ingest(events, receivedAt: Self.now - 100 * Self.day)
        let aggregates = try fixture.aggregateRows()
        try EventPruner(retentionDays: 30).prune(fixture.database, now: Self.now)
        #expect(try fixture.eventCount() == 0)
        #expect(try fixture.ingest(events, receivedAt: Self.now) == events.count)
        #expect(try fixture.aggregateRows() == aggregates)
    }

    @Test func eachBatchDeletesAtMostItsSizeInItsOwnTransaction() throws {
        let fixture = try ResultsFixture(onTheLane: true)
        try fixture.seedRetentionTraffic(now: Self.now)
        let total = try fixture.eventCount()
        let pruner = EventPruner(retentionDays: 30, batchSize: 50)
        #expect(try pruner.pruneBatch(fixture.database, now: Self.now) == 50)
        #expect(try fixture.eventCount() == total - 50)
        // Batches interleave with ingestion: a write between two batches goes through, and is kept when new.
        try fixture.ingest(
            [TestEvent(install: "x", id: "between", type: "primeShown", variant: "control")], receivedAt: Self.now)
        try pruner.prune(fixture.database, now: Self.now)
        #expect(try fixture.receivedTimes() == [Self.now - 10 * Self.day, Self.now])
    }
}
