import Foundation
import PreludeStorage
import PreludeTestSupport
import Testing

/// docs/storage.md's "Schema" lists every table the migrations create: a new table without a line there fails here,
/// and so does a line for a table no migration creates. SQLite always; PostgreSQL's set too when the suite has a
/// cluster (`PRELUDE_TEST_POSTGRES`).
@Suite struct StorageDocsTests {
    static let repository = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/")

    /// The first column of the table under "## Schema" (the text between its first backticks), in order.
    static func documentedTables() throws -> [String] {
        let text = try String(contentsOfFile: repository + "/docs/storage.md", encoding: .utf8)
        var names: [String] = []
        var inSchema = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { inSchema = line == "## Schema" }
            guard inSchema, line.hasPrefix("| `") else { continue }
            let name = line.dropFirst(3).prefix { $0 != "`" }
            names.append(String(name))
        }
        return names
    }

    /// The tables a new database holds after every migration of `folder`.
    static func migratedTables(_ location: String, folder: String) throws -> [String] {
        let database = try Database(location: DatabaseLocation(location), readerCount: 1)
        defer { database.close() }
        _ = try Migrator(migrations: MigrationCatalog.load(directory: repository + "/" + folder)).migrate(database)
        return try database.read { try $0.tableNames() }
    }

    @Test func theSchemaSectionListsEveryTableOnce() throws {
        let documented = try Self.documentedTables()
        #expect(documented.count > 10, "the Schema section's table was not found")
        #expect(Set(documented).count == documented.count, "a table is listed twice: \(documented)")
    }

    @Test func everyTableSQLiteMigrationsCreateIsDocumented() throws {
        let directory = TemporaryDirectory()
        let created = try Self.migratedTables(directory.file("schema.sqlite"), folder: "migrations")
        #expect(try created.sorted() == Self.documentedTables().sorted())
    }

    @Test(.enabled(if: TestDatabase.isPostgres, "needs the throwaway PostgreSQL cluster"))
    func everyTablePostgreSQLMigrationsCreateIsDocumented() throws {
        let created = try Self.migratedTables(
            TestDatabase.location(file: "unused"), folder: "migrations/postgres")
        #expect(try created.sorted() == Self.documentedTables().sorted())
    }
}
