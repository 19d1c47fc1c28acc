import Foundation
import PreludeStorage
import PreludeTestSupport
import Testing

@testable import PreludeStore

/// `prelude copy` knows every table (docs/architecture.md, "A new table"): a table the migrations create and
/// `DatabaseCopy.tableOrder` lacks makes the copy refuse the database, and a name there that no migration creates is a
/// stale entry. On the suite's engine (SQLite, or PostgreSQL with its own migrations on its lane).
@Suite struct DatabaseCopyTablesTests {
    @Test func theCopyOrderNamesEveryTableTheMigrationsCreate() throws {
        let database = try FunnelColumnsTests.makeDatabase()
        defer { database.close() }
        let created = Set(try database.read { try $0.tableNames() }).subtracting(["schema_migrations"])
        #expect(Set(DatabaseCopy.tableOrder).count == DatabaseCopy.tableOrder.count, "a table is listed twice")
        #expect(
            created.subtracting(DatabaseCopy.tableOrder).isEmpty,
            "tables prelude copy does not know: \(created.subtracting(DatabaseCopy.tableOrder).sorted())")
        #expect(
            Set(DatabaseCopy.tableOrder).subtracting(created).isEmpty,
            "tables no migration creates: \(Set(DatabaseCopy.tableOrder).subtracting(created).sorted())")
    }
}
