import PreludeStorage

/// `prelude backup`'s statements: a consistent copy with SQLite's `VACUUM INTO`, and the checks of the copy.
package enum DatabaseBackup {
    /// Writes one committed snapshot of `database`, compacted and self-contained, to `target` (which must not
    /// exist). Reads in a read transaction, so a running server keeps serving and writing meanwhile.
    package static func copy(_ database: Database, to target: String) throws {
        try database.writeWithoutTransaction { try $0.execute("VACUUM INTO ?", [.text(target)]) }
    }

    /// `PRAGMA quick_check` of `database`: `ok` when it is sound.
    package static func quickCheck(_ database: Database) throws -> String? {
        try database.read { try $0.scalar("PRAGMA quick_check", as: String.self) }
    }
}
