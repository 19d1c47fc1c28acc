import CSQLite

/// The SQLite library version linked into this build.
package enum StorageVersion {
    /// `sqlite3_libversion()`, e.g. `3.40.1`.
    package static var sqliteVersion: String { String(cString: sqlite3_libversion()) }
}
