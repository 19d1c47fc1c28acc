import CPostgres
import Synchronization

/// One libpq connection to PostgreSQL, used by one thread at a time (the ``Database`` hands it out as SQLite's).
///
/// Statements use SQLite's placeholders (`?`, `?NNN`), rewritten once per ``Statement`` (``PostgresDialect``), and
/// are prepared on the server once per statement and parameter types (``PostgresStatement``). Parameters are sent with their types (int8, float8,
/// text, bytea), so comparisons never depend on inference. Results are read in text format and decoded by column
/// type into the same ``SQLValue``s SQLite gives (booleans and integral numerics as integers).
final class PostgresConnection {
    /// Sessions this process opened again after the server dropped them (every connection's), for
    /// `prelude_db_reconnects_total`.
    static let reconnects = Atomic<Int>(0)

    private var handle: OpaquePointer?
    /// The session settings run at connect and again after a reconnect.
    private var sessionSetup = ""
    /// Numbers the server sessions: a reconnect or a close starts a new one, whose server holds no prepared
    /// statement of the old (``PostgresStatement`` compares it with its own).
    private var session = 1
    /// Prepared statements made so far, for their unique names.
    private var preparedCount = 0
    /// Rows changed by the last statement (libpq's `PQcmdTuples`).
    private(set) var changes = 0

    /// Connects with a libpq connection string or URI (`postgres://…`); the password may come from
    /// `PGPASSWORD` / `PGPASSFILE` as libpq reads them. Throws a ``StorageError`` with `SQLITE_CANTOPEN` and the
    /// server's message, never the connection string (it may hold a password).
    init(conninfo: String, readOnly: Bool, setup: String = "") throws {
        let connection = PQconnectdb(conninfo)
        guard let connection, PQstatus(connection) == CONNECTION_OK else {
            let message = connection.map { Self.message(PQerrorMessage($0)) } ?? "out of memory"
            PQfinish(connection)
            throw StorageError(
                postgresState: StorageError.unableToConnect, message: "cannot connect to PostgreSQL: \(message)",
                sql: nil, connectionLost: true)
        }
        handle = connection
        // UTC so no server setting changes what a query answers; notices stay out of stderr. The server probes an
        // idle session after 5 s and drops it after 3 unanswered probes 2 s apart: a node whose machine vanished
        // (no FIN, no RST) loses its sessions, and with them its leader locks, in about 11 s instead of the
        // system's default two hours (docs/scaling.md, "PostgreSQL cluster"). Ignored over a Unix socket.
        sessionSetup =
            "SET TIME ZONE 'UTC'; SET client_min_messages = warning;"
            + " SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2; SET tcp_keepalives_count = 3;"
            + (readOnly ? " SET default_transaction_read_only = on;" : "") + setup
        do {
            try executeScript(sessionSetup)
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    func close() {
        if let handle { PQfinish(handle) }
        handle = nil
        session += 1
    }

    /// True while a transaction is open (or failed and not yet rolled back).
    var isInTransaction: Bool {
        guard let handle else { return false }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// True when the server connection is gone (the server restarted or the network dropped).
    var isBroken: Bool { handle.map { PQstatus($0) != CONNECTION_OK } ?? true }

    /// Runs one statement with its arguments and returns its rows, preparing it on the server at its first run
    /// with these parameter types in this session.
    func run(_ statement: PostgresStatement, _ arguments: [SQLValue]) throws -> [Row] {
        reconnectIfBroken()
        let sql = statement.sql
        guard let handle else { throw Self.closed(sql) }
        let parameterCount = statement.translation.parameterCount
        guard arguments.count == parameterCount else {
            throw StorageError(
                extendedCode: 25,  // SQLITE_RANGE
                message: "statement has \(parameterCount) parameters but \(arguments.count) were given",
                sql: sql)
        }
        let name: String
        if let found = statement.preparedName(for: arguments, session: session) {
            name = found
        } else {
            preparedCount += 1
            name = "p\(preparedCount)"
            let types = arguments.map(PostgresValues.type)
            let result = PQprepare(handle, name, statement.translation.text, Int32(types.count), types)
            defer { PQclear(result) }
            try check(result, sql: sql)
            statement.prepared.append((types, name))
        }
        let result = PostgresValues.withParameters(arguments) { values, lengths, formats in
            PQexecPrepared(handle, name, Int32(arguments.count), values, lengths, formats, 0)
        }
        defer { PQclear(result) }
        try check(result, sql: sql)
        changes = Int(String(cString: PQcmdTuples(result))) ?? 0
        return PostgresValues.rows(result, sql: sql)
    }

    /// Runs several statements without arguments (the simple query protocol), e.g. a migration.
    func executeScript(_ sql: String) throws {
        reconnectIfBroken()
        guard let handle else { throw Self.closed(sql) }
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    /// Tells the server to send this connection the notifications of `channel` (`LISTEN`).
    func listen(_ channel: String) throws { try executeScript("LISTEN \(channel)") }

    /// Reads what the server sent and answers whether any notification arrived since the last call.
    /// Throws when the connection is gone.
    func consumeNotifications() throws -> Bool {
        guard let handle else { throw Self.closed(nil) }
        guard PQconsumeInput(handle) == 1 else {
            throw StorageError(
                postgresState: nil, message: Self.message(PQerrorMessage(handle)), sql: nil, connectionLost: true)
        }
        var any = false
        while let notification = PQnotifies(handle) {
            any = true
            PQfreemem(notification)
        }
        return any
    }

    /// A connection the server dropped (a restart, a failover) is opened again before its next statement; its
    /// prepared statements went with the old session. Outside a transaction only: a transaction that lost its
    /// connection fails as a whole, and the caller's error tells the client to retry.
    private func reconnectIfBroken() {
        guard let handle, PQstatus(handle) != CONNECTION_OK else { return }
        PQreset(handle)
        session += 1
        if PQstatus(handle) == CONNECTION_OK {
            Self.reconnects.add(1, ordering: .relaxed)
            let result = PQexec(handle, sessionSetup)
            PQclear(result)
        }
    }

    private func check(_ result: OpaquePointer?, sql: String?) throws {
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        guard status != PGRES_COMMAND_OK, status != PGRES_TUPLES_OK else { return }
        let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) }
        let message =
            result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "M"))) }.map { String(cString: $0) }
            ?? handle.map { Self.message(PQerrorMessage($0)) } ?? "no connection"
        // A statement prepared on a connection that was reset is gone with it.
        if isBroken { session += 1 }
        throw StorageError(postgresState: state, message: message, sql: sql, connectionLost: isBroken)
    }

    private static func message(_ text: UnsafeMutablePointer<CChar>?) -> String {
        text.map { String(cString: $0).trimmingTrailingNewlines() } ?? ""
    }

    private static func closed(_ sql: String?) -> StorageError {
        StorageError(extendedCode: 21, message: "connection closed", sql: sql)  // SQLITE_MISUSE
    }
}

extension String {
    fileprivate func trimmingTrailingNewlines() -> String {
        var text = self
        while text.last == "\n" || text.last == " " { text.removeLast() }
        return text
    }
}
