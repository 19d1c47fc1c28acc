import Dispatch
import PreludeCore
import PreludeStorage
import PreludeStoreTestSupport
import PreludeTestSupport
import Synchronization
import Testing

@testable import PreludeStore

/// The ingestor's group commit and the events table's one index; on both engines.
@Suite struct EventIngestorTests {
    @Test func concurrentBatchesAreAllStoredAndGroupCommitted() throws {
        let fixture = try ResultsFixture(onTheLane: true)
        let database = fixture.database
        let ingestor = EventIngestor(database: database)
        let batches = 64
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: batches) { b in
            let events = (0..<100).map {
                IncomingEvent(
                    id: "b\(b)-e\($0)", installID: "i\($0 % 7)", type: .primeShown, feature: .camera,
                    experiment: nil, variant: nil, occurredAt: 1_763_814_600_000)
            }
            do {
                let outcome = try ingestor.ingest(app: "demo", events: events)
                if outcome.accepted != 100 { failures.withLock { $0 += 1 } }
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        let stored = try database.read { try $0.scalar("SELECT count(*) FROM events", as: Int64.self) }
        #expect(stored == Int64(batches * 100))
        let stats = ingestor.statistics
        #expect(stats.batches == batches)
        #expect(stats.accepted == batches * 100)
        #expect(stats.duplicates == 0)
        #expect(stats.failedBatches == 0)
        #expect(stats.transactions <= batches)
    }

    /// Every index on `events` is paid by every insert; after 0003 and 0004 only the dedupe key is left, and since
    /// 0007 it is an expression index (app, then install and id in an order that depends on the id's shape).
    @Test(.enabled(if: !TestDatabase.isPostgres, "SQLite schema")) func theDedupeKeyIsTheEventsTablesOnlyIndex() throws
    {
        let fixture = try ResultsFixture(onTheLane: true)
        let database = fixture.database
        let indexes = try database.read { db in
            try db.query("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events'")
                .map { try $0.get(0, as: String.self) }
        }
        #expect(indexes == ["events_dedupe"])
        let unique = try database.read { db in
            try db.scalar(
                "SELECT \"unique\" FROM pragma_index_list('events') WHERE name = 'events_dedupe'", as: Int64.self)
        }
        #expect(unique == 1)
    }

    /// Batches submitted while a commit is under way are stored together by the next one: with the writer held,
    /// every submit returns at once and the queue is committed in as few transactions as the size cap allows.
    @Test(arguments: [
        (batches: 40, eventsEach: 100, maxTransactions: 2), (batches: 24, eventsEach: 500, maxTransactions: 4),
    ])
    func batchesQueuedDuringACommitShareTheNextOne(batches: Int, eventsEach: Int, maxTransactions: Int) throws {
        let fixture = try ResultsFixture(onTheLane: true)
        let database = fixture.database
        let ingestor = EventIngestor(database: database)
        let holdWriter = DispatchSemaphore(value: 0)
        let writerHeld = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? database.write { _ in
                writerHeld.signal()
                holdWriter.wait()
            }
        }
        writerHeld.wait()
        let outcomes = Mutex<[Int: Result<EventIngestor.Outcome, any Error>]>([:])
        let completed = DispatchGroup()
        for b in 0..<batches {
            let events = (0..<eventsEach).map {
                IncomingEvent(
                    id: "b\(b)-e\($0)", installID: "install-\(b)", type: .primeShown, feature: .camera,
                    experiment: nil, variant: nil, occurredAt: 1_763_814_600_000)
            }
            completed.enter()
            ingestor.submit(app: "demo", events: events) { result in
                outcomes.withLock { $0[b] = result }
                completed.leave()
            }
        }
        // Nothing can be acknowledged while the writer is held.
        #expect(outcomes.withLock { $0.isEmpty })
        holdWriter.signal()
        completed.wait()
        for b in 0..<batches {
            let outcome = try #require(outcomes.withLock { $0[b] }).get()
            #expect(outcome == EventIngestor.Outcome(accepted: eventsEach, duplicates: 0))
        }
        let stored = try database.read { try $0.scalar("SELECT count(*) FROM events", as: Int64.self) }
        #expect(stored == Int64(batches * eventsEach))
        let stats = ingestor.statistics
        #expect(stats.batches == batches)
        // The first group may have left before the rest queued; everything else waited for the writer.
        let groupsNeeded =
            (batches * eventsEach + EventIngestor.maxEventsPerCommit - 1) / EventIngestor.maxEventsPerCommit
        #expect(stats.transactions >= groupsNeeded)
        #expect(stats.transactions <= maxTransactions)
    }
}
