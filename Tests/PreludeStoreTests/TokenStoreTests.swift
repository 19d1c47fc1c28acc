import PreludeStorage
import PreludeStore
import Testing

/// The `tokens` table: hashes only, unique names, revocation, bootstrap, audit records; on both engines.
@Suite struct TokenStoreTests {
    /// A migrated database (``PolicyRepositoryTests/makeDatabase()``: SQLite, or PostgreSQL on its lane) and its
    /// token store.
    final class Harness {
        let database: Database
        let tokens: TokenStore

        init() throws {
            database = try PolicyRepositoryTests.makeDatabase()
            tokens = TokenStore(database: database)
        }

        deinit { database.close() }
    }

    @Test func storesOnlyTheHashAndAuditsCreateAndRevoke() throws {
        let harness = try Harness()
        let (token, secret) = try harness.tokens.create(name: "ci", scope: .read, actor: "alice", now: 5)
        #expect(token.name == "ci" && token.scope == .read && token.isActive)
        let stored = try harness.database.read { try $0.queryOne("SELECT * FROM tokens") }
        let row = try #require(stored)
        #expect(try row.get("hash", as: [UInt8].self) == TokenSecret.digest(secret))
        #expect(!row.values.contains { if case .text(let text) = $0 { text.contains(secret) } else { false } })
        #expect(try harness.tokens.authenticate(secret: secret)?.name == "ci")
        try harness.tokens.revoke(name: "ci", actor: "alice", now: 6)
        #expect(try harness.tokens.authenticate(secret: secret) == nil)
        let audit = try harness.database.read {
            try $0.query("SELECT actor, action, detail FROM audit_log ORDER BY id").map {
                [
                    try $0.get("actor", as: String.self), try $0.get("action", as: String.self),
                    try $0.get("detail", as: String.self),
                ]
            }
        }
        #expect(
            audit == [
                ["alice", "token.create", #"{"token":"ci","scope":"read"}"#],
                ["alice", "token.revoke", #"{"token":"ci","scope":"read"}"#],
            ])
    }

    @Test func refusesBadDuplicateAndUnknownNames() throws {
        let harness = try Harness()
        #expect(throws: TokenError.invalidName("has space")) {
            try harness.tokens.create(name: "has space", scope: .read, actor: "t", now: 1)
        }
        _ = try harness.tokens.create(name: "ci", scope: .read, actor: "t", now: 1)
        try harness.tokens.revoke(name: "ci", actor: "t", now: 2)
        #expect(throws: TokenError.nameTaken("ci")) {
            try harness.tokens.create(name: "ci", scope: .write, actor: "t", now: 3)
        }
        #expect(throws: TokenError.notFound("ci")) { try harness.tokens.revoke(name: "ci", actor: "t", now: 4) }
        #expect(throws: TokenError.notFound("nobody")) { try harness.tokens.revoke(name: "nobody", actor: "t", now: 4) }
    }

    @Test func bootstrapCreatesUpdatesAndNeverResurrectsARevokedSecret() throws {
        let harness = try Harness()
        let first = "first-" + String(repeating: "a", count: 40)
        let second = "second-" + String(repeating: "b", count: 40)
        #expect(try harness.tokens.bootstrap(secret: first, now: 1) == .created)
        #expect(try harness.tokens.bootstrap(secret: first, now: 2) == .unchanged)
        #expect(try harness.tokens.authenticate(secret: first)?.scope == .write)
        try harness.tokens.revoke(name: "bootstrap", actor: "ops", now: 3)
        #expect(try harness.tokens.bootstrap(secret: first, now: 4) == .keptRevoked)
        #expect(try harness.tokens.authenticate(secret: first) == nil)
        #expect(try harness.tokens.bootstrap(secret: second, now: 5) == .updated)
        #expect(try harness.tokens.authenticate(secret: second)?.name == "bootstrap")
        #expect(try harness.tokens.authenticate(secret: first) == nil)
        #expect(try harness.tokens.list().count == 1)
    }
}
