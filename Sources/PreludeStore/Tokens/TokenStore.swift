import PreludeCore
import PreludeStorage

/// Admin tokens in the `tokens` table: create, list, revoke, authenticate, and the `PRELUDE_ADMIN_TOKEN` bootstrap.
///
/// Creating and revoking write an audit record (`token.create`, `token.revoke`, `token.bootstrap`) in the same
/// transaction; the secret itself is never stored, logged or audited.
package struct TokenStore: Sendable {
    /// The database holding `tokens` and `audit_log`.
    package let database: Database

    /// A store over an open, migrated database.
    package init(database: Database) { self.database = database }

    /// What `bootstrap` did with `PRELUDE_ADMIN_TOKEN`.
    package enum BootstrapOutcome: Sendable, Equatable {
        /// No `bootstrap` token existed: one was created.
        case created
        /// The `bootstrap` token had another secret (or scope): it now has this one, and is active.
        case updated
        /// The `bootstrap` token already had this secret.
        case unchanged
        /// The `bootstrap` token with this very secret was revoked: it stays revoked (remove the variable).
        case keptRevoked
    }

    /// The token name the bootstrap secret is stored under.
    package static let bootstrapName = "bootstrap"

    private static let columns =
        "id, name, scope, created_at, revoked_at, last_used_at, apps, environments, approve, bypass"

    /// Creates a token and returns it with its secret, which exists nowhere else afterwards.
    package func create(
        name: String, scope: TokenScope, grant: TokenGrant = .unrestricted, actor: String, now: Int64
    ) throws -> (token: AdminToken, secret: String) {
        guard AdminToken.isValidName(name) else { throw TokenError.invalidName(name) }
        let secret = TokenSecret.generate()
        let token = try database.write { db -> AdminToken in
            if try db.queryOne("SELECT 1 FROM tokens WHERE name = ?", [.text(name)]) != nil {
                throw TokenError.nameTaken(name)
            }
            let id = try db.insertReturningID(
                """
                INSERT INTO tokens (name, scope, hash, created_at, apps, environments, approve, bypass)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                RETURNING id
                """,
                [
                    .text(name), .text(scope.rawValue), .blob(TokenSecret.digest(secret)), .integer(now),
                    Self.list(grant.apps), Self.list(grant.environments), .integer(grant.approve ? 1 : 0),
                    .integer(grant.bypass ? 1 : 0),
                ])
            try Self.audit(
                db, actor: actor, action: "token.create", now: now, name: name, scope: scope, grant: grant)
            return AdminToken(id: id, name: name, scope: scope, createdAt: now, grant: grant)
        }
        return (token, secret)
    }

    /// Every token, active and revoked, by name.
    package func list() throws -> [AdminToken] {
        try database.read { db in
            try db.query("SELECT \(Self.columns) FROM tokens ORDER BY name").map(Self.token)
        }
    }

    /// Revokes the active token named `name`; it stops authenticating at once.
    @discardableResult
    package func revoke(name: String, actor: String, now: Int64) throws -> AdminToken {
        try database.write { db in
            try db.execute(
                "UPDATE tokens SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL", [.integer(now), .text(name)])
            guard db.changes == 1,
                let row = try db.queryOne("SELECT \(Self.columns) FROM tokens WHERE name = ?", [.text(name)])
            else { throw TokenError.notFound(name) }
            let token = try Self.token(row)
            try Self.audit(db, actor: actor, action: "token.revoke", now: now, name: name, scope: token.scope)
            return token
        }
    }

    /// The active token whose secret this is, or nil.
    ///
    /// Every active token's digest is compared with `TokenSecret.constantTimeEqual`, without stopping at a
    /// match, so neither the comparison nor the number of comparisons depends on the secret (there is no
    /// database lookup keyed by it either). Admin deployments have a handful of tokens, so the scan is cheap.
    package func authenticate(secret: String) throws -> AdminToken? {
        let digest = TokenSecret.digest(secret)
        let rows = try database.read { db in
            try db.query("SELECT \(Self.columns), hash FROM tokens WHERE revoked_at IS NULL")
        }
        var found: AdminToken?
        for row in rows {
            let stored = try row.get("hash", as: [UInt8].self)
            if TokenSecret.constantTimeEqual(stored, digest) { found = try Self.token(row) }
        }
        return found
    }

    /// Records a successful authentication time.
    package func touch(id: Int64, now: Int64) throws {
        try database.write { db in
            try db.execute("UPDATE tokens SET last_used_at = ? WHERE id = ?", [.integer(now), .integer(id)])
        }
    }

    /// The number of tokens that can authenticate.
    package func activeCount() throws -> Int {
        Int(
            try database.read { try $0.scalar("SELECT count(*) FROM tokens WHERE revoked_at IS NULL", as: Int64.self) }
                ?? 0)
    }

    /// Stores `secret` (from `PRELUDE_ADMIN_TOKEN`) as the write token named `bootstrap`.
    ///
    /// A revoked `bootstrap` token with the same secret stays revoked: restarting with a stale variable must not
    /// resurrect a token someone revoked. A different secret is a deliberate rotation and re-activates it.
    package func bootstrap(secret: String, now: Int64) throws -> BootstrapOutcome {
        let digest = TokenSecret.digest(secret)
        let name = Self.bootstrapName
        return try database.write { db in
            try db.serializeWithOtherProcesses(key: StartupLock.key)
            guard
                let row = try db.queryOne(
                    "SELECT \(Self.columns), hash FROM tokens WHERE name = ?", [.text(name)])
            else {
                try db.execute(
                    "INSERT INTO tokens (name, scope, hash, created_at) VALUES (?, 'write', ?, ?)",
                    [.text(name), .blob(digest), .integer(now)])
                try Self.audit(db, actor: "system", action: "token.bootstrap", now: now, name: name, scope: .write)
                return .created
            }
            let token = try Self.token(row)
            let sameSecret = TokenSecret.constantTimeEqual(try row.get("hash", as: [UInt8].self), digest)
            if sameSecret {
                if !token.isActive { return .keptRevoked }
                if token.scope == .write { return .unchanged }
            }
            try db.execute(
                "UPDATE tokens SET hash = ?, scope = 'write', revoked_at = NULL WHERE id = ?",
                [.blob(digest), .integer(token.id)])
            try Self.audit(db, actor: "system", action: "token.bootstrap", now: now, name: name, scope: .write)
            return .updated
        }
    }

    private static func token(_ row: Row) throws -> AdminToken {
        let scopeText = try row.get("scope", as: String.self)
        return AdminToken(
            id: try row.get("id", as: Int64.self), name: try row.get("name", as: String.self),
            scope: TokenScope(rawValue: scopeText) ?? .read, createdAt: try row.get("created_at", as: Int64.self),
            revokedAt: try row.get("revoked_at", as: Int64?.self),
            lastUsedAt: try row.get("last_used_at", as: Int64?.self),
            grant: TokenGrant(
                apps: try names(row.get("apps", as: String?.self)),
                environments: try names(row.get("environments", as: String?.self)),
                approve: try row.get("approve", as: Int64.self) != 0, bypass: try row.get("bypass", as: Int64.self) != 0
            ))
    }

    /// A stored list (a JSON array of strings), or nil for "all"; a row that is not such an array grants nothing.
    private static func names(_ text: String?) -> [String]? {
        guard let text else { return nil }
        guard case .array(let items)? = try? JSONValue(parsing: text) else { return [] }
        return items.compactMap(\.stringValue)
    }

    private static func list(_ names: [String]?) -> SQLValue {
        names.map { .text(JSONValue.array($0.map(JSONValue.string)).serialized()) } ?? .null
    }

    private static func audit(
        _ db: Connection, actor: String, action: String, now: Int64, name: String, scope: TokenScope,
        grant: TokenGrant = .unrestricted
    ) throws {
        var detail = JSONObject([("token", .string(name)), ("scope", .string(scope.rawValue))])
        if grant != .unrestricted {
            for (key, value) in grant.jsonValue.objectValue ?? JSONObject() { detail[key] = value }
        }
        try AuditLog.append(
            db, actor: actor, app: nil, environment: nil, action: action, revision: nil, detail: .object(detail),
            at: now)
    }
}
