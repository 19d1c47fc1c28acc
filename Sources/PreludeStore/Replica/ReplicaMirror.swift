import PreludeStorage

/// Writes the primary's change feed into a replica's own database, so the replica restarts and serves with the
/// primary down: the `apps` and `environments` rows and each environment's live revision row exactly as the primary stores them (number, tag,
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

    /// Makes the database hold exactly the feed's apps, environments and live revisions; returns the apps whose live revision
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
                if present.contains(app.id) {
                    for environment in app.environments {
                        guard let live = environment.live else { continue }
                        let stored = try db.scalar(
                            "SELECT etag FROM policy_revisions WHERE app_id = ? AND number = ?",
                            [.text(app.id), .integer(Int64(live.number))], as: String.self)
                        if let stored, stored != live.etag {
                            // Revisions are immutable: a different revision under the same number means the app was
                            // deleted and created again on the primary. Do the same here (the cascade drops its rows).
                            try db.statement("DELETE FROM apps WHERE id = ?").execute([.text(app.id)])
                            recreated.append(app.id)
                            break
                        }
                    }
                }
                try db.statement(
                    """
                    INSERT INTO apps (id, name, live_revision, created_at, updated_at)
                    VALUES (?, ?, NULL, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET name = excluded.name, created_at = excluded.created_at,
                        updated_at = excluded.updated_at
                    """
                ).execute([.text(app.id), .text(app.name), .integer(app.createdAt), .integer(app.updatedAt)])
                for environment in app.environments {
                    if let live = environment.live {
                        try db.statement(
                            """
                            INSERT INTO policy_revisions (app_id, number, document, etag, created_at, author, message,
                                environment, rules_version)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                            ON CONFLICT (app_id, number) DO NOTHING
                            """
                        ).execute([
                            .text(app.id), .integer(Int64(live.number)), .text(live.document), .text(live.etag),
                            .integer(live.createdAt), .text(live.author), live.message.map(SQLValue.text) ?? .null,
                            .text(environment.name), live.rulesVersion.map { .integer(Int64($0)) } ?? .null,
                        ])
                    }
                    try db.statement(
                        """
                        INSERT INTO environments (app_id, name, live_revision, required_approvals, allow_self_approval,
                            lint_strict, created_at, updated_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (app_id, name) DO UPDATE SET live_revision = excluded.live_revision,
                            required_approvals = excluded.required_approvals,
                            allow_self_approval = excluded.allow_self_approval, lint_strict = excluded.lint_strict,
                            created_at = excluded.created_at, updated_at = excluded.updated_at
                        """
                    ).execute([
                        .text(app.id), .text(environment.name),
                        environment.live.map { .integer(Int64($0.number)) } ?? .null,
                        .integer(Int64(environment.requiredApprovals)), .integer(environment.allowSelfApproval ? 1 : 0),
                        .integer(environment.lintStrict ? 1 : 0), .integer(environment.createdAt),
                        .integer(environment.updatedAt),
                    ])
                }
                let names = app.environments.map(\.name)
                let stored = try db.query("SELECT name FROM environments WHERE app_id = ?", [.text(app.id)])
                    .map { try $0.get("name", as: String.self) }
                for gone in stored where !names.contains(gone) {
                    try db.statement("DELETE FROM environments WHERE app_id = ? AND name = ?").execute([
                        .text(app.id), .text(gone),
                    ])
                }
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
