import PreludeLocking

/// Tells whether another connection (this process's writer, another process such as `prelude policy import`, or
/// on PostgreSQL another Prelude node) committed a change to what is served since the last look, on a connection
/// of its own.
///
/// SQLite: `PRAGMA data_version`: "The integer values returned by two invocations of PRAGMA data_version from the
/// same connection will be different if changes were committed to the database by any other connection in the
/// interim." The pragma reads a counter in shared memory: no table is read, so polling it a few times a second
/// costs next to nothing.
///
/// PostgreSQL: the connection `LISTEN`s on `prelude_changes`, which the schema's triggers notify on every commit
/// that changes apps, environments or revisions (migrations/postgres); a look reads what the server sent, without
/// a round trip. A connection that was lost (the server restarted) reports a change once it is back, because
/// notifications sent meanwhile are gone.
///
/// `@unchecked Sendable` invariant: the connection is used only inside `lock`.
package final class DataVersionWatcher: @unchecked Sendable {
    /// The PostgreSQL channel the schema's triggers notify.
    package static let channel = "prelude_changes"
    private let connection: Connection
    private let lock = PosixLock(Seen.nothing)

    /// What the previous look learned.
    private enum Seen: Equatable {
        /// No look yet: the first one reports a change, so the caller reads once.
        case nothing
        /// SQLite: the `data_version` the previous look read.
        case version(Int64)
        /// PostgreSQL: subscribed on this session; a notification since the previous look is a change.
        case listening
        /// PostgreSQL: the session that was subscribed is gone (notifications sent meanwhile are lost); the next
        /// look subscribes again and reports a change. Kept until subscribing succeeds, so a failed attempt
        /// (the server still away, a standby refusing `LISTEN`) is retried by the next look.
        case lost
    }

    /// Opens a connection of its own to `database`'s file or server.
    package init(database: Database, busyTimeoutMilliseconds: Int32 = 5000) throws {
        connection = try database.openConnection(readOnly: true, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        if connection.engine == .postgres { try connection.listen(Self.channel) }
    }

    /// True when a commit by another connection happened since the previous call; the first call returns true
    /// (nothing is known yet, so the caller looks once).
    package func hasChanged() throws -> Bool {
        try lock.withLock { seen in
            switch connection.engine {
            case .sqlite:
                let version = try connection.scalar("PRAGMA data_version", as: Int64.self) ?? 0
                defer { seen = .version(version) }
                guard case .version(let previous) = seen else { return true }
                return previous != version
            case .postgres:
                if connection.isBroken || seen == .lost {
                    seen = .lost
                    // Reconnects, or throws while the server is away; everything may have changed meanwhile.
                    try connection.listen(Self.channel)
                    seen = .listening
                    return true
                }
                let notified = try connection.consumeNotifications()
                defer { seen = .listening }
                return notified || seen == .nothing
            }
        }
    }

    /// Closes the connection. Later calls throw SQLITE_MISUSE.
    package func close() {
        lock.withLock { _ in connection.close() }
    }
}
