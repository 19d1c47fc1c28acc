/// Why the migrator refused a database or a migrations directory. Each case's description is the
/// message printed at start-up, written so an operator knows what to do.
package enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The directory holding the migrations does not exist or cannot be read.
    case directoryUnreadable(path: String, reason: String)
    /// A `.sql` file whose name is not `NNNN_name.sql`.
    case badFileName(String)
    /// Two files share a number.
    case duplicateNumber(Int, [String])
    /// An applied migration's file changed since it was applied.
    case checksumMismatch(name: String, applied: String, current: String)
    /// The database records a migration this binary's catalogue does not have (a newer binary migrated it).
    case unknownMigration(name: String)

    /// The operator-facing message.
    package var description: String {
        switch self {
        case .directoryUnreadable(let path, let reason):
            "migrations directory \(path) cannot be read (\(reason)); set --migrations-dir or PRELUDE_MIGRATIONS_DIR"
        case .badFileName(let name):
            "migration file \(name) is not named NNNN_name.sql"
        case .duplicateNumber(let number, let names):
            "migration number \(number) is used by several files: \(names.joined(separator: ", "))"
        case .checksumMismatch(let name, let applied, let current):
            "migration \(name) was changed after it was applied (checksum \(applied.prefix(12))… in the database, "
                + "\(current.prefix(12))… on disk); refusing to start — restore the file and add a new migration instead"
        case .unknownMigration(let name):
            "the database has migration \(name) applied, which this build does not know; refusing to start — "
                + "run the newer prelude that created it, or restore a backup"
        }
    }
}
