/// A Swift type that can be bound to a statement parameter and read back from a column.
package protocol SQLValueConvertible {
    /// The value to bind.
    var sqlValue: SQLValue { get }
    /// Decodes a column value; nil when the storage class does not fit this type.
    init?(sqlValue: SQLValue)
}

extension SQLValue: SQLValueConvertible {
    /// Itself.
    package var sqlValue: SQLValue { self }
    /// Any value decodes as itself.
    package init?(sqlValue: SQLValue) { self = sqlValue }
}

extension Int64: SQLValueConvertible {
    /// Bound as an integer.
    package var sqlValue: SQLValue { .integer(self) }
    /// Reads integers only: a text or real column is a schema mistake we want to see, not silently convert.
    package init?(sqlValue: SQLValue) {
        guard case .integer(let value) = sqlValue else { return nil }
        self = value
    }
}

extension Int: SQLValueConvertible {
    /// Bound as an integer.
    package var sqlValue: SQLValue { .integer(Int64(self)) }
    /// Reads integers only.
    package init?(sqlValue: SQLValue) {
        guard case .integer(let value) = sqlValue, let int = Int(exactly: value) else { return nil }
        self = int
    }
}

extension Double: SQLValueConvertible {
    /// Bound as a real.
    package var sqlValue: SQLValue { .real(self) }
    /// Reads reals, and integers (SQLite stores integral REAL values as integers on disk in some cases).
    package init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
}

extension String: SQLValueConvertible {
    /// Bound as text.
    package var sqlValue: SQLValue { .text(self) }
    /// Reads text only.
    package init?(sqlValue: SQLValue) {
        guard case .text(let value) = sqlValue else { return nil }
        self = value
    }
}

extension Array: SQLValueConvertible where Element == UInt8 {
    /// Bound as a blob.
    package var sqlValue: SQLValue { .blob(self) }
    /// Reads blobs only.
    package init?(sqlValue: SQLValue) {
        guard case .blob(let value) = sqlValue else { return nil }
        self = value
    }
}

extension Bool: SQLValueConvertible {
    /// Bound as 0 or 1.
    package var sqlValue: SQLValue { .integer(self ? 1 : 0) }
    /// Reads the integers 0 and 1 only.
    package init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .integer(0): self = false
        case .integer(1): self = true
        default: return nil
        }
    }
}

extension Optional: SQLValueConvertible where Wrapped: SQLValueConvertible {
    /// `nil` binds NULL.
    package var sqlValue: SQLValue { self?.sqlValue ?? .null }
    /// NULL reads as `.some(nil)`; another value must decode as `Wrapped`.
    package init?(sqlValue: SQLValue) {
        if case .null = sqlValue {
            self = .none
            return
        }
        guard let wrapped = Wrapped(sqlValue: sqlValue) else { return nil }
        self = .some(wrapped)
    }
}
