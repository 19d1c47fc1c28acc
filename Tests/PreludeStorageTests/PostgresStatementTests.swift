import PreludeTestSupport
import Testing

@testable import PreludeStorage

/// PostgreSQL's prepared statements (docs/storage.md, "PostgreSQL"): each statement is prepared on the server once
/// per parameter types and found again without building a key per run; a reconnect prepares again. Runs when the
/// suite has a PostgreSQL cluster (`PRELUDE_TEST_POSTGRES`).
@Suite(.enabled(if: TestDatabase.isPostgres, "needs the throwaway PostgreSQL cluster")) struct PostgresStatementTests {
    static let insert = "INSERT INTO t (id, i) VALUES (?, ?)"

    func makeDatabase() throws -> Database {
        let database = try Database(
            location: DatabaseLocation(TestDatabase.location(file: "unused")), readerCount: 1)
        try database.write { try $0.executeScript("CREATE TABLE t (id BIGINT PRIMARY KEY, i BIGINT)") }
        return database
    }

    @Test func preparesEachStatementOncePerParameterTypes() throws {
        let database = try makeDatabase()
        defer { database.close() }
        let prepared = try database.write { db in
            for id in Int64(1)...50 { try db.execute(Self.insert, [.integer(id), .integer(id)]) }
            // A NULL is sent untyped, so the same text needs a second prepared statement.
            for id in Int64(51)...60 { try db.execute(Self.insert, [.integer(id), .null]) }
            return try db.scalar(
                "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE 'INSERT INTO t %'", as: Int64.self)
        }
        #expect(prepared == 2)
        let totals = try database.read { db in
            try db.queryOne("SELECT sum(i), count(*) - count(i) FROM t").map {
                [try $0.get(0, as: Int64.self), try $0.get(1, as: Int64.self)]
            }
        }
        #expect(totals == [1275, 10])
    }

    @Test func preparesAgainAfterTheServerEndedTheSession() throws {
        let database = try makeDatabase()
        defer { database.close() }
        let connection = try database.openConnection(readOnly: false)
        defer { connection.close() }
        try connection.execute(Self.insert, [.integer(1), .integer(1)])
        let backend = try #require(try connection.scalar("SELECT pg_backend_pid()", as: Int64.self))
        // Waits up to 5 s for the session to be gone (PostgreSQL 14+), so the next statement meets the drop.
        let terminated = try database.write { db in
            try db.scalar("SELECT pg_terminate_backend(\(backend), 5000)", as: Bool.self)
        }
        #expect(terminated == true)

        #expect(throws: StorageError.self) { try connection.execute(Self.insert, [.integer(2), .integer(2)]) }
        // The session is new: its server knows none of the old prepared statements, so this one is prepared again.
        try connection.execute(Self.insert, [.integer(3), .integer(3)])
        #expect(try connection.scalar("SELECT pg_backend_pid()", as: Int64.self) != backend)
        #expect(try database.read { try $0.scalar("SELECT count(*) FROM t", as: Int64.self) } == 2)
    }
}
