import Foundation
import PreludeCore
import PreludeStorage
import PreludeStoreTestSupport
import PreludeTestSupport
import Testing

@testable import PreludeStore

/// Migration 0007: the events table is rebuilt with the dedupe index ordering UUIDv7 ids by time
/// (docs/storage.md, "Dedupe index").
@Suite(.enabled(if: !TestDatabase.isPostgres, "SQLite's dedupe index pages")) struct DedupeIndexTests {
    static let allMigrations = try! MigrationCatalog.load(directory: ResultsFixture.repositoryRoot + "/migrations")

    /// A UUIDv7 for `milliseconds`, as the SDK makes them (the low bits from `serial`).
    static func uuid7(_ milliseconds: Int64, _ serial: Int) -> String {
        let time = String(UInt64(milliseconds), radix: 16)
        let padded = String(repeating: "0", count: 12 - time.count) + time
        let tail = String(serial, radix: 16)
        let low = String(repeating: "0", count: 12 - tail.count) + tail
        let characters = Array(padded)
        return "\(String(characters[0..<8]))-\(String(characters[8..<12]))-7abc-9def-\(low)"
    }

    static func event(_ id: String, install: String) -> IncomingEvent {
        IncomingEvent(
            id: id, installID: install, type: .primeShown, feature: .camera, experiment: nil, variant: nil,
            occurredAt: 1_763_814_600_000)
    }

    /// A database migrated through 0005 (the old dedupe constraint) with `events` stored, then migrated to the end:
    /// every row survives with its rowid, resending them stores nothing, and dedupe stays per install.
    @Test func migratingKeepsEveryEventAndDeduplicatesAsBefore() throws {
        let fixture = try ResultsFixture()
        let database = try Database(path: fixture.directory + "/old.sqlite", readerCount: 1)
        defer { database.close() }
        _ = try Migrator(migrations: Self.allMigrations.filter { $0.number <= 5 }).migrate(database)
        // The app as a build of the 0005 era stored it (today's DemoSeeder writes 0011's environments too).
        try database.write { db in
            try db.execute(
                "INSERT INTO apps (id, name, live_revision, created_at, updated_at) VALUES ('demo', 'Demo', NULL, 0, 0)"
            )
        }
        let ingestor = EventIngestor(database: database)
        let events =
            (0..<60).map { Self.event(Self.uuid7(1_763_814_600_000 + Int64($0), $0), install: "install-\($0 % 7)") }
            + (0..<60).map { Self.event("e-\($0)", install: "install-\($0 % 5)") }
        // Stored as a build of the 0005 era stored them: its insert had none of the columns added since (0010's task).
        try database.write { db in
            let insert = try db.statement(
                """
                INSERT INTO events (app_id, install_id, client_event_id, type, feature, occurred_at, received_at)
                VALUES ('demo', ?, ?, 'primeShown', 'camera', 1763814600000, 1763814700000)
                """)
            for event in events { try insert.execute([.text(event.installID), .text(event.id)]) }
        }
        #expect(try database.read { try $0.scalar("SELECT count(*) FROM events", as: Int.self) } == 120)
        let query = "SELECT id, install_id, client_event_id, received_at FROM events ORDER BY id"
        func rows() throws -> [String] {
            try database.read { db in
                try db.query(query).map {
                    "\(try $0.get(0, as: Int64.self)) \(try $0.get(1, as: String.self)) "
                        + "\(try $0.get(2, as: String.self)) \(try $0.get(3, as: Int64.self))"
                }
            }
        }
        let before = try rows()

        let applied = try Migrator(migrations: Self.allMigrations).migrate(database)
        #expect(applied.contains("0007_events_dedupe_by_time"))
        #expect(try rows() == before)
        let integrity = try database.read { try $0.scalar("PRAGMA integrity_check", as: String.self) }
        #expect(integrity == "ok")

        let again = try ingestor.ingest(app: "demo", events: events)
        #expect(again == EventIngestor.Outcome(accepted: 0, duplicates: 120))
        // The same ids under other installs are other events, in both key orders.
        let elsewhere = [
            Self.event(Self.uuid7(1_763_814_600_000, 0), install: "install-other"),
            Self.event("e-0", install: "install-other"),
        ]
        let outcome = try ingestor.ingest(app: "demo", events: elsewhere + elsewhere)
        #expect(outcome == EventIngestor.Outcome(accepted: 2, duplicates: 2))
        #expect(try rows().count == 122)
    }

    /// Frames in the WAL = pages the last commit dirtied (the WAL is emptied before it).
    func framesWritten(by events: [IncomingEvent], database: Database, ingestor: EventIngestor) throws -> Int64 {
        database.waitForBackgroundCheckpoints()
        let busy = try database.writeWithoutTransaction { db in
            try db.query("PRAGMA wal_checkpoint(TRUNCATE)").first!.get(0, as: Int64.self)
        }
        #expect(busy == 0)
        #expect(try ingestor.ingest(app: "demo", events: events).accepted == events.count)
        database.waitForBackgroundCheckpoints()
        let frames = try database.writeWithoutTransaction { db in
            try db.query("PRAGMA wal_checkpoint(PASSIVE)").first!.get(1, as: Int64.self)
        }
        #expect(frames > 0)
        return frames
    }

    /// The point of 0007: a batch mixing 100 installs whose ids are UUIDv7 dirties a few pages, not one per install,
    /// while ids of another shape keep the per-install order (and its one page per install).
    @Test func aBatchMixingInstallsWithTimeOrderedIdsDirtiesFewPages() throws {
        let fixture = try ResultsFixture()
        let database = fixture.database
        let ingestor = EventIngestor(database: database)
        // Earlier traffic from 300 installs, so each install's keys span their own pages.
        let start: Int64 = 1_763_800_000_000
        for round in 0..<20 {
            let batch = (0..<500).map { n in
                let serial = round * 500 + n
                return Self.event(Self.uuid7(start + Int64(serial), serial), install: "install-\(n % 300)")
            }
            _ = try ingestor.ingest(app: "demo", events: batch)
            _ = try ingestor.ingest(
                app: "demo", events: batch.map { Self.event("c-\($0.id)", install: $0.installID) })
        }
        let later = start + 3_600_000
        let timeOrdered = (0..<400).map {
            Self.event(Self.uuid7(later + Int64($0), $0), install: "install-\($0 % 100)")
        }
        let otherShape = (0..<400).map { Self.event("c-late-\($0)", install: "install-\($0 % 100)") }

        let timeOrderedFrames = try framesWritten(by: timeOrdered, database: database, ingestor: ingestor)
        let otherFrames = try framesWritten(by: otherShape, database: database, ingestor: ingestor)
        // 400 events of about 120 bytes in the table and 70 in the index: a few pages of each, plus the tree above.
        #expect(timeOrderedFrames < 40, "UUIDv7 ids from 100 installs dirtied \(timeOrderedFrames) pages")
        #expect(otherFrames > 100, "per-install ids dirtied only \(otherFrames) pages: the measure is not working")
    }
}
