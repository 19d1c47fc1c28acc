import CSQLite
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import PreludeStorage

@Suite struct DatabaseTests {
    let directory = TemporaryDirectory()

    func makeDatabase() throws -> Database {
        let database = try Database(path: directory.file("db.sqlite"), readerCount: 2)
        try database.write { try $0.executeScript("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)") }
        return database
    }

    struct Boom: Error {}

    @Test func writeRollsBackWhenTheBodyThrows() throws {
        let database = try makeDatabase()
        defer { database.close() }
        #expect(throws: Boom.self) {
            try database.write { db in
                try db.execute("INSERT INTO t (v) VALUES ('a')")
                throw Boom()
            }
        }
        #expect(try database.read { try $0.scalar("SELECT count(*) FROM t", as: Int64.self) } == 0)
        // The writer is usable again: no transaction was left open.
        try database.write { try $0.execute("INSERT INTO t (v) VALUES ('b')") }
        #expect(try database.read { try $0.scalar("SELECT count(*) FROM t", as: Int64.self) } == 1)
    }

    /// The write and outcome observers are called at the same stack depth after a thousand transactions as after
    /// the first. They used to be held as a lock's generic value, which wrapped them in two more reabstraction thunks
    /// at every transaction: a call went 2n frames deep after n commits (the server's CPU grew with every commit, and
    /// its stack would have overflowed), docs/storage.md "Observers".
    @Test func observersStayAtTheSameDepthAcrossTransactions() throws {
        let database = try makeDatabase()
        defer { database.close() }
        let depths = Mutex<(writes: [UInt], outcomes: [UInt])>(([], []))
        database.observeWrites { _ in
            let address = Self.stackAddress()
            depths.withLock { $0.writes.append(address) }
        }
        database.observeWriteOutcomes { _ in
            let address = Self.stackAddress()
            depths.withLock { $0.outcomes.append(address) }
        }
        for index in 0..<1_000 {
            try database.write { try $0.execute("INSERT INTO t (v) VALUES (?)", [.text("row \(index)")]) }
        }
        let (writes, outcomes) = depths.withLock { $0 }
        #expect(writes.count == 1_000 && outcomes.count == 1_000)
        // Same thread, same path: the same stack address (a thunk more per commit would be 32 KiB deeper by now).
        for series in [writes, outcomes] {
            let first = try #require(series.first)
            let last = try #require(series.last)
            #expect(first == last, "the observer was called \(Int(bitPattern: first &- last)) bytes deeper")
        }
    }

    /// The address of a local of the caller's next frame: lower when the call stack is deeper.
    @inline(never)
    static func stackAddress() -> UInt {
        var marker = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }

    /// Releasing the caches' memory keeps every connection usable: cached statements, reads and writes go on.
    @Test func releaseMemoryKeepsEveryConnectionUsable() throws {
        let database = try makeDatabase()
        defer { database.close() }
        let rows = (0..<500).map { "row \($0) " + String(repeating: "x", count: 200) }
        try database.write { db in
            for row in rows { try db.execute("INSERT INTO t (v) VALUES (?)", [.text(row)]) }
        }
        // Both readers have pages and a cached statement before the release.
        for _ in 0..<2 {
            #expect(try database.read { try $0.scalar("SELECT count(*) FROM t", as: Int64.self) } == 500)
        }
        database.releaseMemory()
        #expect(try database.read { try $0.scalar("SELECT count(*) FROM t", as: Int64.self) } == 500)
        #expect(try database.read { try $0.scalar("SELECT v FROM t WHERE id = 250", as: String.self) } == rows[249])
        try database.write { try $0.execute("INSERT INTO t (v) VALUES (?)", [.text("after")]) }
        #expect(try database.read { try $0.scalar("SELECT count(*) FROM t", as: Int64.self) } == 501)
        database.close()
        database.releaseMemory()  // a closed database: nothing to release, no trap
    }

    /// Bound text reaches SQLite byte for byte: empty, short (stored inside the String), long, non-ASCII, and with
    /// a NUL inside (bound with its length, so it is not cut there).
    @Test(arguments: [
        "", "a", "fifteen bytes!!", String(repeating: "long text ", count: 50), "zh-Hant 設定 🎉", "a\u{0}b",
    ])
    func boundTextRoundTripsExactly(text: String) throws {
        let database = try makeDatabase()
        defer { database.close() }
        try database.write { try $0.execute("INSERT INTO t (v) VALUES (?)", [.text(text)]) }
        let stored = try database.read { db in
            try db.query("SELECT v, length(CAST(v AS BLOB)) FROM t").map {
                (try $0.get(0, as: String.self), try $0.get(1, as: Int64.self))
            }
        }
        #expect(stored.count == 1)
        #expect(stored.first?.0 == text)
        #expect(stored.first?.1 == Int64(text.utf8.count))
    }

    /// `bind(_:at:)` + `run()`: what is bound once stays bound across runs; `reset()` clears it.
    @Test func runKeepsBindingsUntilReset() throws {
        let database = try makeDatabase()
        defer { database.close() }
        try database.write { db in
            try db.executeScript("CREATE TABLE pairs (a TEXT NOT NULL, b INTEGER NOT NULL)")
            let insert = try db.statement("INSERT INTO pairs (a, b) VALUES (?, ?)")
            try insert.bind(.text("kept"), at: 1)
            for b in 1...3 {
                try insert.bind(.integer(Int64(b)), at: 2)
                try insert.run()
            }
            insert.reset()
            try insert.bind(.integer(4), at: 2)
            #expect(throws: StorageError.self) { try insert.run() }  // a is NULL again: NOT NULL refuses the row
        }
        let kept = try database.read { db in
            try db.query("SELECT a, b FROM pairs ORDER BY b").map {
                "\(try $0.get(0, as: String.self))=\(try $0.get(1, as: Int64.self))"
            }
        }
        #expect(kept == ["kept=1", "kept=2", "kept=3"])
    }

    /// Checkpoints run off the commit path and keep the WAL bounded: 80 MiB written in 200 transactions leave a
    /// WAL far smaller than that (without checkpoints it would hold all of it), every frame ends up in the
    /// database file, and the data reads back.
    @Test func backgroundCheckpointsKeepTheWALBounded() throws {
        let database = try makeDatabase()
        defer { database.close() }
        try database.write { try $0.executeScript("CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB NOT NULL)") }
        let chunk = [UInt8](repeating: 0xA5, count: 400 << 10)
        for round in 0..<200 {
            try database.write {
                try $0.execute("INSERT INTO blobs (id, data) VALUES (?, ?)", [.integer(Int64(round)), .blob(chunk)])
            }
        }
        database.waitForBackgroundCheckpoints()
        #expect(database.backgroundCheckpoints > 0)
        let walBytes =
            (try? FileManager.default.attributesOfItem(atPath: directory.file("db.sqlite") + "-wal")[.size] as? Int)
            ?? 0
        // Without checkpoints the WAL would hold all 80 MiB. How far the checkpointer trails the writer depends on
        // the machine's load (47 MiB was seen with three other builds on two cores), so the bound is 60 MiB.
        #expect(walBytes < 60 << 20, "WAL grew to \(walBytes) bytes")
        #expect(
            try database.read {
                try $0.scalar(
                    "SELECT count(*) FROM blobs WHERE length(data) = ?", [.integer(400 << 10)], as: Int64.self)
            } == 200)
    }

    @Test func writeRollsBackWhenAStatementFails() throws {
        let database = try makeDatabase()
        defer { database.close() }
        #expect(throws: StorageError.self) {
            try database.write { db in
                try db.execute("INSERT INTO t (v) VALUES ('a')")
                try db.execute("INSERT INTO t (v) VALUES (NULL)")
            }
        }
        #expect(try database.read { try $0.scalar("SELECT count(*) FROM t", as: Int64.self) } == 0)
    }

    @Test func connectionsUseWALFullSyncAndForeignKeys() throws {
        let database = try makeDatabase()
        defer { database.close() }
        let (mode, sync, keys) = try database.read { db in
            (
                try db.scalar("PRAGMA journal_mode", as: String.self),
                try db.scalar("PRAGMA synchronous", as: Int64.self),
                try db.scalar("PRAGMA foreign_keys", as: Int64.self)
            )
        }
        #expect(mode == "wal")
        #expect(sync == 2)  // FULL
        #expect(keys == 1)
    }

    @Test func readersAreReadOnly() throws {
        let database = try makeDatabase()
        defer { database.close() }
        let error = try #require(throws: StorageError.self) {
            try database.read { try $0.execute("INSERT INTO t (v) VALUES ('x')") }
        }
        #expect(error.primaryCode == SQLITE_READONLY)
    }

    @Test func readsDoNotWaitBehindAWrite() throws {
        let database = try makeDatabase()
        defer { database.close() }
        try database.write { try $0.execute("INSERT INTO t (v) VALUES ('committed')") }
        let inWrite = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let writeDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? database.write { db in
                try db.execute("INSERT INTO t (v) VALUES ('uncommitted')")
                inWrite.signal()
                release.wait()
            }
            writeDone.signal()
        }
        inWrite.wait()
        // The write transaction is open and holds the write lock; a read must still answer, from the last commit.
        let countDuringWrite = try database.read { try $0.scalar("SELECT count(*) FROM t", as: Int64.self) }
        release.signal()
        writeDone.wait()
        #expect(countDuringWrite == 1)
        #expect(try database.read { try $0.scalar("SELECT count(*) FROM t", as: Int64.self) } == 2)
    }

    /// Another process holding a read transaction on the WAL, as Litestream does the whole time (docs/scaling.md):
    /// the default TRUNCATE checkpoint at close waits the whole busy timeout for it, a `passive` close does not.
    /// Both directions, so the foreign reader is known to reproduce the wait the option avoids.
    @Test(arguments: [CheckpointMode.truncate, .passive])
    func closeCheckpointAndAForeignReader(mode: CheckpointMode) throws {
        let busyMilliseconds: Int32 = 2_000
        let path = directory.file("reader-\(mode.rawValue).sqlite")
        let database = try Database(
            path: path, readerCount: 1, busyTimeoutMilliseconds: busyMilliseconds, closeCheckpoint: mode)
        try database.write { try $0.executeScript("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)") }
        try database.write { try $0.execute("INSERT INTO t (v) VALUES (?)", [.text("kept")]) }
        let foreign = try Connection(path: path, readOnly: true, create: false, busyTimeoutMilliseconds: 0)
        defer { foreign.close() }
        try foreign.execute("BEGIN")
        #expect(try foreign.scalar("SELECT count(*) FROM t", as: Int64.self) == 1)

        let clock = ContinuousClock()
        let elapsed = clock.measure { database.close() }
        switch mode {
        case .truncate: #expect(elapsed >= .milliseconds(Int(busyMilliseconds) / 2), "closed in \(elapsed)")
        case .passive: #expect(elapsed < .milliseconds(Int(busyMilliseconds) / 2), "closed in \(elapsed)")
        }
        try foreign.execute("COMMIT")
        // Either way every committed row is in the database file or its WAL.
        let reopened = try Database(path: path, readerCount: 1)
        defer { reopened.close() }
        #expect(try reopened.read { try $0.scalar("SELECT count(*) FROM t", as: Int64.self) } == 1)
    }

    @Test func closedDatabaseRefusesWork() throws {
        let database = try makeDatabase()
        database.close()
        #expect(!database.isOpen)
        let error = try #require(throws: StorageError.self) { try database.read { _ in 1 } }
        #expect(error.extendedCode == SQLITE_MISUSE)
    }
}
