import Foundation
import PreludeTestSupport
import Testing

@testable import PreludeStorage

/// ``DataVersionWatcher`` on the suite's engine (SQLite's `data_version`, or PostgreSQL's notifications when
/// `PRELUDE_TEST_POSTGRES` names a cluster): the first look reports a change, later looks report exactly the
/// commits of other connections.
@Suite struct DataVersionWatcherTests {
    let directory = TemporaryDirectory()

    func makeDatabase() throws -> Database {
        try Database(
            location: DatabaseLocation(TestDatabase.location(file: directory.file("w.sqlite"))), readerCount: 1)
    }

    /// A commit the watcher must notice: any commit on SQLite; on PostgreSQL the notification the schema's
    /// triggers send (migrations/postgres).
    static func commitAChange(_ database: Database) throws {
        try database.write { db in
            switch db.engine {
            case .sqlite: try db.executeScript("CREATE TABLE IF NOT EXISTS t (x INTEGER); INSERT INTO t VALUES (1);")
            case .postgres: try db.execute("SELECT pg_notify(?, '')", [.text(DataVersionWatcher.channel)])
            }
        }
    }

    /// Looks until the watcher reports a change: at once on SQLite; PostgreSQL delivers a notification to a listening
    /// session shortly after the commit returns, so up to 5 s. Errors count as no change (a session being replaced).
    static func eventuallyChanged(_ watcher: DataVersionWatcher) -> Bool {
        for _ in 0..<500 {
            if (try? watcher.hasChanged()) == true { return true }
            usleep(10_000)
        }
        return false
    }

    @Test func reportsTheFirstLookAndThenEachCommitOnce() throws {
        let database = try makeDatabase()
        defer { database.close() }
        let watcher = try DataVersionWatcher(database: database)
        defer { watcher.close() }
        #expect(try watcher.hasChanged())
        #expect(try !watcher.hasChanged())
        try Self.commitAChange(database)
        #expect(Self.eventuallyChanged(watcher))
        #expect(try !watcher.hasChanged())
        guard database.engine == .sqlite else { return }  // PostgreSQL's notifications may arrive one by one
        try Self.commitAChange(database)
        try Self.commitAChange(database)
        #expect(try watcher.hasChanged())
        #expect(try !watcher.hasChanged())
    }

    /// PostgreSQL: the watcher's session ended by the server (a restart, a failover) loses the notifications sent
    /// meanwhile, so once it is subscribed again it reports a change, then only new commits.
    @Test(.enabled(if: TestDatabase.isPostgres, "needs the throwaway PostgreSQL cluster"))
    func aLostSessionIsReportedAsAChangeOnceSubscribedAgain() throws {
        let database = try makeDatabase()
        defer { database.close() }
        let watcher = try DataVersionWatcher(database: database)
        defer { watcher.close() }
        #expect(try watcher.hasChanged())
        #expect(try !watcher.hasChanged())
        try database.write { db in
            _ = try db.query(
                """
                SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN%'
                """)
        }
        // The first look meets the closed session (an error, or nothing yet); a later one subscribes again.
        #expect(Self.eventuallyChanged(watcher))
        #expect(try !watcher.hasChanged())
        try Self.commitAChange(database)
        #expect(Self.eventuallyChanged(watcher))
    }
}
