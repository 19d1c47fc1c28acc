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
}
