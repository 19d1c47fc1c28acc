import CSQLite
import Dispatch
import PreludeLocking

/// A SQLite database file: one writer connection on its own serial queue and a pool of readers.
///
/// In WAL mode readers see the last committed snapshot and never wait for the writer, and the
/// writer never waits for readers (docs/storage.md). Every write runs in `BEGIN IMMEDIATE`, so the
/// write lock is taken up front and `busy_timeout` applies (a DEFERRED transaction that upgrades to a
/// write gets SQLITE_BUSY without waiting).
///
/// `@unchecked Sendable` invariant: the writer connection is touched only inside `writerQueue`; reader
/// connections are handed out by `readers` (a mutex-protected stack gated by `readerSlots`) to exactly
/// one thread at a time; `closed` is behind a mutex.
package final class Database: @unchecked Sendable {
    /// The database file path.
    package let path: String
    /// Where the database is (the file, or the PostgreSQL URL).
    package let location: DatabaseLocation
    /// The engine behind it.
    package var engine: DatabaseEngine { location.engine }
    private let writer: Connection
    private let checkpointer: Checkpointer?
    private let closeCheckpoint: CheckpointMode
    /// The writer connection's page cache limit, in KiB (64 MiB; SQLite's default is 2 MiB): event ingestion
    /// inserts into the dedupe index at scattered places, and every page that falls out of the cache is read again
    /// with pread on the next insert there (docs/storage.md, "Writer cache").
    package static let writerCacheKiB = 65_536
    private let writerQueue: DispatchQueue
    private let onWriterQueue = DispatchSpecificKey<Bool>()
    private let readers: PosixLock<[Connection]>
    private let readerSlots: DispatchSemaphore
    private let closed = PosixLock(false)
    private let readerCount: Int
    private let observers = PosixLock(Observers())

    /// The functions told about each `write` transaction.
    ///
    /// Held in a struct, never as a lock's value themselves: with a function type (or an optional one) as the lock's
    /// generic value, every `withLock` re-abstracted it through the closure's `inout` parameter and wrote back the
    /// stored function wrapped in two more reabstraction thunks, so each call went through two more thunks than the
    /// last. After n transactions an observer call was 2n frames deep: the server's CPU grew with every commit (a
    /// tenth of it in thunks after 30,000 commits, docs/storage.md "Observers") and the stack would overflow
    /// eventually. A struct's stored functions keep the one representation its layout gives them.
    private struct Observers: Sendable {
        var write: (@Sendable (_ nanoseconds: UInt64) -> Void)?
        var outcome: (@Sendable (_ failure: (any Error)?) -> Void)?
    }

    /// Opens the file, creating it when absent, and opens `readerCount` reader connections.
    ///
    /// - Parameters:
    ///   - busyTimeoutMilliseconds: how long a connection waits for a lock held by another process
    ///     (for example `prelude migrate` run beside a server) before SQLITE_BUSY.
    ///   - closeCheckpoint: the checkpoint ``close()`` runs.
    package convenience init(
        path: String, readerCount: Int = 4, busyTimeoutMilliseconds: Int32 = 5000,
        closeCheckpoint: CheckpointMode = .truncate
    ) throws {
        try self.init(
            location: DatabaseLocation(path), readerCount: readerCount,
            busyTimeoutMilliseconds: busyTimeoutMilliseconds,
            closeCheckpoint: closeCheckpoint)
    }

    /// Opens the database at `location`: a SQLite file (created when absent) or a PostgreSQL server, with one
    /// writer connection and `readerCount` readers. PostgreSQL's writer is one session too, so writes are serialized
    /// in this process exactly as with SQLite; `busyTimeoutMilliseconds` becomes its `lock_timeout`.
    package init(
        location: DatabaseLocation, readerCount: Int = 4, busyTimeoutMilliseconds: Int32 = 5000,
        closeCheckpoint: CheckpointMode = .truncate
    ) throws {
        precondition(readerCount > 0, "a database needs at least one reader")
        self.location = location
        self.path = location.description
        self.closeCheckpoint = closeCheckpoint
        var pool: [Connection] = []
        switch location {
        case .file(let path):
            writer = try Connection(
                path: path, readOnly: false, create: true, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
                cacheKiB: Self.writerCacheKiB)
            let checkpointer = Checkpointer(
                connection: try Connection(
                    path: path, readOnly: false, create: false, busyTimeoutMilliseconds: busyTimeoutMilliseconds))
            checkpointer.attach(to: writer)
            self.checkpointer = checkpointer
            for _ in 0..<readerCount {
                pool.append(
                    try Connection(
                        path: path, readOnly: true, create: false, busyTimeoutMilliseconds: busyTimeoutMilliseconds))
            }
        case .postgres(let url):
            let label = location.description
            writer = try Connection(
                postgres: url, label: label, readOnly: false, setup: " SET lock_timeout = \(busyTimeoutMilliseconds);")
            checkpointer = nil
            for _ in 0..<readerCount {
                pool.append(try Connection(postgres: url, label: label, readOnly: true))
            }
        }
        self.readerCount = readerCount
        readers = PosixLock(pool)
        readerSlots = DispatchSemaphore(value: readerCount)
        writerQueue = DispatchQueue(label: "prelude.storage.writer")
        writerQueue.setSpecific(key: onWriterQueue, value: true)
    }

    /// PostgreSQL sessions of this process opened again after the server dropped them (a restart, a failover), since
    /// start; 0 on SQLite.
    package static var reconnects: Int { PostgresConnection.reconnects.load(ordering: .relaxed) }

    /// Seconds one trivial read took (`SELECT 1` in a read transaction on a pooled reader): the database's round
    /// trip as a request sees it, pool wait included. Throws when the database cannot answer.
    package func roundTripSeconds() throws -> Double {
        let started = DispatchTime.now().uptimeNanoseconds
        _ = try read { try $0.scalar("SELECT 1", as: Int64.self) }
        return Double(DispatchTime.now().uptimeNanoseconds &- started) / 1e9
    }

    /// Opens a connection of its own to the same database, outside the pool (a watcher, a probe).
    package func openConnection(readOnly: Bool, busyTimeoutMilliseconds: Int32 = 5000) throws -> Connection {
        switch location {
        case .file(let path):
            try Connection(
                path: path, readOnly: readOnly, create: false, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        case .postgres(let url):
            try Connection(postgres: url, label: location.description, readOnly: readOnly)
        }
    }

    /// Runs `body` on the writer connection inside `BEGIN IMMEDIATE … COMMIT`.
    ///
    /// When `body` throws, the transaction is rolled back and the error rethrown. When this returns,
    /// the commit is durable (synchronous=FULL). Calls are serialized; calling `write` from inside
    /// `write` is a programmer error (it would deadlock) and traps.
    package func write<T>(_ body: (Connection) throws -> T) throws -> T {
        precondition(DispatchQueue.getSpecific(key: onWriterQueue) != true, "Database.write called inside write")
        return try writerQueue.sync {
            try checkOpen()
            // Timed from BEGIN to COMMIT or ROLLBACK (the time the write lock is held), for the service's metrics.
            let current = observers.withLock { $0 }
            let observer = current.write
            let outcome = current.outcome
            let started = observer == nil ? 0 : DispatchTime.now().uptimeNanoseconds
            defer { observer?(DispatchTime.now().uptimeNanoseconds &- started) }
            let result: T
            do {
                try writer.execute(engine == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN")
                result = try body(writer)
                try writer.execute("COMMIT")
            } catch {
                // COMMIT itself may have failed (e.g. SQLITE_FULL); the transaction may still be open.
                if writer.isInTransaction { try? writer.executeScript("ROLLBACK") }
                outcome?(error)
                throw error
            }
            outcome?(nil)
            return result
        }
    }

    /// Sets the function told how long each `write` transaction took (nanoseconds, committed or rolled back),
    /// called on the writer queue after the transaction ended; it must be quick. Replaces any earlier one.
    package func observeWrites(_ observer: (@Sendable (_ nanoseconds: UInt64) -> Void)?) {
        observers.withLock { $0.write = observer }
    }

    /// Sets the function told how each `write` transaction ended: nil when it committed, else the error it failed
    /// with (thrown by the body, by BEGIN or by COMMIT; the transaction was rolled back). Called on the writer queue
    /// after the transaction ended; it must be quick and must not call `write`. Replaces any earlier one.
    package func observeWriteOutcomes(_ observer: (@Sendable (_ failure: (any Error)?) -> Void)?) {
        observers.withLock { $0.outcome = observer }
    }

    /// Runs `body` on the writer queue outside any transaction: for statements that cannot run in one
    /// (`VACUUM`, some pragmas) or that manage their own (the migrator).
    package func writeWithoutTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
        precondition(DispatchQueue.getSpecific(key: onWriterQueue) != true, "Database.write called inside write")
        return try writerQueue.sync {
            try checkOpen()
            return try body(writer)
        }
    }

    /// Runs `body` on a reader connection inside a read transaction, so every query in it sees one
    /// committed snapshot. Waits only when every reader is busy, never for the writer.
    ///
    /// Inside `write` it sees the last commit, not the open transaction's changes (use the `write` connection).
    /// Do not nest `read` calls: with every reader checked out, the inner call would wait forever.
    package func read<T>(_ body: (Connection) throws -> T) throws -> T {
        try checkOpen()
        readerSlots.wait()
        let connection = readers.withLock { $0.removeLast() }
        defer {
            readers.withLock { $0.append(connection) }
            readerSlots.signal()
        }
        // PostgreSQL: one snapshot for the whole read, as SQLite's read transaction gives.
        try connection.execute(engine == .sqlite ? "BEGIN" : "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        defer { if connection.isInTransaction { try? connection.executeScript("COMMIT") } }
        return try body(connection)
    }

    /// Checkpoints the WAL into the main file (as `closeCheckpoint` says) and closes every connection. Waits for
    /// the write in progress and for readers to come back. Later calls throw SQLITE_MISUSE.
    package func close() {
        let alreadyClosed = closed.withLock { value in
            defer { value = true }
            return value
        }
        guard !alreadyClosed else { return }
        checkpointer?.close()
        writerQueue.sync {
            switch engine == .sqlite ? closeCheckpoint : nil {
            case nil: break
            case .truncate:
                // TRUNCATE leaves an empty -wal file, so a copied-while-stopped database is self-contained.
                try? writer.executeScript("PRAGMA wal_checkpoint(TRUNCATE);")
            case .passive:
                _ = try? writer.checkpointPassive()
            }
            writer.close()
        }
        // Take back every reader slot so no read is in flight while we close.
        var taken = 0
        while taken < readerCount {
            readerSlots.wait()
            taken += 1
        }
        readers.withLock { pool in
            for connection in pool { connection.close() }
        }
        for _ in 0..<taken { readerSlots.signal() }
    }

    /// Frees the unused page cache pages of the writer and of every idle reader (``Connection/releaseMemory()``), for
    /// after start-up work (migrations, seeding) that the serving path does not repeat. Waits for a write in
    /// progress; readers checked out right now keep theirs. Does nothing once closed.
    package func releaseMemory() {
        guard isOpen else { return }
        writerQueue.sync { writer.releaseMemory() }
        readers.withLock { pool in
            for connection in pool { connection.releaseMemory() }
        }
    }

    /// WAL checkpoints the background checkpointer has run since the database was opened.
    package var backgroundCheckpoints: Int { checkpointer?.completedCheckpoints ?? 0 }

    /// Returns once the background checkpoints requested so far have run (for tests and tools).
    package func waitForBackgroundCheckpoints() { checkpointer?.waitForRequested() }

    /// True until `close()`.
    package var isOpen: Bool { !closed.withLock { $0 } }

    private func checkOpen() throws {
        if closed.withLock({ $0 }) {
            throw StorageError(extendedCode: SQLITE_MISUSE, message: "database \(path) is closed")
        }
    }
}
