import CSQLite
import Testing

@testable import PreludeStorage

@Suite struct StatementTests {
    let directory = TemporaryDirectory()

    func makeDatabase() throws -> Database {
        let database = try Database(path: directory.file("test.sqlite"), readerCount: 2)
        try database.write { db in
            try db.executeScript(
                "CREATE TABLE t (id INTEGER PRIMARY KEY, i INTEGER, r REAL, s TEXT, b BLOB, f INTEGER)")
        }
        return database
    }

    @Test func bindsAndReadsEveryType() throws {
        let database = try makeDatabase()
        defer { database.close() }
        let blob: [UInt8] = [0, 1, 2, 255]
        try database.write { db in
            try db.execute(
                "INSERT INTO t (i, r, s, b, f) VALUES (?, ?, ?, ?, ?)",
                [Int64.max.sqlValue, 2.5.sqlValue, "héllo 🌍".sqlValue, blob.sqlValue, true.sqlValue])
            try db.execute(
                "INSERT INTO t (i, r, s, b, f) VALUES (?, ?, ?, ?, ?)", [nil, nil, nil, [UInt8]().sqlValue, false])
        }
        let rows = try database.read { try $0.query("SELECT i, r, s, b, f FROM t ORDER BY id") }
        #expect(rows.count == 2)
        #expect(try rows[0].get("i", as: Int64.self) == Int64.max)
        #expect(try rows[0].get("r", as: Double.self) == 2.5)
        #expect(try rows[0].get("s", as: String.self) == "héllo 🌍")
        #expect(try rows[0].get("b", as: [UInt8].self) == blob)
        #expect(try rows[0].get("f", as: Bool.self) == true)
        #expect(try rows[1].get("i", as: Int64?.self) == nil)
        #expect(try rows[1].get("s", as: String?.self) == nil)
        #expect(try rows[1].get("b", as: [UInt8].self) == [])
        #expect(try rows[1].get("f", as: Bool.self) == false)
        #expect(rows[1]["r"] == .null)
    }

    @Test func optionalBindsNullOrValue() throws {
        let database = try makeDatabase()
        defer { database.close() }
        let some: String? = "x"
        let none: String? = nil
        try database.write { db in
            try db.execute("INSERT INTO t (s) VALUES (?)", [some.sqlValue])
            try db.execute("INSERT INTO t (s) VALUES (?)", [none.sqlValue])
        }
        let values = try database.read { db in
            try db.query("SELECT s FROM t ORDER BY id").map { try $0.get(0, as: String?.self) }
        }
        #expect(values == ["x", nil])
    }

    @Test func decodingTheWrongTypeThrowsMismatchNamingTheColumn() throws {
        let database = try makeDatabase()
        defer { database.close() }
        try database.write { try $0.execute("INSERT INTO t (s) VALUES ('secret-value')") }
        let row = try #require(try database.read { try $0.queryOne("SELECT s FROM t") })
        let error = try #require(throws: StorageError.self) { try row.get("s", as: Int64.self) }
        #expect(error.extendedCode == SQLITE_MISMATCH)
        #expect(error.message.contains("'s'"))
        #expect(!error.description.contains("secret-value"))
    }

    @Test func reusesCachedStatements() throws {
        let database = try makeDatabase()
        defer { database.close() }
        try database.write { db in
            let first = try db.statement("INSERT INTO t (i) VALUES (?)")
            let second = try db.statement("INSERT INTO t (i) VALUES (?)")
            #expect(first === second)
            for value in 1...100 { try db.execute("INSERT INTO t (i) VALUES (?)", [.integer(Int64(value))]) }
        }
        #expect(try database.read { try $0.scalar("SELECT sum(i) FROM t", as: Int64.self) } == 5050)
    }

    @Test func rejectsWrongArgumentCount() throws {
        let database = try makeDatabase()
        defer { database.close() }
        let error = try #require(throws: StorageError.self) {
            try database.write { try $0.execute("INSERT INTO t (i, s) VALUES (?, ?)", [1]) }
        }
        #expect(error.extendedCode == SQLITE_RANGE)
        #expect(error.sql == "INSERT INTO t (i, s) VALUES (?, ?)")
    }

    @Test func rejectsSeveralStatementsInOneCall() throws {
        let database = try makeDatabase()
        defer { database.close() }
        #expect(throws: StorageError.self) {
            try database.write { try $0.execute("INSERT INTO t (i) VALUES (1); DROP TABLE t") }
        }
        #expect(try database.read { try $0.scalar("SELECT count(*) FROM t", as: Int64.self) } == 0)
    }
}
