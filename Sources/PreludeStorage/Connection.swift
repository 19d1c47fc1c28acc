import CSQLite

/// One database connection with its cache of prepared statements: SQLite's, or PostgreSQL's through libpq
/// (``DatabaseEngine``); the store speaks to both through this one type.
///
/// `@unchecked Sendable` invariant: a connection is used by one thread at a time. `Database` guarantees it:
/// the writer is touched only on the writer's serial queue, and a reader only by the thread that checked it
/// out of the pool until it is returned. That is also why it is opened with `SQLITE_OPEN_NOMUTEX`.
package final class Connection: @unchecked Sendable {
    private var handle: OpaquePointer?
    private let postgres: PostgresConnection?
    private var cache: [String: Statement] = [:]
    /// The database file path (SQLite), or the redacted URL (PostgreSQL).
    package let path: String

    /// Which engine this connection speaks to, for the few statements the two dialects spell differently.
    package var engine: DatabaseEngine { postgres == nil ? .sqlite : .postgres }

    /// Connects to PostgreSQL (`conninfo` is libpq's connection string or URI); `label` is what errors and logs
    /// may show (the URL without its password).
    init(postgres conninfo: String, label: String, readOnly: Bool, setup: String = "") throws {
        path = label
        postgres = try PostgresConnection(conninfo: conninfo, readOnly: readOnly, setup: setup)
    }

    /// Opens (and with `create`, creates) the file and applies the per-connection settings
    /// (none of which persist in the file, see docs/storage.md, "Connections").
    init(path: String, readOnly: Bool, create: Bool, busyTimeoutMilliseconds: Int32, cacheKiB: Int? = nil) throws {
        self.path = path
        postgres = nil
        var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        if create { flags |= SQLITE_OPEN_CREATE }
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let error =
                db.map { StorageError.last($0, sql: nil) }
                ?? StorageError(extendedCode: code, message: "cannot open \(path)")
            sqlite3_close_v2(db)
            throw StorageError(extendedCode: error.extendedCode, message: "cannot open \(path): \(error.message)")
        }
        handle = db
        do {
            sqlite3_extended_result_codes(db, 1)
            try checkOK(sqlite3_busy_timeout(db, busyTimeoutMilliseconds), sql: nil)
            // WAL persists in the file, but the first opener must set it; assert it took (a read-only
            // medium or a network file system silently keeps the rollback journal).
            let mode = try query("PRAGMA journal_mode=WAL").first.map { try $0.get(0, as: String.self) }
            guard mode?.lowercased() == "wal" else {
                throw StorageError(
                    extendedCode: SQLITE_CANTOPEN, message: "journal_mode=WAL refused (got \(mode ?? "nothing"))",
                    sql: "PRAGMA journal_mode=WAL")
            }
            // FULL: docs/storage.md explains the choice (fsync of the WAL at every commit).
            try executeScript("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;")
            if readOnly { try executeScript("PRAGMA query_only=ON;") }
            // Pages are allocated as they are used, so a large limit costs nothing until it is needed.
            if let cacheKiB { try executeScript("PRAGMA cache_size=-\(cacheKiB);") }
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Finalizes cached statements and closes the handle. Idempotent.
    package func close() {
        cache.removeAll()
        postgres?.close()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// The cached prepared statement for this SQL, preparing it on first use.
    package func statement(_ sql: String) throws -> Statement {
        if let cached = cache[sql] { return cached }
        if let postgres {
            let statement = Statement(postgres: postgres, sql: sql)
            cache[sql] = statement
            return statement
        }
        guard let handle else {
            throw StorageError(extendedCode: SQLITE_MISUSE, message: "connection closed", sql: sql)
        }
        let statement = try Statement(connection: handle, sql: sql)
        cache[sql] = statement
        return statement
    }

    /// Runs one statement with positional arguments, discarding rows.
    package func execute(_ sql: String, _ arguments: [SQLValue] = []) throws {
        try statement(sql).execute(arguments)
    }

    /// Runs one statement and returns every row.
    package func query(_ sql: String, _ arguments: [SQLValue] = []) throws -> [Row] {
        try statement(sql).query(arguments)
    }

    /// Runs one statement and returns its first row, if any.
    package func queryOne(_ sql: String, _ arguments: [SQLValue] = []) throws -> Row? {
        try query(sql, arguments).first
    }

    /// Runs one statement and decodes the first column of its first row; nil when there is no row.
    package func scalar<T: SQLValueConvertible>(_ sql: String, _ arguments: [SQLValue] = [], as type: T.Type = T.self)
        throws -> T?
    {
        try queryOne(sql, arguments).map { try $0.get(0, as: T.self) }
    }

    /// Runs several statements without arguments (migrations, pragmas). Statements are not cached.
    package func executeScript(_ sql: String) throws {
        if let postgres { return try postgres.executeScript(sql) }
        guard let handle else {
            throw StorageError(extendedCode: SQLITE_MISUSE, message: "connection closed", sql: sql)
        }
        try checkOK(sqlite3_exec(handle, sql, nil, nil, nil), sql: sql)
    }

    /// Replaces SQLite's automatic checkpoints on this connection: `hook` is called after every commit with the
    /// WAL's size in frames (`sqlite3_wal_hook`); `context` is passed back to it and must outlive the connection.
    func setWALHook(
        context: UnsafeMutableRawPointer,
        _ hook: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32
    ) {
        sqlite3_wal_hook(handle, hook, context)
    }

    /// Runs a `PASSIVE` checkpoint: copies as many WAL frames into the database file as it can without waiting
    /// for readers or the writer. Returns the WAL's size and how many of its frames are now in the database file.
    package func checkpointPassive() throws -> (walFrames: Int, checkpointed: Int) {
        guard postgres == nil else { return (0, 0) }
        var log: Int32 = 0
        var done: Int32 = 0
        let code = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, &log, &done)
        // SQLITE_BUSY: another connection is checkpointing right now; it will move the frames.
        guard code == SQLITE_OK || code == SQLITE_BUSY else { throw StorageError.last(handle, sql: "checkpoint") }
        return (Int(log), Int(done))
    }

    /// Frees the page cache pages no statement holds (`sqlite3_db_release_memory`); later reads fill it again.
    package func releaseMemory() {
        if let handle { sqlite3_db_release_memory(handle) }
    }

    /// SQLite: the rowid of the last successful INSERT on this connection. PostgreSQL has no such value (`lastval()`
    /// answers the last sequence any statement of the session advanced, a trigger's included), so there it throws
    /// SQLITE_MISUSE: an insert that needs its id asks for it with `RETURNING id` (``insertReturningID(_:_:)``).
    package var lastInsertRowID: Int64 {
        get throws {
            guard postgres == nil else {
                throw StorageError(
                    extendedCode: SQLITE_MISUSE,
                    message: "lastInsertRowID is SQLite's; on PostgreSQL the INSERT asks for its id with RETURNING id")
            }
            return sqlite3_last_insert_rowid(handle)
        }
    }

    /// Runs an `INSERT … RETURNING id` (one row, SQLite 3.35+ and PostgreSQL) and returns the new row's id.
    package func insertReturningID(_ sql: String, _ arguments: [SQLValue]) throws -> Int64 {
        guard let id = try scalar(sql, arguments, as: Int64.self) else {
            throw StorageError(extendedCode: SQLITE_MISUSE, message: "the INSERT returned no id", sql: sql)
        }
        return id
    }

    /// Inside a write transaction: waits until no other process's transaction holding the same `key` is open, and
    /// holds it until this transaction ends, so "read, then insert if missing" cannot race another process.
    /// SQLite's write transactions (`BEGIN IMMEDIATE`) are already one at a time, so there it does nothing; on
    /// PostgreSQL it is a transaction-level advisory lock (`pg_advisory_xact_lock`), and the reads after it see what
    /// the other process committed (READ COMMITTED takes a snapshot per statement). Nodes of a cluster starting at
    /// once on an empty database each try to seed the demo and store the bootstrap token.
    package func serializeWithOtherProcesses(key: Int64) throws {
        guard postgres != nil else { return }
        try execute("SELECT pg_advisory_xact_lock(?)", [.integer(key)])
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE on this connection.
    package var changes: Int { postgres?.changes ?? Int(sqlite3_changes(handle)) }

    /// True while a transaction is open on this connection.
    package var isInTransaction: Bool {
        if let postgres { return postgres.isInTransaction }
        return handle.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }

    /// True when a PostgreSQL connection lost its server (the next use fails); never for SQLite.
    package var isBroken: Bool { postgres?.isBroken ?? false }

    /// PostgreSQL only: subscribes this connection to `channel`'s notifications (`LISTEN`).
    package func listen(_ channel: String) throws {
        guard let postgres else { preconditionFailure("LISTEN is PostgreSQL's") }
        try postgres.listen(channel)
    }

    /// PostgreSQL only: whether a notification arrived since the last call (reads what the server sent).
    package func consumeNotifications() throws -> Bool {
        guard let postgres else { preconditionFailure("notifications are PostgreSQL's") }
        return try postgres.consumeNotifications()
    }

    private func checkOK(_ code: Int32, sql: String?) throws {
        guard code == SQLITE_OK else {
            // sqlite3_exec may report a code whose message the connection already holds.
            let error = StorageError.last(handle, sql: sql)
            throw StorageError(
                extendedCode: code == error.primaryCode ? error.extendedCode : code,
                message: error.message, sql: sql)
        }
    }
}
