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

    /// `--app` and `--environment` limit a token to those apps and environments, `--approve` and `--bypass` grant the
    /// capabilities; `token list` shows the grant, and a running server on the same database enforces it.
    @Test func createWithAGrantLimitsTheTokenOnARunningServer() throws {
        let service = try PreludeService.start(
            configuration: ServiceFixture.make(fixture), logger: Logger(level: .error))
        defer { service.stop() }
        func prelude(_ arguments: [String]) throws -> CommandLineTests.Run {
            try CommandLineTests.runPrelude(arguments + ["--database", fixture.database], in: nil)
        }
        // staging does not exist yet (the token creates it below): --allow-missing grants it.
        let created = try prelude([
            "token", "create", "--name", "staging-ci", "--scope", "write", "--app", "demo", "--environment", "staging",
            "--approve", "--allow-missing",
        ])
        #expect(created.status == 0, "\(created.stderr)")
        let secret = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(
            try TokenStore(database: service.database).authenticate(secret: secret)?.grant
                == TokenGrant(apps: ["demo"], environments: ["staging"], approve: true, bypass: false))

        // Shown by both listings (never the secret).
        let table = try prelude(["token", "list"])
        #expect(table.stdout.contains("apps demo; environments staging; approve"), "\(table.stdout)")
        #expect(!table.stdout.contains(secret))
        let json = try prelude(["token", "list", "--json"])
        let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let listed = try #require(
            (parsed?["tokens"] as? [[String: Any]])?.first { $0["name"] as? String == "staging-ci" })
        #expect(listed["apps"] as? [String] == ["demo"])
        #expect(listed["environments"] as? [String] == ["staging"])
        #expect(listed["approve"] as? Bool == true && listed["bypass"] as? Bool == false)

        // The server enforces it: staging of demo is the token's, production of demo is not.
        let port = service.adminPort ?? service.port
        func send(_ method: String, _ path: String, _ body: String? = nil) throws -> TestTransport.Response {
            try TestTransport.live(port: port).exchange(AdminRequest.bytes(method, path, token: secret, body: body))
        }
        #expect(try send("POST", "/v1/admin/apps/demo/environments", #"{"name": "staging"}"#).status == 201)
        #expect(try send("GET", "/v1/admin/apps/demo/environments/staging").status == 200)
        let production = try send("GET", "/v1/admin/apps/demo/policy")
        #expect(production.status == 403)
        #expect(production.body.contains("token-not-granted"), "\(production.body)")

        // Bad grants are usage errors (64) and create nothing.
        let bypassRead = try prelude(["token", "create", "--name", "r", "--scope", "read", "--bypass"])
        #expect(bypassRead.status == 64)
        #expect(bypassRead.stderr.contains("--bypass needs --scope write"), "\(bypassRead.stderr)")
        let badEnvironment = try prelude([
            "token", "create", "--name", "e", "--scope", "read", "--environment", "Staging!",
        ])
        #expect(badEnvironment.status == 64)
        #expect(badEnvironment.stderr.contains("is not an environment name"), "\(badEnvironment.stderr)")
        #expect(try TokenStore(database: service.database).list().map(\.name).sorted() == ["staging-ci"])
    }

    /// Issue 35: `--app demoo --environment stagng` created a token that may touch nothing, silently. Refused now,
    /// naming each unknown name with the closest existing one; `--allow-missing` grants names created later.
    @Test func createRefusesAGrantNamingWhatDoesNotExist() throws {
        #expect(try run(["migrate"]).status == 0)
        let database = try Database(path: fixture.path("tokens.sqlite"), readerCount: 1)
        let path = ServiceFixture.repositoryRoot + "/config/demo-policy.json"
        _ = try DemoSeeder.seedIfEmpty(
            database, documentText: String(contentsOfFile: path, encoding: .utf8), sourcePath: path)
        database.close()

        let typo = try run([
            "token", "create", "--name", "typo", "--scope", "read", "--app", "demoo", "--environment", "prodction",
        ])
        #expect(typo.status == 1, "\(typo.stdout)")
        #expect(typo.stdout.isEmpty)
        #expect(typo.stderr.contains("--app: no app is named 'demoo' (did you mean 'demo'?)"), "\(typo.stderr)")
        #expect(
            typo.stderr.contains("--environment: no environment is named 'prodction' (did you mean 'production'?)"),
            "\(typo.stderr)")
        #expect(typo.stderr.contains("--allow-missing"), "\(typo.stderr)")
        let far = try run(["token", "create", "--name", "far", "--scope", "read", "--environment", "qa"])
        #expect(far.status == 1)
        #expect(far.stderr.contains("no environment is named 'qa' (existing: 'production')"), "\(far.stderr)")
        #expect(!(try run(["token", "list"]).stdout.contains("typo")))

        let later = try run([
            "token", "create", "--name", "later", "--scope", "read", "--app", "newapp", "--allow-missing",
        ])
        #expect(later.status == 0, "\(later.stderr)")
        let fine = try run(["token", "create", "--name", "fine", "--scope", "read", "--app", "demo"])
        #expect(fine.status == 0, "\(fine.stderr)")
    }
}
