import CSQLite
import Testing

@testable import PreludeStorage

@Suite struct StorageErrorTests {
    let directory = TemporaryDirectory()

    @Test func failingStatementKeepsExtendedCodeMessageAndSQLButNotValues() throws {
        let database = try Database(path: directory.file("e.sqlite"), readerCount: 1)
        defer { database.close() }
        try database.write { try $0.executeScript("CREATE TABLE tokens (name TEXT UNIQUE, hash TEXT)") }
        try database.write { try $0.execute("INSERT INTO tokens VALUES (?, ?)", ["ops", "s3cr3t-hash"]) }
        let sql = "INSERT INTO tokens VALUES (?, ?)"
        let error = try #require(throws: StorageError.self) {
            try database.write { try $0.execute(sql, ["ops", "s3cr3t-hash"]) }
        }
        #expect(error.extendedCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE, a macro Swift cannot import
        #expect(error.primaryCode == SQLITE_CONSTRAINT)
        #expect(error.isConstraintViolation)
        #expect(error.message == "UNIQUE constraint failed: tokens.name")
        #expect(error.sql == sql)
        #expect(!error.description.contains("s3cr3t-hash"))
        #expect(error.description.contains("2067"))
    }

    @Test func syntaxErrorKeepsTheSQL() throws {
        let database = try Database(path: directory.file("e.sqlite"), readerCount: 1)
        defer { database.close() }
        let error = try #require(throws: StorageError.self) { try database.read { try $0.query("SELEC 1") } }
        #expect(error.primaryCode == SQLITE_ERROR)
        #expect(error.message.contains("syntax error"))
        #expect(error.sql == "SELEC 1")
    }

    @Test func openingAnImpossiblePathNamesIt() {
        let error = #expect(throws: StorageError.self) {
            try Database(path: "/nonexistent-dir/x/y.sqlite")
        }
        #expect(error?.primaryCode == SQLITE_CANTOPEN)
        #expect(error?.message.contains("/nonexistent-dir/x/y.sqlite") == true)
    }
}
