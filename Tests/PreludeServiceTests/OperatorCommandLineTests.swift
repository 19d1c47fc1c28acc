import Foundation
import PreludeCore
import PreludeStorage
import PreludeStore
import PreludeTestSupport
import Testing

@testable import PreludeService

/// The command-line answers an operator reads (issue 24): sizes, counts, and errors that say what to do.
@Suite struct OperatorCommandLineTests {
    let fixture = ServiceFixture()

    func migratedDatabase() throws -> String {
        let configuration = ServiceFixture.make(fixture)
        try PreludeService.start(configuration: configuration, logger: Logger(level: .error)).stop()
        return configuration.database
    }

    @Test(.enabled(if: !TestDatabase.isPostgres, "SQLite's backup"))
    func backupReportsTheCopysRealSizeAndCountsInTheRightNumber() throws {
        let database = try migratedDatabase()
        let output = fixture.path("copy.sqlite")
        let run = try CommandLineTests.runPrelude(
            ["backup", "--output", output, "--database", database], in: fixture.directory)
        #expect(run.status == 0, "\(run.stderr)")
        let size = try #require(
            (try FileManager.default.attributesOfItem(atPath: output)[.size] as? NSNumber)?.intValue)
        #expect(size > 0)
        #expect(run.stdout.contains("(\(size) bytes, 1 app)."), "\(run.stdout)")
    }

    @Test(.enabled(if: !TestDatabase.isPostgres, "SQLite's backup")) func backupToAMissingDirectorySaysWhatToDo() throws
    {
        let database = try migratedDatabase()
        let run = try CommandLineTests.runPrelude(
            ["backup", "--output", "/nonexistent-dir/copy.sqlite", "--database", database], in: fixture.directory)
        #expect(run.status == 1)
        #expect(
            run.stderr.contains("the directory /nonexistent-dir does not exist; create it or choose another --output"))
        #expect(!run.stderr.contains("SQLite error"))
        #expect(!run.stderr.contains("VACUUM"))
    }

    @Test func lintCountsInTheRightNumber() throws {
        // One lint error (PA-2: "Allow" on the priming button), no warning.
        let policy = ServiceFixture.demoDocument.replacingOccurrences(
            of: #""continueLabel": "Continue""#, with: #""continueLabel": "Allow""#)
        fixture.write("lint.json", policy)
        let run = try CommandLineTests.runPrelude(["policy", "lint", fixture.path("lint.json")], in: fixture.directory)
        #expect(
            !run.stdout.contains("1 errors") && !run.stdout.contains("1 warnings") && !run.stdout.contains("1 infos"))
        #expect(run.stdout.contains(" error,") || run.stdout.contains(" errors,"), "\(run.stdout)")
        #expect(run.stdout.contains("1 error,"), "\(run.stdout)")
    }

    /// Revision 2 of `demo`, live, as a newer build with schema 2 would write it (revisions are immutable: a new one).
    static func writeFutureRevision(_ path: String) throws {
        let db = try PreludeStorage.Database(path: path, readerCount: 1)
        defer { db.close() }
        try db.write {
            try $0.execute(
                #"""
                INSERT INTO policy_revisions (app_id, number, document, etag, created_at, author, message)
                SELECT app_id, 2, replace(document, '"schemaVersion": 1', '"schemaVersion": 2'), '"future"', created_at,
                       'newer-build', NULL
                FROM policy_revisions WHERE app_id = 'demo' AND number = 1
                """#)
            try $0.execute("UPDATE environments SET live_revision = 2 WHERE app_id = 'demo' AND name = 'production'")
        }
    }

    @Test func migrateCheckReportsEveryStoredRevisionAndRefusesWhatCannotBeServed() throws {
        let database = try migratedDatabase()
        let ok = try CommandLineTests.runPrelude(
            [
                "migrate", "--check", "--database", database, "--migrations-dir",
                ServiceFixture.repositoryRoot + "/migrations",
            ],
            in: fixture.directory)
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout.contains("Migrations: none pending."))
        #expect(ok.stdout.contains("demo r1 (production, live): served as written"), "\(ok.stdout)")
        // A revision written for a future schema: this build cannot serve it, and says so before an upgrade.
        try Self.writeFutureRevision(database)
        let refused = try CommandLineTests.runPrelude(
            [
                "migrate", "--check", "--database", database, "--migrations-dir",
                ServiceFixture.repositoryRoot + "/migrations",
            ],
            in: fixture.directory)
        #expect(refused.status == 1)
        #expect(
            refused.stdout.contains("demo r2 (production, live): cannot be served: it was written for another schema"),
            "\(refused.stdout)")
    }

    /// Issue 35: two live revisions of one app (production's and staging's) were listed as `demo r1 (live)` and
    /// `demo r2 (live)`, without saying whose.
    @Test func migrateCheckNamesTheEnvironmentOfEachRevision() throws {
        let database = try migratedDatabase()
        let db = try PreludeStorage.Database(path: database, readerCount: 1)
        try db.write {
            try $0.execute(
                """
                INSERT INTO policy_revisions (app_id, number, document, etag, created_at, author, message, environment)
                SELECT app_id, 2, document, '"staging"', created_at, 'ops', NULL, 'staging'
                FROM policy_revisions WHERE app_id = 'demo' AND number = 1
                """)
            try $0.execute(
                """
                INSERT INTO environments (app_id, name, live_revision, created_at, updated_at)
                VALUES ('demo', 'staging', 2, 0, 0)
                """)
        }
        db.close()
        let check = try CommandLineTests.runPrelude(
            [
                "migrate", "--check", "--database", database, "--migrations-dir",
                ServiceFixture.repositoryRoot + "/migrations",
            ],
            in: fixture.directory)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("demo r1 (production, live): served as written"), "\(check.stdout)")
        #expect(check.stdout.contains("demo r2 (staging, live): served as written"), "\(check.stdout)")
    }

    /// A revision this build cannot serve: `/readyz` is 503 naming the app and what to do, so a rolling update
    /// does not route clients to an instance that answers them 503.
    @Test func readinessNamesAnAppThatCannotBeServed() throws {
        let database = try migratedDatabase()
        try Self.writeFutureRevision(database)
        let service = try PreludeService.start(
            configuration: ServiceFixture.make(fixture), logger: Logger(level: .error))
        defer { service.stop() }
        let ready = try TestTransport.live(port: service.port).get("/readyz")
        #expect(ready.status == 503)
        #expect(ready.body.contains(#"app \"demo\""#), "\(ready.body)")
        #expect(ready.body.contains("prelude migrate --check"))
    }
}

extension OperatorCommandLineTests {
    @Test func tokenHelpNamesEveryScope() throws {
        let run = try CommandLineTests.runPrelude(["token", "--help"], in: fixture.directory)
        #expect(run.status == 0)
        let help = run.stdout.replacingOccurrences(of: "\n", with: " ")
        for scope in ["'read'", "'replica'", "'write'"] { #expect(help.contains(scope), "\(scope)") }
    }
}

extension OperatorCommandLineTests {
    @Test func unknownConfigurationKeysSuggestTheKeyMeant() throws {
        let file = #expect(throws: ConfigurationError.self) {
            try ServiceConfiguration.resolve(fileText: #"{"prot": 8080}"#, environment: [:], flags: [:])
        }
        #expect(file?.description.contains(#"did you mean "port"?"#) == true, "\(file?.description ?? "")")
        let variable = #expect(throws: ConfigurationError.self) {
            try ServiceConfiguration.resolve(fileText: nil, environment: ["PRELUDE_DATABSE": "x"], flags: [:])
        }
        #expect(variable?.description.contains("did you mean PRELUDE_DATABASE?") == true)
    }
}

extension OperatorCommandLineTests {
    @Test func clientDemoHelpExitsZero() throws {
        let executable = try #require(CommandLineTests.binary())
        let demo = (executable as NSString).deletingLastPathComponent + "/prelude-client-demo"
        try #require(FileManager.default.isExecutableFile(atPath: demo), "build prelude-client-demo first")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: demo)
        process.arguments = ["--help"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.contains("usage: prelude-client-demo --server URL"))
    }
}

extension OperatorCommandLineTests {
    @Test func mistypedExperimentListsTheRealOnesAndExperimentsListShowsThem() throws {
        fixture.write("demo.json", AdminServer.policyText)
        let database = try migratedDatabase()
        let typo = try CommandLineTests.runPrelude(
            ["results", "demo", "mc", "--database", database], in: fixture.directory)
        #expect(typo.status == 1)
        #expect(typo.stderr.contains(#"Did you mean "mic"?"#), "\(typo.stderr)")
        #expect(typo.stderr.contains("it has mic"))
        let list = try CommandLineTests.runPrelude(
            ["experiments", "list", "demo", "--database", database], in: fixture.directory)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout == "mic\tlive\t0 installs exposed\n")
    }
}

extension OperatorCommandLineTests {
    /// `prelude serve --database prelud.sqlite` (a typo) must not pass silently for the real database.
    @Test(.enabled(if: !TestDatabase.isPostgres, "a new SQLite file"))
    func aNewDatabaseFileIsAnnouncedAtWarningLevelOnce() throws {
        let configuration = ServiceFixture.make(fixture)
        let first = LockedLines()
        try PreludeService.start(configuration: configuration, logger: Logger(level: .warning) { first.append($0) })
            .stop()
        let created = first.all.filter { $0.contains("created new database at \(configuration.database)") }
        #expect(created.count == 1, "\(first.all)")
        #expect(created.first?.contains(#""level":"warning""#) == true)
        let second = LockedLines()
        try PreludeService.start(configuration: configuration, logger: Logger(level: .warning) { second.append($0) })
            .stop()
        #expect(!second.all.contains { $0.contains("created new database") })
    }
}

extension OperatorCommandLineTests {
    /// `prelude policy import` obeys the admin API's rules: strict lint refuses lint errors (and the findings are
    /// printed), and a policy over 1 MiB is refused as the API's 413 refuses it; nothing is written either way.
    @Test func importAppliesTheAdminAPIsChecks() throws {
        fixture.write("demo.json", AdminServer.policyText)
        let database = try migratedDatabase()
        let db = try PreludeStorage.Database(path: database, readerCount: 1)
        try PolicyRepository(database: db).setLintStrict(
            app: "demo", environment: "production", to: true, actor: "test", detail: ["lintStrict": true], at: 0)
        func revisions() throws -> Int64 {
            try db.read { try $0.scalar("SELECT count(*) FROM policy_revisions", as: Int64.self) } ?? 0
        }
        defer { db.close() }
        let before = try revisions()

        // PA-2: a priming button that grants ("Allow") is a lint error.
        fixture.write(
            "allow.json",
            AdminServer.policyText.replacingOccurrences(
                of: #""prime": {"continueLabel": "Continue"}"#, with: #""prime": {"continueLabel": "Allow"}"#))
        let lint = try CommandLineTests.runPrelude(
            ["policy", "import", fixture.path("allow.json"), "--database", database], in: fixture.directory)
        #expect(lint.status == 1)
        #expect(lint.stderr.contains("lint.PA-2"), "\(lint.stderr)")
        #expect(try revisions() == before)

        // Over 1 MiB in canonical form (a long message in a second locale).
        let long = String(repeating: "Voice notes stay on this device. ", count: 40_000)
        fixture.write(
            "large.json",
            AdminServer.policyText.replacingOccurrences(
                of: #""copy": {"en": {"prime": {"title": "Record notes""#,
                with: #""copy": {"fr": {"prime": {"message": "\#(long)"}}, "en": {"prime": {"title": "Record notes""#))
        let large = try CommandLineTests.runPrelude(
            ["policy", "import", fixture.path("large.json"), "--database", database], in: fixture.directory)
        #expect(large.status == 1)
        #expect(large.stderr.contains("at most 1048576 bytes"), "\(large.stderr)")
        #expect(try revisions() == before)
    }
}

/// `prelude policy lint --app`: what the database stores, linted as this build serves it (issue 24).
extension OperatorCommandLineTests {
    /// Revision 2 of `demo`, live, with "Allow" on the priming button (lint error PA-2; valid otherwise).
    static func writeLintFailingRevision(_ path: String) throws {
        let db = try PreludeStorage.Database(path: path, readerCount: 1)
        defer { db.close() }
        try db.write {
            try $0.execute(
                #"""
                INSERT INTO policy_revisions (app_id, number, document, etag, created_at, author, message)
                SELECT app_id, 2, replace(document, '"continueLabel": "Continue"', '"continueLabel": "Allow"'),
                       '"r2-lint"', created_at, 'test', NULL
                FROM policy_revisions WHERE app_id = 'demo' AND number = 1
                """#)
            try $0.execute("UPDATE environments SET live_revision = 2 WHERE app_id = 'demo' AND name = 'production'")
        }
    }

    @Test func policyLintOfAStoredRevisionLintsTheLiveOneOrTheOneAskedFor() throws {
        let database = try migratedDatabase()
        try Self.writeLintFailingRevision(database)
        let live = try CommandLineTests.runPrelude(
            ["policy", "lint", "--app", "demo", "--database", database], in: fixture.directory)
        #expect(live.status == 1, "\(live.stdout)\(live.stderr)")
        #expect(live.stdout.contains("error PA-2 /features/"), "\(live.stdout)")
        #expect(live.stdout.contains("app demo revision 2: "), "\(live.stdout)")
        let first = try CommandLineTests.runPrelude(
            ["policy", "lint", "--app", "demo", "--revision", "1", "--json", "--database", database],
            in: fixture.directory)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains(#""errors" : 0"#) || first.stdout.contains(#""errors": 0"#), "\(first.stdout)")
        let unknown = try CommandLineTests.runPrelude(
            ["policy", "lint", "--app", "dmo", "--database", database], in: fixture.directory)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains(#"no app "dmo""#), "\(unknown.stderr)")
    }

    /// A revision an earlier build wrote (the 9138599 upgrade fixture): linted as served, each rule added since
    /// shown as a STORED warning, as the preview and the admin app summary show it.
    @Test func policyLintOfARevisionFromAnEarlierBuildShowsStoredFindings() throws {
        let copy = fixture.path("old.sqlite")
        try FileManager.default.copyItem(atPath: UpgradeFixtureTests.directory + "/9138599.sqlite", toPath: copy)
        let run = try CommandLineTests.runPrelude(
            ["policy", "lint", "--app", "demo", "--database", copy], in: fixture.directory)
        #expect(run.stdout.contains("warning STORED "), "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("copy.missing"), "\(run.stdout)")
    }
}
