import PreludeStorage

/// `prelude copy`: moves every row of one database into another, SQLite ↔ PostgreSQL, and proves the copy
/// (docs/storage.md, "Moving a database").
///
/// The source is read in one read transaction (one snapshot; a running server may keep writing) and the target is
/// written in one transaction, so a failed copy leaves the target empty. Ids are copied as they are (identity columns
/// are then moved past them), so change-request numbers, rollout ids and revision ETags do not change: clients keep
/// their caches.
package enum DatabaseCopy {
    /// Why a copy was refused or failed its check.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        package let description: String

        package init(description: String) { self.description = description }
    }

    /// What was copied: rows per table, and the revisions whose bytes and tags were compared.
    package struct Report: Sendable, Equatable {
        /// Rows copied per table, by table name.
        package var rows: [String: Int] = [:]
        /// Revisions compared byte for byte (document and ETag) after the copy.
        package var revisionsVerified = 0
    }

    /// The tables in an order that satisfies every foreign key that is checked at once (apps first, then what
    /// refers to them); the ledger `schema_migrations` is each engine's own and is never copied.
    package static let tableOrder = [
        "apps", "policy_revisions", "environments", "audit_log", "tokens", "events", "replica_outbox",
        "replica_state", "rollouts", "experiment_install_steps", "experiment_funnel_counts",
        "experiment_mislabelled_events", "experiment_daily_counts", "experiment_daily_events",
        "experiment_segment_counts", "webhooks", "webhook_deliveries", "webhook_attempts", "change_requests",
        "rollout_templates",
    ]

    /// Rows read per query from the source, unless the caller says otherwise.
    package static let defaultBatchSize = 2000

    /// Copies `source` into `target`, reading `batchSize` rows per query. Both must be migrated to the same schema
    /// version; the target must hold no row in any table. Throws ``Failure`` (nothing is left in the target) or the
    /// database's error.
    package static func copy(from source: Database, to target: Database, batchSize: Int = defaultBatchSize) throws
        -> Report
    {
        precondition(batchSize > 0, "a page holds at least one row")
        return try source.read { from in
            let sourceTables = Set(try from.tableNames())
            let report = try target.write { to -> Report in
                let targetTables = Set(try to.tableNames())
                let tables = try order(sourceTables: sourceTables, targetTables: targetTables)
                for table in tables where try to.scalar("SELECT count(*) FROM \(table)", as: Int64.self) ?? 0 > 0 {
                    throw Failure(
                        description: "the target is not empty (table \(table) has rows); copy into a new database")
                }
                var report = Report()
                for table in tables {
                    report.rows[table] = try copyTable(table, from: from, to: to, batchSize: batchSize)
                }
                try advanceIdentities(to)
                return report
            }
            var verified = report
            verified.revisionsVerified = try verify(report, source: from, target: target)
            return verified
        }
    }

    /// The tables to copy, in ``tableOrder``; refuses when the two schemas do not have the same tables.
    private static func order(sourceTables: Set<String>, targetTables: Set<String>) throws -> [String] {
        let ledger: Set = ["schema_migrations"]
        let source = sourceTables.subtracting(ledger)
        let target = targetTables.subtracting(ledger)
        guard source == target else {
            let missing = source.symmetricDifference(target).sorted().joined(separator: ", ")
            throw Failure(
                description: "the two databases are not at the same schema version (tables only one has: \(missing)); "
                    + "run `prelude migrate` on both with this build first")
        }
        let unknown = source.subtracting(tableOrder)
        guard unknown.isEmpty else {
            throw Failure(
                description: "this build does not know how to copy \(unknown.sorted().joined(separator: ", "))")
        }
        return tableOrder.filter(source.contains)
    }

    /// Copies one table in pages of `batchSize` rows; returns its row count.
    static func copyTable(_ table: String, from: Connection, to: Connection, batchSize: Int) throws -> Int {
        let columns = try copiedColumns(table, from: from, to: to)
        let list = columns.joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let insert = try to.statement("INSERT INTO \(table) (\(list)) VALUES (\(placeholders))")
        guard let key = try pagingKey(table, on: from) else {
            return try copyByOffset(table, columns: columns, from: from, insert: insert, batchSize: batchSize)
        }
        // Keyset pagination: each page starts after the previous page's last key, found through the key's index,
        // so every page costs the same however far into the table it is (an OFFSET reads and skips every row before).
        let keys = key.joined(separator: ", ")
        let after = Array(repeating: "?", count: key.count).joined(separator: ", ")
        let first = "SELECT \(keys), \(list) FROM \(table) ORDER BY \(keys) LIMIT ?"
        let next = "SELECT \(keys), \(list) FROM \(table) WHERE (\(keys)) > (\(after)) ORDER BY \(keys) LIMIT ?"
        var copied = 0
        var last: [SQLValue]?
        while true {
            let limit = SQLValue.integer(Int64(batchSize))
            let rows = try last.map { try from.query(next, $0 + [limit]) } ?? from.query(first, [limit])
            for row in rows { try insert.execute(Array(row.values[key.count...])) }
            copied += rows.count
            guard rows.count == batchSize, let final = rows.last else { return copied }
            last = Array(final.values[..<key.count])
        }
    }

    /// The columns a table is paged by, unique and never NULL: SQLite's rowid (or a `WITHOUT ROWID` table's primary
    /// key, which SQLite keeps NOT NULL), PostgreSQL's primary key (NOT NULL by definition). Nil when the table has
    /// none (or SQLite is older than 3.37, without `pragma_table_list`).
    static func pagingKey(_ table: String, on db: Connection) throws -> [String]? {
        switch db.engine {
        case .sqlite:
            guard
                let withoutRowID = try? db.scalar(
                    "SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?", [.text(table)],
                    as: Int64.self)
            else { return nil }
            guard withoutRowID == 1 else { return ["rowid"] }
            let key = try db.query(
                "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", [.text(table)]
            ).map { try $0.get(0, as: String.self) }
            return key.isEmpty ? nil : key
        case .postgres:
            let key = try db.query(
                """
                SELECT a.attname FROM pg_index i
                JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
                WHERE i.indrelid = to_regclass(?) AND i.indisprimary
                ORDER BY array_position(i.indkey::int2[], a.attnum)
                """, [.text(table)]
            ).map { try $0.get(0, as: String.self) }
            return key.isEmpty ? nil : key
        }
    }

    /// A table without a usable key: pages by OFFSET, ordered by every column (a stable order on both engines, so
    /// pages neither skip nor repeat a row). Each page re-reads the rows before it; no table of the schema needs it.
    private static func copyByOffset(
        _ table: String, columns: [String], from: Connection, insert: Statement, batchSize: Int
    ) throws -> Int {
        let order = (1...columns.count).map(String.init).joined(separator: ", ")
        let select = "SELECT \(columns.joined(separator: ", ")) FROM \(table) ORDER BY \(order) LIMIT ? OFFSET ?"
        var copied = 0
        while true {
            let rows = try from.query(select, [.integer(Int64(batchSize)), .integer(Int64(copied))])
            for row in rows { try insert.execute(row.values) }
            copied += rows.count
            if rows.count < batchSize { return copied }
        }
    }

    /// The target's columns, plus `rowid` where the target declares it as a column (PostgreSQL's
    /// `webhook_deliveries`) or the source does (SQLite's hidden rowid of the same table).
    private static func copiedColumns(_ table: String, from: Connection, to: Connection) throws -> [String] {
        let target = try columnNames(table, on: to)
        let source = Set(try columnNames(table, on: from))
        let missing = target.filter { !source.contains($0) && $0 != "rowid" }
        guard missing.isEmpty else {
            throw Failure(description: "table \(table) lacks \(missing.joined(separator: ", ")) in the source")
        }
        if target.contains("rowid") || source.contains("rowid") {
            return target.contains("rowid") ? target : target + ["rowid"]
        }
        return target
    }

    /// A table's declared columns in their order.
    static func columnNames(_ table: String, on db: Connection) throws -> [String] {
        switch db.engine {
        case .sqlite:
            return try db.query("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(table)]).map {
                try $0.get(0, as: String.self)
            }
        case .postgres:
            return try db.query(
                """
                SELECT column_name FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position
                """, [.text(table)]
            ).map { try $0.get(0, as: String.self) }
        }
    }

    /// PostgreSQL: moves every identity column's sequence past the largest copied id, so the next insert does not
    /// collide. SQLite's rowids follow the largest row by themselves.
    private static func advanceIdentities(_ db: Connection) throws {
        guard db.engine == .postgres else { return }
        let identities = try db.query(
            """
            SELECT table_name, column_name FROM information_schema.columns
            WHERE table_schema = current_schema() AND is_identity = 'YES'
            """)
        for identity in identities {
            let table: String = try identity.get(0)
            let column: String = try identity.get(1)
            guard let maximum = try db.scalar("SELECT max(\(column)) FROM \(table)", as: Int64?.self) ?? nil else {
                continue
            }
            try db.execute(
                "SELECT setval(pg_get_serial_sequence(?, ?), ?)", [.text(table), .text(column), .integer(maximum)])
        }
    }

    /// Compares row counts per table and every revision's document bytes and ETag; returns how many revisions
    /// matched. Throws ``Failure`` on the first difference.
    private static func verify(_ report: Report, source: Connection, target: Database) throws -> Int {
        try target.read { copy in
            for (table, rows) in report.rows.sorted(by: { $0.key < $1.key }) {
                let there = try copy.scalar("SELECT count(*) FROM \(table)", as: Int64.self) ?? 0
                guard there == rows else {
                    throw Failure(description: "table \(table): \(rows) rows copied but \(there) found in the target")
                }
            }
            let select = "SELECT app_id, number, document, etag FROM policy_revisions ORDER BY app_id, number"
            let original = try source.query(select)
            let copied = try copy.query(select)
            guard original.count == copied.count else {
                throw Failure(description: "\(original.count) revisions in the source, \(copied.count) in the target")
            }
            for (left, right) in zip(original, copied) where left.values != right.values {
                let app: String = try left.get(0)
                let number: Int64 = try left.get(1)
                throw Failure(description: "revision \(number) of \(app) differs after the copy (document or ETag)")
            }
            return original.count
        }
    }
}
