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
    }

    /// The primary result code (the low 8 bits), e.g. SQLITE_CONSTRAINT for every constraint kind.
    package var primaryCode: Int32 { extendedCode & 0xFF }

    /// True for any constraint violation (UNIQUE, FOREIGN KEY, CHECK, NOT NULL, …).
    package var isConstraintViolation: Bool { primaryCode == SQLITE_CONSTRAINT }

    /// SQLite's English name of the code, e.g. "constraint failed".
    package var codeDescription: String { String(cString: sqlite3_errstr(extendedCode)) }

    /// One line for logs: code, message and SQL.
    package var description: String {
        var text = "SQLite error \(extendedCode) (\(codeDescription)): \(message)"
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
