import PreludeLocking

/// Locks a process holds for as long as its database session lives: how nodes sharing one PostgreSQL database agree
/// which of them runs each kind of work that must run once (docs/scaling.md, "PostgreSQL cluster").
///
/// On PostgreSQL each lock is a session-level advisory lock (`pg_try_advisory_lock`) on a connection of its own:
/// when the process dies, or its session is cut, the server releases every lock at once and another node takes them.
/// The session's backend pid is remembered when a lock is taken; a later ``verify()`` that finds another pid (libpq
/// reconnected) or no session reports the locks lost. On SQLite one process owns the database file, so every lock is
/// granted and never lost.
package final class SessionLocks: Sendable {
    private struct Session {
        var connection: Connection?
        var backend: Int64?
        var held: Set<Int64> = []
    }

    private let database: Database
    private let session = PosixLock(Session())

    /// Locks on `database`'s engine; nothing is opened until the first ``tryAcquire(_:)``.
    package init(database: Database) { self.database = database }

    /// Takes lock `key` unless another session holds it; true when this process holds it now.
    package func tryAcquire(_ key: Int64) throws -> Bool {
        try session.withLock { session in
            if session.held.contains(key) { return true }
            guard database.engine == .postgres else {
                session.held.insert(key)
                return true
            }
            let connection = try session.connection ?? database.openConnection(readOnly: false)
            session.connection = connection
            // The key is one of the service's constants, never client input.
            let backend = try connection.scalar("SELECT pg_backend_pid()", as: Int64.self)
            if session.backend != backend {
                // A new session (first use, or libpq reconnected): whatever the old one held is gone.
                session.held = []
                session.backend = backend
            }
            let taken = try connection.scalar("SELECT CAST(pg_try_advisory_lock(\(key)) AS integer)", as: Int64.self)
            if taken == 1 { session.held.insert(key) }
            return taken == 1
        }
    }

    /// The locks still held: all of them while the session lives, none once it was lost (then they are forgotten,
    /// and ``tryAcquire(_:)`` starts a new session).
    package func verify() -> Set<Int64> {
        session.withLock { session in
            guard database.engine == .postgres else { return session.held }
            guard let connection = session.connection, !session.held.isEmpty else { return session.held }
            let backend = try? connection.scalar("SELECT pg_backend_pid()", as: Int64.self)
            if backend == nil || backend != session.backend {
                session.held = []
                session.backend = backend
            }
            return session.held
        }
    }

    /// Releases every lock by closing the session (the server drops a closed session's advisory locks).
    package func releaseAll() {
        session.withLock { session in
            session.connection?.close()
            session = Session()
        }
    }
}
