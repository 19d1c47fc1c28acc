extension Connection {
    /// True when the database has a table of this name (SQLite's `sqlite_master`, PostgreSQL's catalogue in the
    /// connection's schema).
    package func tableExists(_ name: String) throws -> Bool {
        let sql =
            engine == .sqlite
            ? "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?"
            : "SELECT count(*) FROM information_schema.tables WHERE table_name = ? AND table_schema = current_schema()"
        return (try scalar(sql, [.text(name)], as: Int64.self) ?? 0) > 0
    }

    /// The names of every table, sorted (SQLite's internal `sqlite_%` tables left out).
    package func tableNames() throws -> [String] {
        let sql =
            engine == .sqlite
            ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
            : "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
                + " AND table_type = 'BASE TABLE' ORDER BY table_name"
        return try query(sql).map { try $0.get(0, as: String.self) }
    }
}
