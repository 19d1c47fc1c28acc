import Foundation
import PreludeCore
import PreludeStorage
import PreludeStore
import Synchronization
import Testing

@testable import PreludeService

/// Pruning raw events: what goes, what stays, bounded batches, the clock-driven task, and the setting.
@Suite struct RetentionTests {
    static let day: Int64 = 86_400_000
    static let now: Int64 = 1_800_000_000_000

    /// Old traffic (100 and 40 days ago) and recent traffic (10 days ago) for the same installs.
    static func seed(_ fixture: ResultsFixture) throws {
        try fixture.ingest(
            ResultsTests.arm("control", exposed: 120, granted: 50)
                + ResultsTests.arm("short-copy", exposed: 110, granted: 60),
            receivedAt: now - 100 * day)
        let later = (0..<60).flatMap { index in
            TestEvent.flow(install: "control-\(index)", variant: "control", ["deniedShown"]).map { event in
                var copy = event
                copy.id = "late-\(index)"
                return copy
            }
        }
        try fixture.ingest(later, receivedAt: now - 40 * day)
        try fixture.ingest(ResultsTests.arm("fresh", exposed: 5, granted: 1), receivedAt: now - 10 * day)
    }

    func receivedTimes(_ fixture: ResultsFixture) throws -> [Int64] {
        try fixture.database.read { db in
            try db.query("SELECT DISTINCT received_at FROM events ORDER BY 1").map { try $0.get(0, as: Int64.self) }
        }
    }

    @Test func pruningRemovesOldRawEventsAndLeavesResultsUnchanged() throws {
        let fixture = try ResultsFixture()
        try Self.seed(fixture)
        let before = try fixture.results().encodeJSON()
        let aggregates = try fixture.aggregateRows()
        let total = try fixture.eventCount()
        let fresh = try fixture.database.read {
            try $0.scalar(
                "SELECT count(*) FROM events WHERE received_at = ?", [.integer(Self.now - 10 * Self.day)], as: Int.self)
        }

        let deleted = try EventPruner(retentionDays: 30, batchSize: 97).prune(fixture.database, now: Self.now)
        #expect(deleted == total - (fresh ?? 0))
        #expect(try receivedTimes(fixture) == [Self.now - 10 * Self.day])
        #expect(try fixture.aggregateRows() == aggregates)
        #expect(try fixture.results().encodeJSON() == before)
        // Nothing left to prune: a second run deletes nothing.
        #expect(try EventPruner(retentionDays: 30).prune(fixture.database, now: Self.now) == 0)
    }

    @Test func theCutoffIsExclusiveAndRetentionIsInDays() throws {
        let fixture = try ResultsFixture()
        try Self.seed(fixture)
        // 40 days old is kept with a 40-day retention (not older than the cutoff), pruned with 39.
        try EventPruner(retentionDays: 40).prune(fixture.database, now: Self.now)
        #expect(try receivedTimes(fixture) == [Self.now - 40 * Self.day, Self.now - 10 * Self.day])
        try EventPruner(retentionDays: 39).prune(fixture.database, now: Self.now)
        #expect(try receivedTimes(fixture) == [Self.now - 10 * Self.day])
    }

    @Test func zeroRetentionKeepsEverything() throws {
        let fixture = try ResultsFixture()
        try Self.seed(fixture)
        let total = try fixture.eventCount()
        #expect(try EventPruner(retentionDays: 0).prune(fixture.database, now: Self.now + 10_000 * Self.day) == 0)
        #expect(try fixture.eventCount() == total)
    }

    /// After pruning, a client re-sending an old event is no longer recognized as a duplicate by the raw table, but
    /// the install's steps are kept, so the aggregates still do not move.
    @Test func aReSentPrunedEventDoesNotChangeTheAggregates() throws {
        let fixture = try ResultsFixture()
        let events = ResultsTests.arm("control", exposed: 50, granted: 20)
        try fixture.ingest(events, receivedAt: Self.now - 100 * Self.day)
        let aggregates = try fixture.aggregateRows()
        try EventPruner(retentionDays: 30).prune(fixture.database, now: Self.now)
        #expect(try fixture.eventCount() == 0)
        #expect(try fixture.ingest(events, receivedAt: Self.now) == events.count)
        #expect(try fixture.aggregateRows() == aggregates)
    }

    @Test func eachBatchDeletesAtMostItsSizeInItsOwnTransaction() throws {
        let fixture = try ResultsFixture()
        try Self.seed(fixture)
        let total = try fixture.eventCount()
        let pruner = EventPruner(retentionDays: 30, batchSize: 50)
        #expect(try pruner.pruneBatch(fixture.database, now: Self.now) == 50)
        #expect(try fixture.eventCount() == total - 50)
        // Batches interleave with ingestion: a write between two batches goes through, and is kept when new.
        try fixture.ingest(
            [TestEvent(install: "x", id: "between", type: "primeShown", variant: "control")], receivedAt: Self.now)
        try pruner.prune(fixture.database, now: Self.now)
        #expect(try receivedTimes(fixture) == [Self.now - 10 * Self.day, Self.now])
    }

    @Test func theTaskPrunesAtTheInjectedClocksTime() throws {
        let fixture = try ResultsFixture()
        try Self.seed(fixture)
        let clock = Atomic<Int64>(Self.now - 50 * Self.day)
        let lines = Mutex<[String]>([])
        let logger = Logger(level: .info) { line in lines.withLock { $0.append(line) } }
        let task = EventRetentionTask(
            pruner: EventPruner(retentionDays: 30), database: fixture.database, logger: logger,
            clock: ServiceClock { clock.load(ordering: .relaxed) })
        // 50 days before "now" the cutoff is 80 days back: only the 100-day-old traffic goes.
        let first = task.runOnce()
        #expect(first > 0)
        #expect(try receivedTimes(fixture) == [Self.now - 40 * Self.day, Self.now - 10 * Self.day])
        clock.store(Self.now, ordering: .relaxed)
        #expect(task.runOnce() == 60)
        #expect(task.runOnce() == 0)
        #expect(lines.withLock { $0 }.filter { $0.contains("events pruned") }.count == 2)
        // The timer starts and stops cleanly (its first tick is a minute away: stop must not wait for it).
        task.start()
        task.stop()
    }

    @Test func aFailedRunIsLoggedNotThrown() throws {
        let fixture = try ResultsFixture()
        try fixture.database.write { try $0.execute("DROP TABLE events") }
        let lines = Mutex<[String]>([])
        let task = EventRetentionTask(
            pruner: EventPruner(retentionDays: 30), database: fixture.database,
            logger: Logger(level: .info) { line in lines.withLock { $0.append(line) } }, clock: .fixed(Self.now))
        #expect(task.runOnce() == 0)
        #expect(lines.withLock { $0 }.contains { $0.contains("event pruning failed") })
    }

    @Test func retentionSettingDefaultsToNinetyDaysAndIsChecked() throws {
        #expect(try ServiceConfiguration.resolve(fileText: nil, environment: [:], flags: [:]).eventRetentionDays == 90)
        let configured = try ServiceConfiguration.resolve(
            fileText: #"{"eventRetentionDays": 30}"#, environment: ["PRELUDE_EVENT_RETENTION_DAYS": "7"], flags: [:])
        #expect(configured.eventRetentionDays == 7)
        #expect(
            try ServiceConfiguration.resolve(fileText: nil, environment: [:], flags: [.eventRetentionDays: "0"])
                .eventRetentionDays == 0)
        for bad in ["-1", "ninety", "36501", "1.5"] {
            let error = #expect(throws: ConfigurationError.self) {
                try ServiceConfiguration.resolve(
                    fileText: nil, environment: ["PRELUDE_EVENT_RETENTION_DAYS": bad], flags: [:])
            }
            #expect(error?.setting == "PRELUDE_EVENT_RETENTION_DAYS")
            #expect(error?.problem.contains("number of days") == true)
        }
    }
}
