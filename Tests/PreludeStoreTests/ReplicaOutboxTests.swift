import Foundation
import PreludeCore
import PreludeStorage
import PreludeStore
import PreludeStoreTestSupport
import PreludeTestSupport
import Testing

/// A read replica's outbox: what the forwarder reads back, batch by batch; on both engines.
@Suite struct ReplicaOutboxTests {
    @Test func aReplicasOutboxForwardsEachSegmentInItsOwnBatch() throws {
        let fixture = try ResultsFixture(onTheLane: true)
        let replica = EventIngestor(database: fixture.database, table: .outbox, clock: .fixed(1_700_000_000_000))
        func batch(_ ids: [String], _ segment: EventSegment) -> [IncomingEvent] {
            ids.map {
                IncomingEvent(
                    id: $0, installID: "i", type: .primeShown, feature: .camera, occurredAt: 1_700_000_000_000,
                    segment: segment)
            }
        }
        let french = EventSegment(osMajor: 18, locale: "fr-CA")
        _ = try replica.ingest(app: ResultsFixture.app, events: batch(["a", "b"], french))
        _ = try replica.ingest(app: ResultsFixture.app, events: batch(["c"], EventSegment()))
        _ = try replica.ingest(app: ResultsFixture.app, events: batch(["d"], french))
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
