#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// Applies migrations in order, each in one `BEGIN IMMEDIATE` transaction together with its ledger row
/// in `schema_migrations`, so a crash leaves either both or neither.
package struct Migrator: Sendable {
    /// The migrations this build knows, ordered by number.
    package let migrations: [Migration]

    /// The ledger: one row per applied migration.
    static let ledgerSQL = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            number INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            checksum TEXT NOT NULL,
            applied_at TEXT NOT NULL
        ) STRICT;
        """

    /// The schema version this build's migrations reach: the highest number (17 is the same schema on SQLite,
    /// reached by 17 files, and on PostgreSQL, by one).
    package var schemaVersion: Int { migrations.last?.number ?? 0 }

    /// Creates a migrator; duplicate numbers are a programmer error here (the catalogue checks files).
    package init(migrations: [Migration]) {
        precondition(Set(migrations.map(\.number)).count == migrations.count, "duplicate migration numbers")
        self.migrations = migrations.sorted { $0.number < $1.number }
    }

    /// Applies every pending migration and returns the names applied (empty when up to date).
    ///
    /// Before applying anything it checks the ledger: an applied migration whose checksum changed, or one
    /// this build does not know, throws `MigrationError` and nothing is applied.
    /// PostgreSQL's ledger (the same columns; `STRICT` is SQLite's).
    static let postgresLedgerSQL = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            number BIGINT PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            checksum TEXT NOT NULL,
            applied_at TEXT NOT NULL
        );
        """

    /// The advisory lock key `prelude migrate` holds on PostgreSQL for each step ("prelude" in ASCII), so two
    /// processes starting at once apply each migration once; SQLite's `BEGIN IMMEDIATE` does the same there.
    static let postgresLockKey: Int64 = 0x7072_656C_7564_65

    @discardableResult
    package func migrate(_ database: Database) throws -> [String] {
        try database.write { db in
            if db.engine == .postgres {
                try db.execute("SELECT pg_advisory_xact_lock(?)", [.integer(Self.postgresLockKey)])
                try db.executeScript(Self.postgresLedgerSQL)
            } else {
                try db.executeScript(Self.ledgerSQL)
            }
        }
        let pending = try pendingMigrations(database)
        var applied: [String] = []
        for migration in pending {
            let didApply = try database.write { db -> Bool in
                if db.engine == .postgres {
                    try db.execute("SELECT pg_advisory_xact_lock(?)", [.integer(Self.postgresLockKey)])
                }
                // Another process (a second `prelude migrate`, a replica starting) may have applied it since we
                // looked; BEGIN IMMEDIATE serializes us behind it, so checking again here is exact.
                let done = try db.scalar(
                    "SELECT checksum FROM schema_migrations WHERE name = ?", [.text(migration.name)], as: String.self)
                if let done {
                    guard done == migration.checksum else {
                        throw MigrationError.checksumMismatch(
                            name: migration.name, applied: done, current: migration.checksum)
                    }
                    return false
                }
                try db.executeScript(migration.sql)
                try db.execute(
                    "INSERT INTO schema_migrations (number, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
                    [
                        .integer(Int64(migration.number)), .text(migration.name), .text(migration.checksum),
                        .text(Self.timestamp()),
                    ])
                return true
            }
            if didApply { applied.append(migration.name) }
        }
        return applied
    }

    /// The migrations not yet applied, after checking the ledger for changed or unknown ones.
    package func pendingMigrations(_ database: Database) throws -> [Migration] {
        let applied = try appliedMigrations(database)
        let known = Dictionary(uniqueKeysWithValues: migrations.map { ($0.name, $0) })
        for (name, checksum) in applied.sorted(by: { $0.key < $1.key }) {
            guard let migration = known[name] else { throw MigrationError.unknownMigration(name: name) }
            guard migration.checksum == checksum else {
                throw MigrationError.checksumMismatch(name: name, applied: checksum, current: migration.checksum)
            }
        }
        return migrations.filter { applied[$0.name] == nil }
    }

    /// True when the ledger holds exactly this build's migrations with matching checksums.
    package func isUpToDate(_ database: Database) -> Bool {
        (try? pendingMigrations(database).isEmpty) ?? false
    }

    /// Ledger rows, name → checksum; empty when the ledger does not exist yet.
    package func appliedMigrations(_ database: Database) throws -> [String: String] {
        try database.read { db in
            guard try db.tableExists("schema_migrations") else { return [:] }
            var result: [String: String] = [:]
            for row in try db.query("SELECT name, checksum FROM schema_migrations") {
                result[try row.get("name")] = try row.get("checksum")
            }
            return result
        }
    }

    private static func timestamp() -> String {
        Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
