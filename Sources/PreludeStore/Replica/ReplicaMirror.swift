import PreludeStorage

/// Writes the primary's change feed into a replica's own database, so the replica restarts and serves with the
/// primary down: the `apps` rows and each live revision row exactly as the primary stores them (number, tag,
/// document, author, times), in one transaction with the sync state (``replica_state``).
///
/// The replica's ``PolicyStore`` then builds its snapshots from these rows with the code the primary uses, so both
/// serve the same bytes under the same entity tags.
package enum ReplicaMirror {
    /// The sync state kept in `replica_state`.
    package struct State: Sendable, Equatable {
        /// The primary followed when it was stored.
        package var primary: String?
        /// The feed's entity tag.
        package var etag: String?
        /// The last successful sync, ms since the epoch.
        package var syncedAt: Int64?
    }

    /// The stored sync state.
    package static func state(_ database: Database) throws -> State {
        let rows = try database.read { try $0.query("SELECT name, value FROM replica_state") }
        var state = State()
        for row in rows {
            let value = try row.get("value", as: String.self)
            switch try row.get("name", as: String.self) {
            case "primary": state.primary = value
            case "etag": state.etag = value
            case "synced_at": state.syncedAt = Int64(value)
            default: break
            }
        }
        return state
    }

    /// Records a sync that found nothing new (a 304).
    package static func confirm(_ database: Database, primary: String, etag: String?, now: Int64) throws {
        try database.write { db in try saveState(db, primary: primary, etag: etag, now: now) }
    }

    /// Makes the database hold exactly the feed's apps and live revisions; returns the apps whose live revision
    /// row was replaced by a different one under the same number (an app deleted and created again on the
    /// primary), which the policy store must reload although their number did not change.
    @discardableResult
    package static func apply(_ feed: ChangeFeed, _ database: Database, primary: String, etag: String?, now: Int64)
        throws -> [String]
    {
        try database.write { db in
            var recreated: [String] = []
            let present = Set(try db.query("SELECT id FROM apps").map { try $0.get("id", as: String.self) })
            for app in feed.apps {
                if let live = app.live, present.contains(app.id) {
                    let stored = try db.scalar(
                        "SELECT etag FROM policy_revisions WHERE app_id = ? AND number = ?",
                        [.text(app.id), .integer(Int64(live.number))], as: String.self)
                    if let stored, stored != live.etag {
                        // Revisions are immutable: a different revision under the same number means the app was
                        // deleted and created again on the primary. Do the same here (the cascade drops its rows).
                        try db.statement("DELETE FROM apps WHERE id = ?").execute([.text(app.id)])
                        recreated.append(app.id)
                    }
                }
                try db.statement(
                    """
                    INSERT INTO apps (id, name, live_revision, created_at, updated_at, lint_strict)
                    VALUES (?, ?, NULL, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET name = excluded.name, created_at = excluded.created_at,
                        updated_at = excluded.updated_at, lint_strict = excluded.lint_strict
                    """
                ).execute([
                    .text(app.id), .text(app.name), .integer(app.createdAt), .integer(app.updatedAt),
                    .integer(app.lintStrict ? 1 : 0),
                ])
                if let live = app.live {
                    try db.statement(
                        """
                        INSERT INTO policy_revisions (app_id, number, document, etag, created_at, author, message)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (app_id, number) DO NOTHING
                        """
                    ).execute([
                        .text(app.id), .integer(Int64(live.number)), .text(live.document), .text(live.etag),
                        .integer(live.createdAt), .text(live.author), live.message.map(SQLValue.text) ?? .null,
                    ])
                }
                try db.statement("UPDATE apps SET live_revision = ? WHERE id = ?").execute([
                    app.live.map { .integer(Int64($0.number)) } ?? .null, .text(app.id),
                ])
            }
            let kept = Set(feed.apps.map(\.id))
            for app in present.subtracting(kept).sorted() {
                try db.statement("DELETE FROM apps WHERE id = ?").execute([.text(app)])
            }
            try saveState(db, primary: primary, etag: etag, now: now)
            return recreated
        }
    }

    private static func saveState(_ db: Connection, primary: String, etag: String?, now: Int64) throws {
        let upsert = try db.statement(
            "INSERT INTO replica_state (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value"
        )
        try upsert.execute([.text("primary"), .text(primary)])
        if let etag { try upsert.execute([.text("etag"), .text(etag)]) }
        try upsert.execute([.text("synced_at"), .text(String(now))])
    }
}
