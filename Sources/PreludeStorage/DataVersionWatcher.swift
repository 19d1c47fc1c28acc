import PreludeLocking

/// Tells whether another connection (this process's writer, or another process such as `prelude policy import`)
/// committed to the database since the last look, using `PRAGMA data_version` on a connection of its own.
///
/// SQLite: "The integer values returned by two invocations of PRAGMA data_version from the same connection will be
/// different if changes were committed to the database by any other connection in the interim." The pragma reads
/// a counter in shared memory: no table is read, so polling it a few times a second costs next to nothing.
///
/// `@unchecked Sendable` invariant: the connection is used only inside `lock`.
package final class DataVersionWatcher: @unchecked Sendable {
    private let connection: Connection
    private let lock = PosixLock<Int64?>(nil)

    /// Opens a read-only connection to the existing file at `path`.
    package init(path: String, busyTimeoutMilliseconds: Int32 = 5000) throws {
        connection = try Connection(
            path: path, readOnly: true, create: false, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    }

    /// True when a commit by another connection happened since the previous call; the first call returns true
    /// (nothing is known yet, so the caller looks once).
    package func hasChanged() throws -> Bool {
        try lock.withLock { last in
            let version = try connection.scalar("PRAGMA data_version", as: Int64.self) ?? 0
            defer { last = version }
            return last.map { $0 != version } ?? true
        }
    }

    /// Closes the connection. Later calls throw SQLITE_MISUSE.
    package func close() {
        lock.withLock { _ in connection.close() }
    }
}
