import Foundation
import Testing

/// What an operator sees at the keyboard: help that lists a command's own flags, suggestions for typos, which
/// database a command used, and no log lines in a command's output.
@Suite struct CommandLineHygieneTests {
    let fixture = ServiceFixture()

    func run(_ arguments: [String]) throws -> CommandLineTests.Run {
        try CommandLineTests.runPrelude(arguments, in: fixture.directory)
    }

    @Test(arguments: [
        ["token", "create"], ["token", "list"], ["policy", "import"], ["policy", "export"], ["results"],
        ["migrate"], ["backup"], ["events", "prune"], ["changes", "list"], ["changes", "apply"],
    ])
    func helpOfADatabaseCommandListsNoServerFlags(command: [String]) throws {
        let help = try run(command + ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--database"))
        for flag in ["--port", "--host", "--admin-auth-failures-per-minute", "--drain-seconds", "--policy-max-age"] {
            #expect(!help.stdout.contains(flag), "\(command.joined(separator: " ")) --help lists \(flag)")
        }
    }

    @Test func serveHelpListsTheServerFlags() throws {
        let help = try run(["serve", "--help"])
        for flag in ["--port", "--host", "--drain-seconds", "--admin-auth-failures-per-minute", "--database"] {
            #expect(help.stdout.contains(flag))
        }
    }

    @Test(arguments: [
        (["tokn", "list"], "unknown command 'tokn' for 'prelude'. Did you mean 'token'?"),
        (["token", "crate"], "unknown command 'crate' for 'prelude token'. Did you mean 'create'?"),
        (["polcy"], "Did you mean 'policy'?"),
        (["backpu"], "Did you mean 'backup'?"),
    ])
    func aMistypedSubcommandSuggestsTheRightOne(arguments: [String], message: String) throws {
        let result = try run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func commandsRefuseToCreateADatabaseAndNameTheOneTheyUse() throws {
        let path = fixture.path("typo.sqlite")
        for command in [
            ["token", "list"], ["token", "create", "--name", "ops", "--scope", "write"],
            ["policy", "export", "--app", "demo"], ["changes", "list", "--app", "demo"],
        ] {
            let result = try run(command + ["--database", path])
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.contains("no database at \(path)"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: path), "\(command) created \(path)")
        }
        let migrate = try run([
            "migrate", "--database", path, "--migrations-dir", ServiceFixture.repositoryRoot + "/migrations",
        ])
        #expect(migrate.status == 0)
        let list = try run(["token", "list", "--database", path])
        #expect(list.status == 0)
        #expect(list.stderr.contains("prelude: database \(path)"))
    }

    @Test func noJSONLogLinesInACommandsOutput() throws {
        // An empty file is an existing database that still needs every migration: the "migrations applied" info
        // line must not appear (commands other than serve log warnings and errors only).
        let path = fixture.path("empty.sqlite")
        fixture.write("empty.sqlite", "")
        let result = try run([
            "token", "list", "--database", path, "--migrations-dir", ServiceFixture.repositoryRoot + "/migrations",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("No tokens."))
        #expect(!result.stdout.contains("{\"time\""))
        #expect(!result.stderr.contains("{\"time\""), "\(result.stderr)")
    }

    @Test func tokenListJSONHasTheShapeOfTheAdminAPI() throws {
        let path = fixture.path("tokens.sqlite")
        let migrations = ServiceFixture.repositoryRoot + "/migrations"
        #expect(try run(["migrate", "--database", path, "--migrations-dir", migrations]).status == 0)
        let list = try run(["token", "list", "--json", "--database", path])
        let object = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any]
        #expect((object?["tokens"] as? [Any])?.isEmpty == true)
    }
}
