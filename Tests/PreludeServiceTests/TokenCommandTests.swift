import Foundation
import PreludeStorage
import PreludeStore
import Testing

@testable import PreludeService

/// `prelude token create|list|revoke` against the built binary and a real database.
@Suite struct TokenCommandTests {
    let fixture = ServiceFixture()

    func run(_ arguments: [String]) throws -> CommandLineTests.Run {
        try CommandLineTests.runPrelude(
            arguments + [
                "--database", fixture.path("tokens.sqlite"), "--migrations-dir",
                ServiceFixture.repositoryRoot + "/migrations",
            ], in: nil)
    }

    @Test func createPrintsTheSecretOnceListShowsNoSecretRevokeStopsIt() throws {
        #expect(try run(["migrate"]).status == 0)
        let created = try run(["token", "create", "--name", "ops", "--scope", "write"])
        #expect(created.status == 0)
        let secret = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(secret.hasPrefix("prl_") && secret.count == 47)
        #expect(created.stderr.contains("cannot be shown again"))

        let database = try Database(path: fixture.path("tokens.sqlite"), readerCount: 1)
        #expect(try TokenStore(database: database).authenticate(secret: secret)?.name == "ops")
        database.close()

        let list = try run(["token", "list"])
        #expect(list.status == 0)
        #expect(list.stdout.contains("ops") && list.stdout.contains("write") && list.stdout.contains("active"))
        #expect(!list.stdout.contains(secret) && !list.stderr.contains(secret))
        let json = try run(["token", "list", "--json"])
        let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((parsed?["tokens"] as? [[String: Any]])?.first?["name"] as? String == "ops")

        #expect(try run(["token", "create", "--name", "ops", "--scope", "read"]).status == 1)
        #expect(try run(["token", "create", "--name", "x", "--scope", "admin"]).status == 64)
        #expect(try run(["token", "revoke", "ops"]).status == 0)
        let again = try run(["token", "revoke", "ops"])
        #expect(again.status == 1)
        #expect(again.stderr.contains("no active token named 'ops'"))
        let reopened = try Database(path: fixture.path("tokens.sqlite"), readerCount: 1)
        defer { reopened.close() }
        #expect(try TokenStore(database: reopened).authenticate(secret: secret) == nil)
    }
}
