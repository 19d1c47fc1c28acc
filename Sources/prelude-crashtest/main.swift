// Writer half of the kill -9 durability test (docs/storage.md). Each iteration, in one write
// transaction, reads the version, bumps it with a 2 KB body and appends an audit row; only after
// `write` returns (COMMIT done) does it print the new version: that line is the acknowledgement.
// The test SIGKILLs this process at an arbitrary point and checks every acknowledged version survived.
import Foundation
import PreludeStorage

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: prelude-crashtest DATABASE\n".utf8))
    exit(64)
}
do {
    let database = try Database(path: CommandLine.arguments[1], readerCount: 1)
    try database.write { db in
        try db.executeScript(
            """
            CREATE TABLE IF NOT EXISTS policy (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL, body TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS audit (seq INTEGER PRIMARY KEY);
            INSERT OR IGNORE INTO policy VALUES (1, 0, '');
            """)
    }
    let body = String(repeating: "x", count: 2048)
    while true {
        let version = try database.write { db -> Int64 in
            let current = try db.scalar("SELECT version FROM policy WHERE id = 1", as: Int64.self) ?? 0
            try db.execute(
                "UPDATE policy SET version = ?, body = ? WHERE id = 1", [.integer(current + 1), .text(body)])
            try db.execute("INSERT INTO audit (seq) VALUES (?)", [.integer(current + 1)])
            return current + 1
        }
        // One write(2) per ack, no stdio buffer: once it returns, the line is in the pipe even if we die next.
        let line = Array("\(version)\n".utf8)
        _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    }
} catch {
    FileHandle.standardError.write(Data("prelude-crashtest: \(error)\n".utf8))
    exit(1)
}
