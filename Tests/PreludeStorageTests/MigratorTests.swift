import Foundation
import Testing

@testable import PreludeStorage

@Suite struct MigratorTests {
    let directory = TemporaryDirectory()

    static func make(_ specs: [(Int, String, String)]) -> [Migration] {
        specs.map { Migration(number: $0.0, name: String(format: "%04d_%@", $0.0, $0.1), sql: $0.2) }
    }

    static let base = make([
        (1, "first", "CREATE TABLE a (x INTEGER);"),
        (2, "second", "INSERT INTO a VALUES (1); ALTER TABLE a ADD COLUMN y TEXT;"),
    ])

    func openDatabase() throws -> Database { try Database(path: directory.file("m.sqlite"), readerCount: 1) }

    @Test func appliesInOrderWithLedgerRows() throws {
        let database = try openDatabase()
        defer { database.close() }
        // Given out of order: the migrator sorts by number, else migration 2 would fail on a missing table.
        let applied = try Migrator(migrations: Self.base.reversed()).migrate(database)
        #expect(applied == ["0001_first", "0002_second"])
        let ledger = try database.read { db in
            try db.query("SELECT number, name, checksum FROM schema_migrations ORDER BY number").map {
                [try $0.get("name", as: String.self), try $0.get("checksum", as: String.self)]
            }
        }
        #expect(ledger == Self.base.map { [$0.name, $0.checksum] })
        #expect(try database.read { try $0.scalar("SELECT count(*) FROM a WHERE y IS NULL", as: Int64.self) } == 1)
    }

    @Test func secondRunIsANoOp() throws {
        let database = try openDatabase()
        defer { database.close() }
        let migrator = Migrator(migrations: Self.base)
        try migrator.migrate(database)
        #expect(try migrator.migrate(database) == [])
        #expect(migrator.isUpToDate(database))
        #expect(try database.read { try $0.scalar("SELECT count(*) FROM a", as: Int64.self) } == 1)
    }

    @Test func appliesOnlyNewMigrations() throws {
        let database = try openDatabase()
        defer { database.close() }
        try Migrator(migrations: [Self.base[0]]).migrate(database)
        #expect(try Migrator(migrations: Self.base).migrate(database) == ["0002_second"])
    }

    @Test func refusesAChangedChecksum() throws {
        let database = try openDatabase()
        defer { database.close() }
        try Migrator(migrations: Self.base).migrate(database)
        let edited = Self.make([
            (1, "first", "CREATE TABLE a (x INTEGER, z INTEGER);"), (2, "second", Self.base[1].sql),
        ])
        let error = try #require(throws: MigrationError.self) { try Migrator(migrations: edited).migrate(database) }
        guard case .checksumMismatch(let name, _, _) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(name == "0001_first")
        #expect(error.description.contains("refusing to start"))
    }

    @Test func refusesAnUnknownAppliedMigration() throws {
        let database = try openDatabase()
        defer { database.close() }
        try Migrator(migrations: Self.base).migrate(database)
        let error = try #require(throws: MigrationError.self) {
            try Migrator(migrations: [Self.base[0]]).migrate(database)
        }
        #expect(error == .unknownMigration(name: "0002_second"))
        #expect(!Migrator(migrations: [Self.base[0]]).isUpToDate(database))
    }

    @Test func failingMigrationLeavesNoLedgerRowAndNoPartialSchema() throws {
        let database = try openDatabase()
        defer { database.close() }
        let broken = Self.make([(1, "first", "CREATE TABLE a (x INTEGER);"), (2, "bad", "CREATE TABLE b (x); SELEC;")])
        #expect(throws: StorageError.self) { try Migrator(migrations: broken).migrate(database) }
        let (ledger, tableB) = try database.read { db in
            (
                try db.scalar("SELECT count(*) FROM schema_migrations", as: Int64.self),
                try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'b'", as: Int64.self)
            )
        }
        #expect(ledger == 1)
        #expect(tableB == 0)
    }

    @Test func catalogLoadsNumberedFilesInOrder() throws {
        directory.write("0002_b.sql", "SELECT 2;")
        directory.write("0001_a.sql", "SELECT 1;")
        directory.write("README.md", "ignored")
        let migrations = try MigrationCatalog.load(directory: directory.path)
        #expect(migrations.map(\.name) == ["0001_a", "0002_b"])
        #expect(migrations.map(\.number) == [1, 2])
    }

    @Test(arguments: ["1_a.sql", "0001.sql", "00a1_x.sql", "0001-x.sql"])
    func catalogRejectsBadFileNames(file: String) throws {
        directory.write(file, "SELECT 1;")
        #expect(throws: MigrationError.badFileName(file)) { try MigrationCatalog.load(directory: directory.path) }
    }

    @Test func catalogRejectsDuplicateNumbers() throws {
        directory.write("0001_a.sql", "SELECT 1;")
        directory.write("0001_b.sql", "SELECT 1;")
        #expect(throws: MigrationError.duplicateNumber(1, ["0001_a", "0001_b"])) {
            try MigrationCatalog.load(directory: directory.path)
        }
    }

    @Test func catalogReportsAMissingDirectory() {
        let error = #expect(throws: MigrationError.self) {
            try MigrationCatalog.load(directory: directory.file("nope"))
        }
        #expect(error?.description.contains("PRELUDE_MIGRATIONS_DIR") == true)
    }

    @Test func repositoryMigrationsApplyCleanly() throws {
        // The real migrations/ folder at the package root, found from this source file.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let migrations = try MigrationCatalog.load(directory: root.appendingPathComponent("migrations").path)
        #expect(migrations.first?.name == "0001_initial")
        let database = try openDatabase()
        defer { database.close() }
        try Migrator(migrations: migrations).migrate(database)
        let tables = try database.read { db in
            try db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map {
                try $0.get(0, as: String.self)
            }
        }
        for table in ["apps", "audit_log", "events", "policy_revisions", "schema_migrations", "tokens"] {
            #expect(tables.contains(table))
        }
        // Revisions are immutable; events dedupe on the client's id.
        try database.write { db in
            try db.execute("INSERT INTO apps (id, name, created_at, updated_at) VALUES ('a', 'A', 0, 0)")
            try db.execute(
                "INSERT INTO policy_revisions (app_id, number, document, etag, created_at, author) VALUES ('a', 1, '{}', 'e', 0, 't')"
            )
            try db.execute(
                "INSERT INTO environments (app_id, name, live_revision, created_at, updated_at) VALUES ('a', 'production', 1, 0, 0)"
            )
        }
        #expect(throws: StorageError.self) {
            try database.write { try $0.execute("UPDATE policy_revisions SET document = '[]'") }
        }
        let insertEvent =
            "INSERT INTO events (app_id, install_id, client_event_id, type, feature, occurred_at, received_at) VALUES ('a', 'i', 'c1', 'prime_shown', 'camera', 0, 0) ON CONFLICT DO NOTHING"
        let changes = try database.write { db in
            try db.execute(insertEvent)
            let first = db.changes
            try db.execute(insertEvent)
            return [first, db.changes]
        }
        #expect(changes == [1, 0])
    }
}

@Suite struct ConcurrentMigrationTests {
    let directory = TemporaryDirectory()

    // Sequential, not an interleaving test: the in-transaction re-check in `migrate` is not forced here.
    @Test func secondProcessMigratingTheSameFileAppliesNothing() throws {
        // Two Database objects on one file stand for two processes (each has its own writer connection).
        let first = try Database(path: directory.file("c.sqlite"), readerCount: 1)
        let second = try Database(path: directory.file("c.sqlite"), readerCount: 1)
        defer {
            first.close()
            second.close()
        }
        let migrator = Migrator(migrations: MigratorTests.base)
        #expect(try migrator.migrate(first) == ["0001_first", "0002_second"])
        #expect(try migrator.migrate(second) == [])
        #expect(try second.read { try $0.scalar("SELECT count(*) FROM a", as: Int64.self) } == 1)
    }
}
