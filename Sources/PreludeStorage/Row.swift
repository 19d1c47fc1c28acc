import CSQLite

/// One result row: column names and values, copied out of SQLite so it outlives the statement.
package struct Row: Sendable, Hashable {
    /// Column names in result order.
    package let columns: [String]
    /// Values in result order.
    package let values: [SQLValue]
    /// The SQL that produced the row, so a decoding error can name it.
    let sql: String

    /// Creates a row; `sql` is used only in decoding errors.
    package init(columns: [String], values: [SQLValue], sql: String = "") {
        precondition(columns.count == values.count, "a row needs one value per column")
        self.columns = columns
        self.values = values
        self.sql = sql
    }

    /// The raw value at a column index.
    package subscript(index: Int) -> SQLValue { values[index] }

    /// The raw value of a named column, or nil when no column has that name.
    package subscript(name: String) -> SQLValue? {
        columns.firstIndex(of: name).map { values[$0] }
    }

    /// Decodes the value at a column index, throwing SQLITE_MISMATCH when the storage class does not fit.
    package func get<T: SQLValueConvertible>(_ index: Int, as type: T.Type = T.self) throws -> T {
        precondition(values.indices.contains(index), "column index \(index) out of range")
        return try decode(values[index], column: columns[index])
    }

    /// Decodes a named column, throwing when it is missing or its storage class does not fit.
    package func get<T: SQLValueConvertible>(_ name: String, as type: T.Type = T.self) throws -> T {
        guard let index = columns.firstIndex(of: name) else {
            throw StorageError(extendedCode: SQLITE_RANGE, message: "no column named '\(name)'", sql: sql)
        }
        return try decode(values[index], column: name)
    }

    private func decode<T: SQLValueConvertible>(_ value: SQLValue, column: String) throws -> T {
        guard let decoded = T(sqlValue: value) else {
            // The storage class, never the value: it may be secret.
            throw StorageError(
                extendedCode: SQLITE_MISMATCH,
                message: "column '\(column)' holds \(value.storageClass), which does not decode as \(T.self)", sql: sql)
        }
        return decoded
    }
}
