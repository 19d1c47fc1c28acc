import CSQLite

/// A failure reported by SQLite, or a value that did not decode.
///
/// It keeps SQLite's extended result code, `sqlite3_errmsg` and the SQL text, and never the bound
/// values: they may hold secrets such as token hashes or client data.
package struct StorageError: Error, Sendable, CustomStringConvertible {
    /// The extended result code (https://sqlite.org/rescode.html), e.g. 2067 for SQLITE_CONSTRAINT_UNIQUE.
    package let extendedCode: Int32
    /// The message, from `sqlite3_errmsg` or written by us for decoding failures.
    package let message: String
    /// The statement's SQL, when a statement was involved.
    package let sql: String?

    /// Creates an error.
    package init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
        self.postgresState = nil
    }

    /// PostgreSQL's SQLSTATE when the error came from PostgreSQL (e.g. `23505`); nil for SQLite.
    package let postgresState: String?

    /// SQLSTATE 08001 (`sqlclient_unable_to_establish_sqlconnection`): the client could not connect at all.
    package static let unableToConnect = "08001"

    /// True when the database server could not be reached or refused the connection (at start-up: a setting or
    /// an outage to fix, so `prelude serve` exits with EX_CONFIG).
    package var isUnreachableServer: Bool { postgresState == Self.unableToConnect }

    /// An error PostgreSQL reported, with the SQLite result code of the same kind, so every caller (constraint
    /// checks, storage faults, the 503 mapping) reads one set of codes: unique and foreign-key violations, a full
    /// disk (53100), a read-only transaction (25006), serialization failures and lock timeouts (busy), and a lost
    /// connection or a server shutting down (I/O error: the database is unavailable).
    init(postgresState state: String?, message: String, sql: String?, connectionLost: Bool) {
        let code: Int32
        switch state ?? "" {
        case "23505": code = SQLITE_CONSTRAINT | (8 << 8)  // SQLITE_CONSTRAINT_UNIQUE
        case "23503": code = ResultCode.constraintForeignKey
        case "23514": code = SQLITE_CONSTRAINT | (1 << 8)  // SQLITE_CONSTRAINT_CHECK
        case "23502": code = SQLITE_CONSTRAINT | (5 << 8)  // SQLITE_CONSTRAINT_NOTNULL
        case "P0001": code = SQLITE_CONSTRAINT | (7 << 8)  // SQLITE_CONSTRAINT_TRIGGER (our triggers RAISE)
        case let other where other.hasPrefix("23"): code = SQLITE_CONSTRAINT
        case "53100": code = SQLITE_FULL
        case "25006": code = SQLITE_READONLY
        case "40001", "40P01", "55P03": code = SQLITE_BUSY
        case let other where other.hasPrefix("08") || other.hasPrefix("57P") || other.hasPrefix("53"):
            code = SQLITE_IOERR
        default: code = connectionLost ? SQLITE_IOERR : SQLITE_ERROR
        }
        self.extendedCode = code
        self.message = message
        self.sql = sql
        // libpq reports a connection it found broken without a SQLSTATE: name it connection_failure (08006), so
        // logs say PostgreSQL rather than an SQLite code.
        self.postgresState = state ?? (connectionLost ? "08006" : "XX000")
    }

    /// The primary result code (the low 8 bits), e.g. SQLITE_CONSTRAINT for every constraint kind.
    package var primaryCode: Int32 { extendedCode & 0xFF }

    /// True for any constraint violation (UNIQUE, FOREIGN KEY, CHECK, NOT NULL, …).
    package var isConstraintViolation: Bool { primaryCode == SQLITE_CONSTRAINT }

    /// SQLite's English name of the code, e.g. "constraint failed".
    package var codeDescription: String { String(cString: sqlite3_errstr(extendedCode)) }

    /// One line for logs: code, message and SQL.
    package var description: String {
        var text =
            postgresState.map { "PostgreSQL error \($0): \(message)" }
            ?? "SQLite error \(extendedCode) (\(codeDescription)): \(message)"
        if let sql { text += " — SQL: \(sql)" }
        return text
    }

    /// The current error of a connection, captured at the throw site before another call can overwrite it.
    static func last(_ handle: OpaquePointer?, sql: String?) -> StorageError {
        guard let handle else {
            return StorageError(extendedCode: SQLITE_CANTOPEN, message: "no database handle", sql: sql)
        }
        return StorageError(
            extendedCode: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}

extension StorageError {
    /// SQLite result codes the service tells apart, by name (https://sqlite.org/rescode.html); the extended
    /// codes are macros Swift does not import, so their values are spelled out here.
    package enum ResultCode {
        /// SQLITE_FULL (13): the disk, or the `max_page_count` limit, is full.
        package static let full = SQLITE_FULL
        /// SQLITE_IOERR (10): the operating system reported an I/O error (every SQLITE_IOERR_* code has it as its
        /// primary code).
        package static let ioError = SQLITE_IOERR
        /// SQLITE_READONLY (8): the file cannot be written (a file system remounted read-only, permissions).
        package static let readOnly = SQLITE_READONLY
        /// SQLITE_CANTOPEN (14): a file the database needs (its journal, its WAL) cannot be opened.
        package static let cantOpen = SQLITE_CANTOPEN
        /// SQLITE_BUSY (5): another connection or process holds the lock past the busy timeout.
        package static let busy = SQLITE_BUSY
        /// SQLITE_LOCKED (6): a conflict inside this process's connections.
        package static let locked = SQLITE_LOCKED
        /// SQLITE_CONSTRAINT_FOREIGNKEY (787 = SQLITE_CONSTRAINT | 3 << 8): a row refers to a missing parent.
        package static let constraintForeignKey: Int32 = SQLITE_CONSTRAINT | (3 << 8)
    }

    /// What a failure says about the storage under the database, when it says something about it.
    package enum StorageFault: String, Sendable, CaseIterable {
        /// No space left (SQLITE_FULL): the disk or the configured size limit is full.
        case full
        /// The operating system failed a read or write (the SQLITE_IOERR family, SQLITE_CANTOPEN).
        case ioError = "io_error"
        /// The file cannot be written (SQLITE_READONLY family).
        case readOnly = "read_only"
        /// The write lock is held elsewhere past the busy timeout (SQLITE_BUSY, SQLITE_LOCKED): transient, and
        /// no sign that the storage itself is failing.
        case busy
    }

    /// The storage fault this error reports, or nil for failures that are not about storage (constraints,
    /// misuse, decoding).
    package var storageFault: StorageFault? {
        switch primaryCode {
        case ResultCode.full: .full
        case ResultCode.ioError, ResultCode.cantOpen: .ioError
        case ResultCode.readOnly: .readOnly
        case ResultCode.busy, ResultCode.locked: .busy
        default: nil
        }
    }

    /// SQLITE_CONSTRAINT_FOREIGNKEY: a row refers to a parent that does not exist.
    package var isForeignKeyViolation: Bool { extendedCode == ResultCode.constraintForeignKey }
}
