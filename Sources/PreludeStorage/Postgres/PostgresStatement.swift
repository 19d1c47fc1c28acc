/// One statement's text as PostgreSQL runs it, with the server-side prepared statements made of it on its
/// connection: one per list of parameter types (a NULL argument is sent untyped, so the same text may need two).
///
/// ``Statement`` holds one for its life, so a run finds its prepared statement by comparing the arguments' types
/// with a short list: no key is built and no text is hashed per call.
final class PostgresStatement {
    /// The statement as the store wrote it (SQLite's placeholders); what errors show.
    let sql: String
    /// The statement with `$n` placeholders, and its parameter count.
    let translation: PostgresDialect.Translation
    /// The prepared statements' names by parameter types, valid while ``session`` is the connection's.
    var prepared: [(types: [UInt32], name: String)] = []
    /// The connection session ``prepared`` belongs to; a reconnect starts a new one, whose server knows none of them.
    var session = 0

    /// The connection the statement runs on.
    let connection: PostgresConnection

    init(sql: String, connection: PostgresConnection) {
        self.sql = sql
        self.connection = connection
        translation = PostgresDialect.translate(sql)
    }

    /// Runs the statement with its arguments and returns its rows (``PostgresConnection/run(_:_:)``).
    func run(_ arguments: [SQLValue]) throws -> [Row] {
        try connection.run(self, arguments)
    }

    /// The name prepared for these arguments' types in `session`, if any.
    func preparedName(for arguments: [SQLValue], session current: Int) -> String? {
        guard session == current else {
            prepared.removeAll()
            session = current
            return nil
        }
        for candidate in prepared where candidate.types.count == arguments.count {
            var matches = true
            for (type, argument) in zip(candidate.types, arguments) where type != PostgresValues.type(argument) {
                matches = false
                break
            }
            if matches { return candidate.name }
        }
        return nil
    }
}
