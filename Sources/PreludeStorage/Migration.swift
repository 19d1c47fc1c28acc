/// One schema migration: a numbered SQL file such as `0001_initial.sql`.
package struct Migration: Sendable, Hashable {
    /// The order key, from the file name's leading digits.
    package let number: Int
    /// The file name without `.sql`, e.g. `0001_initial`; the ledger's key.
    package let name: String
    /// The SQL text, applied as one script.
    package let sql: String

    /// Creates a migration.
    package init(number: Int, name: String, sql: String) {
        self.number = number
        self.name = name
        self.sql = sql
    }

    /// SHA-256 of the SQL text's UTF-8 bytes, in hex; a changed file after it was applied is refused.
    package var checksum: String { SHA256.hex(sql.utf8) }
}
