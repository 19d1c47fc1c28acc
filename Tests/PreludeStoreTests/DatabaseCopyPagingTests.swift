import Foundation
import PreludeStorage
import PreludeTestSupport
import Testing

@testable import PreludeStore

/// `prelude copy` reads each table page by page after the last key it copied (keyset pagination), falling back to
/// OFFSET for a table without a key. The source is the suite's engine (SQLite, or PostgreSQL when
/// `PRELUDE_TEST_POSTGRES` names a cluster); tables of several pages, a page count that divides the rows exactly, and
/// keys whose order depends on the engine's collation.
@Suite struct DatabaseCopyPagingTests {
    let directory: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("prelude-copy-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        return path.path
    }()

    /// Tables of both engines' spelling: a composite text and integer key (SQLite: `WITHOUT ROWID`), a single
    /// integer key that is not SQLite's rowid, and a table without a key holding duplicate rows.
    static func createTables(_ db: Connection) throws {
        let withoutRowID = db.engine == .sqlite ? " WITHOUT ROWID" : ""
        try db.executeScript(
            """
            CREATE TABLE keyed (a TEXT NOT NULL, b BIGINT NOT NULL, v TEXT, PRIMARY KEY (a, b))\(withoutRowID);
            CREATE TABLE numbered (id BIGINT PRIMARY KEY, v TEXT);
            CREATE TABLE loose (v TEXT, n BIGINT);
            """)
    }

    static let keys = ["a", "B", "b", "é", "Z", "a b", "ab", ""]

    static func fill(_ db: Connection) throws {
        for (index, key) in keys.enumerated() {
            for b in Int64(0)..<4 {
                try db.execute(
                    "INSERT INTO keyed (a, b, v) VALUES (?, ?, ?)", [.text(key), .integer(b - 1), .text("\(index)")])
            }
        }
        for id in Int64(1)...21 {
            try db.execute("INSERT INTO numbered (id, v) VALUES (?, ?)", [.integer(id * 7 % 23), .text("n\(id)")])
        }
        for n in Int64(0)..<9 {
            try db.execute(
                "INSERT INTO loose (v, n) VALUES (?, ?)", [.text(n % 3 == 0 ? "same" : "v\(n)"), .integer(n / 2)])
        }
    }

    static func rows(_ table: String, _ db: Connection) throws -> [String] {
        try db.query("SELECT * FROM \(table)").map { "\($0.values)" }.sorted()
    }

    /// The source on the suite's engine; the target a SQLite file, or on PostgreSQL's lane a second database.
    func makeDatabases() throws -> (source: Database, target: Database) {
        let source = try Database(
            location: DatabaseLocation(TestDatabase.location(file: directory + "/source.sqlite")), readerCount: 1)
        let target = try Database(
            location: DatabaseLocation(TestDatabase.location(file: directory + "/target.sqlite")), readerCount: 1)
        try source.write { db in
            try Self.createTables(db)
            try Self.fill(db)
        }
        try target.write(Self.createTables)
        return (source, target)
    }

    @Test(arguments: [1, 4, 5, 32, 2000])
    func copiesEveryRowOnceWhateverThePageSize(batchSize: Int) throws {
        let (source, target) = try makeDatabases()
        defer {
            source.close()
            target.close()
        }
        let counts = try source.read { from in
            try target.write { to in
                try ["keyed", "numbered", "loose"].map {
                    try DatabaseCopy.copyTable($0, from: from, to: to, batchSize: batchSize)
                }
            }
        }
        #expect(counts == [32, 21, 9])
        for table in ["keyed", "numbered", "loose"] {
            let original = try source.read { try Self.rows(table, $0) }
            let copied = try target.read { try Self.rows(table, $0) }
            #expect(copied == original, "\(table) with pages of \(batchSize)")
        }
    }

    @Test func pagesByAUniqueKeyThatIsNeverNull() throws {
        let (source, target) = try makeDatabases()
        defer {
            source.close()
            target.close()
        }
        let keys = try source.read { db in
            try ["keyed", "numbered", "loose"].map { try DatabaseCopy.pagingKey($0, on: db) }
        }
        switch source.engine {
        case .sqlite: #expect(keys == [["a", "b"], ["rowid"], ["rowid"]])
        case .postgres: #expect(keys == [["a", "b"], ["id"], nil])
        }
    }
}
