import CSQLite

/// SQLite's `SQLITE_TRANSIENT` is the macro `((sqlite3_destructor_type)-1)`, which Swift cannot import:
/// it tells SQLite to copy bound text and blobs before `sqlite3_bind_*` returns.
let SQLITE_TRANSIENT = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// A prepared statement. Owned by one `Connection`, which caches it by SQL text and finalizes it on close.
///
/// Not `Sendable`: it is used only by the thread that holds its connection.
package final class Statement {
    /// The SQL text as prepared.
    package let sql: String
    private var handle: OpaquePointer?
    private let connection: OpaquePointer?
    /// PostgreSQL: the translated text, its connection and the prepared statements made of it (nil for SQLite).
    private let postgres: PostgresStatement?
    /// PostgreSQL: the arguments bound for the next run, and the rows `step()` hands out one by one.
    private var boundArguments: [SQLValue] = []
    private var pendingRows: [Row]?
    private var nextRow = 0
    /// Result column names, read once at preparation (SQLite; empty for PostgreSQL, whose rows carry them).
    package let columnNames: [String]

    /// A PostgreSQL statement: prepared on the server at its first run (``PostgresConnection/run(_:_:)``).
    init(postgres: PostgresConnection, sql: String) {
        self.postgres = PostgresStatement(sql: sql, connection: postgres)
        self.connection = nil
        self.sql = sql
        self.columnNames = []
    }

    init(connection: OpaquePointer, sql: String) throws {
        self.connection = connection
        self.postgres = nil
        self.sql = sql
        var statement: OpaquePointer?
        // `tail` points into the temporary C string, so it is read inside `withCString` (reading it after, as this
        // once did, read freed memory: ThreadSanitizer's allocator made `BEGIN` look like several statements).
        var trailingSQL = false
        let code = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(connection, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &tail)
            if let tail, tail.pointee != 0 {
                trailingSQL = !String(cString: tail).allSatisfy { $0.isWhitespace || $0 == ";" }
            }
            return code
        }
        guard code == SQLITE_OK, let statement else {
            throw StorageError.last(connection, sql: sql)
        }
        // One statement per call: trailing SQL would be silently ignored, a classic source of lost writes.
        if trailingSQL {
            sqlite3_finalize(statement)
            throw StorageError(
                extendedCode: SQLITE_MISUSE, message: "several statements in one call; use Connection.executeScript",
                sql: sql)
        }
        self.handle = statement
        let count = Int(sqlite3_column_count(statement))
        self.columnNames = (0..<count).map { String(cString: sqlite3_column_name(statement, Int32($0))) }
    }

    deinit { sqlite3_finalize(handle) }

    /// The number of `?` parameters.
    package var parameterCount: Int {
        if let postgres { return postgres.translation.parameterCount }
        return Int(sqlite3_bind_parameter_count(handle))
    }

    /// Resets the statement and binds positional arguments (`?` in order); every parameter must get a value.
    package func bind(_ arguments: [SQLValue]) throws {
        reset()
        guard arguments.count == parameterCount else {
            throw StorageError(
                extendedCode: SQLITE_RANGE,
                message: "statement has \(parameterCount) parameters but \(arguments.count) arguments were given",
                sql: sql)
        }
        for (offset, value) in arguments.enumerated() { try bind(value, at: Int32(offset + 1)) }
    }

    /// Binds one positional parameter (1-based) without resetting the statement. Bindings last until rebound or
    /// `reset()`, so a statement run many times in a row can bind what does not change once (``run()``).
    package func bind(_ value: SQLValue, at index: Int32) throws {
        if postgres != nil {
            let position = Int(index) - 1
            guard position >= 0, position < parameterCount else {
                throw StorageError(extendedCode: SQLITE_RANGE, message: "no parameter \(index)", sql: sql)
            }
            if boundArguments.count < parameterCount {
                boundArguments += Array(repeating: .null, count: parameterCount - boundArguments.count)
            }
            boundArguments[position] = value
            return
        }
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(handle, index)
        case .integer(let int): code = sqlite3_bind_int64(handle, index, int)
        case .real(let double): code = sqlite3_bind_double(handle, index, double)
        case .text(var string):
            // With the length given, SQLite copies the UTF-8 bytes as they are: no C string is made first (and a
            // NUL inside the text is kept, not taken as the end). A nil pointer would bind NULL, hence "".
            code = string.withUTF8 { utf8 in
                guard let base = utf8.baseAddress, !utf8.isEmpty else {
                    return sqlite3_bind_text(handle, index, "", 0, SQLITE_TRANSIENT)
                }
                return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                    sqlite3_bind_text(handle, index, $0, Int32(utf8.count), SQLITE_TRANSIENT)
                }
            }
        case .blob(let bytes):
            // An empty array may have no base address; bind a zero-length blob, not NULL.
            code = bytes.withUnsafeBytes { raw in
                raw.baseAddress.map { sqlite3_bind_blob(handle, index, $0, Int32(raw.count), SQLITE_TRANSIENT) }
                    ?? sqlite3_bind_zeroblob(handle, index, 0)
            }
        }
        guard code == SQLITE_OK else { throw StorageError.last(connection, sql: sql) }
    }

    /// Runs the statement with its current bindings to completion, discarding rows, then rewinds it keeping the
    /// bindings (unlike ``execute(_:)``, which binds every parameter anew and clears them after).
    package func run() throws {
        _ = try runReturningFirst()
    }

    /// Runs the statement with its current bindings and returns its first row (an `INSERT … RETURNING` answer);
    /// the bindings stay for the next run, as with ``run()``.
    package func runReturningFirst() throws -> Row? {
        if let postgres {
            pendingRows = nil
            nextRow = 0
            return try postgres.run(filledArguments()).first
        }
        defer { sqlite3_reset(handle) }
        guard let first = try step() else { return nil }
        while try step() != nil {}
        return first
    }

    /// Advances one row; returns it, or nil when the statement is done.
    package func step() throws -> Row? {
        if let postgres {
            if pendingRows == nil {
                do {
                    pendingRows = try postgres.run(filledArguments())
                } catch {
                    reset()
                    throw error
                }
                nextRow = 0
            }
            guard let rows = pendingRows, nextRow < rows.count else { return nil }
            nextRow += 1
            return rows[nextRow - 1]
        }
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return currentRow()
        case SQLITE_DONE: return nil
        default:
            let error = StorageError.last(connection, sql: sql)
            reset()
            throw error
        }
    }

    /// Binds, runs to completion and returns every row.
    package func query(_ arguments: [SQLValue] = []) throws -> [Row] {
        if let postgres {
            defer { reset() }
            return try postgres.run(arguments)
        }
        try bind(arguments)
        defer { reset() }
        var rows: [Row] = []
        while let row = try step() { rows.append(row) }
        return rows
    }

    /// Binds and runs to completion, discarding rows.
    package func execute(_ arguments: [SQLValue] = []) throws {
        if let postgres {
            defer { reset() }
            _ = try postgres.run(arguments)
            return
        }
        try bind(arguments)
        defer { reset() }
        while try step() != nil {}
    }

    /// Rewinds the statement and clears its bindings, releasing any read snapshot it held.
    package func reset() {
        if postgres != nil {
            boundArguments = []
            pendingRows = nil
            nextRow = 0
            return
        }
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// PostgreSQL: the bound arguments, NULL for any never bound (as SQLite's unbound parameters).
    private func filledArguments() -> [SQLValue] {
        boundArguments + Array(repeating: .null, count: max(0, parameterCount - boundArguments.count))
    }

    private func currentRow() -> Row {
        var values: [SQLValue] = []
        values.reserveCapacity(columnNames.count)
        for column in 0..<Int32(columnNames.count) {
            switch sqlite3_column_type(handle, column) {
            case SQLITE_INTEGER: values.append(.integer(sqlite3_column_int64(handle, column)))
            case SQLITE_FLOAT: values.append(.real(sqlite3_column_double(handle, column)))
            case SQLITE_TEXT:
                let count = Int(sqlite3_column_bytes(handle, column))
                let text = sqlite3_column_text(handle, column).map {
                    String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
                }
                values.append(.text(text ?? ""))
            case SQLITE_BLOB:
                let count = Int(sqlite3_column_bytes(handle, column))
                let bytes = sqlite3_column_blob(handle, column).map {
                    Array(UnsafeRawBufferPointer(start: $0, count: count))
                }
                values.append(.blob(bytes ?? []))
            default: values.append(.null)
            }
        }
        return Row(columns: columnNames, values: values, sql: sql)
    }
}
