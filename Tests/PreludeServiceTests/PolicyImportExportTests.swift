import Foundation
import PreludeStorage
import PreludeStore
import Testing

@testable import PreludeService

/// `prelude policy import|export` against the built binary and a real database holding the demo app.
@Suite struct PolicyImportExportTests {
    let fixture = ServiceFixture()
    var databasePath: String { fixture.path("policy.sqlite") }

    /// A migrated database with the demo app seeded the way `serve` seeds it (revision 1 by `system`).
    func seedDemo() throws {
        var configuration = ServiceFixture.make(fixture)
        configuration.database = databasePath
        let (database, _, _) = try PreludeService.openAndMigrate(
            configuration: configuration, logger: Logger(level: .error))
        defer { database.close() }
        let path = ServiceFixture.repositoryRoot + "/config/demo-policy.json"
        #expect(
            try DemoSeeder.seedIfEmpty(
                database, documentText: String(contentsOfFile: path, encoding: .utf8), sourcePath: path))
    }

    func run(_ arguments: [String], database: String? = nil) throws -> CommandLineTests.Run {
        try CommandLineTests.runPrelude(
            arguments + [
                "--database", database ?? databasePath, "--migrations-dir",
                ServiceFixture.repositoryRoot + "/migrations",
            ], in: fixture.directory)
    }

    /// Revisions (number, author, message) and audit rows (actor, action, revision, detail), in order.
    func history() throws -> (revisions: [String], audit: [String], live: Int64?) {
        let database = try Database(path: databasePath, readerCount: 1)
        defer { database.close() }
        let live = (try PolicyRepository(database: database).liveRevision(app: "demo", environment: "production"))
            .flatMap { $0 }.map(Int64.init)
        return try database.read { db in
            let revisions = try db.query(
                "SELECT app_id, number, author, message FROM policy_revisions ORDER BY app_id, number"
            )
            .map {
                "\(try $0.get("app_id", as: String.self)) \(try $0.get("number", as: Int64.self)) "
                    + "\(try $0.get("author", as: String.self)) \(try $0.get("message", as: String?.self) ?? "-")"
            }
            let audit = try db.query("SELECT actor, app_id, action, revision, detail FROM audit_log ORDER BY id").map {
                "\(try $0.get("actor", as: String.self)) \(try $0.get("app_id", as: String.self)) "
                    + "\(try $0.get("action", as: String.self)) \(try $0.get("revision", as: Int64?.self).map(String.init) ?? "-") "
                    + (try $0.get("detail", as: String.self))
            }
            return (revisions, audit, live)
        }
    }

    @Test func exportModifyImportMakesARevisionWithItsAuditRecord() throws {
        try seedDemo()
        let exported = try run(["policy", "export", "--app", "demo"])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.hasSuffix("}\n"))
        #expect(exported.stdout.contains(#""name":"Prelude Demo""#))
        fixture.write(
            "edited.json",
            exported.stdout.replacingOccurrences(of: #""name":"Prelude Demo""#, with: #""name":"Prelude Demo 2""#))

        let imported = try run([
            "policy", "import", fixture.path("edited.json"), "--app", "demo", "--message", "renamed",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("revision 2"))
        #expect(imported.stdout.contains(#"replace /app/name: "Prelude Demo" → "Prelude Demo 2""#))
        #expect(imported.stderr.contains("within a second"))
        let after = try history()
        #expect(after.live == 2)
        #expect(
            after.revisions == [
                "demo 1 system demo policy from \(ServiceFixture.repositoryRoot)/config/demo-policy.json",
                "demo 2 cli renamed",
            ])
        let audit = try #require(after.audit.last)
        #expect(audit.hasPrefix("cli demo policy.import 2 "))
        #expect(audit.contains(#""changeCount":1"#) && audit.contains(#""message":"renamed""#))
        #expect(audit.contains(#""source":"\#(fixture.path("edited.json"))""#))

        // The old revision stays exportable, byte for byte what the live export was before.
        let first = try run(["policy", "export", "--app", "demo", "--revision", "1"])
        #expect(first.status == 0 && first.stdout == exported.stdout)
        let live = try run(["policy", "export", "--app", "demo", "--output", fixture.path("live.json"), "--pretty"])
        #expect(live.status == 0 && live.stdout.isEmpty)
        let written = try String(contentsOfFile: fixture.path("live.json"), encoding: .utf8)
        #expect(written.contains("\"name\": \"Prelude Demo 2\"") && written.contains("\n  "))
    }

    @Test func reimportingAnExportCreatesNoRevision() throws {
        try seedDemo()
        let exported = try run(["policy", "export", "--app", "demo", "--pretty", "--output", fixture.path("demo.json")])
        #expect(exported.status == 0)
        let again = try run(["policy", "import", fixture.path("demo.json"), "--json"])
        #expect(again.status == 0, "\(again.stderr)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect(result["changed"] as? Bool == false)
        #expect(result["revision"] as? Int == 1)
        // The seed stored the file as written; the canonical export differs in layout only, which is no change.
        let text = try run(["policy", "import", ServiceFixture.repositoryRoot + "/config/demo-policy.json"])
        #expect(text.status == 0 && text.stdout.hasPrefix("Unchanged"))
        #expect(try history().revisions.count == 1)
        #expect(try history().audit.count == 1)
    }

    @Test func invalidFileExitsOneAndWritesNothing() throws {
        try seedDemo()
        let before = try history()
        fixture.write(
            "bad.json",
            #"{"schemaVersion": 1, "app": {"id": "demo", "name": "Demo"}, "features": {"camera": {"strategy": "nope", "bogus": 1}}}"#
        )
        let result = try run(["policy", "import", fixture.path("bad.json"), "--app", "demo"])
        #expect(result.status == 1)
        let problems = result.stderr.split(separator: "\n").filter { $0.hasPrefix("/features/camera") }
        #expect(problems.count >= 2, "\(result.stderr)")
        #expect(result.stderr.contains("nothing was imported"))
        #expect(result.stdout.isEmpty)

        fixture.write("notjson.json", "{")
        #expect(try run(["policy", "import", fixture.path("notjson.json")]).status == 1)
        #expect(try run(["policy", "import", fixture.path("missing.json")]).status == 2)

        // A valid document for another app than --app.
        fixture.write("notes.json", #"{"schemaVersion": 1, "app": {"id": "notes", "name": "Notes"}}"#)
        let mismatch = try run(["policy", "import", fixture.path("notes.json"), "--app", "demo"])
        #expect(mismatch.status == 1)
        #expect(mismatch.stderr.contains("/app/id: app.mismatch"))

        let after = try history()
        #expect(after.revisions == before.revisions && after.audit == before.audit && after.live == 1)
    }

    @Test func unknownAppNeedsCreate() throws {
        try seedDemo()
        fixture.write("notes.json", #"{"schemaVersion": 1, "app": {"id": "notes", "name": "Notes"}}"#)
        let refused = try run(["policy", "import", fixture.path("notes.json")])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains(#"no app "notes""#) && refused.stderr.contains("--create"))
        #expect(try history().revisions.count == 1)

        let dry = try run(["policy", "import", fixture.path("notes.json"), "--create", "--dry-run"])
        #expect(dry.status == 0 && dry.stdout.contains("would create app \"notes\""))
        #expect(try history().revisions.count == 1)

        let created = try run(["policy", "import", fixture.path("notes.json"), "--create", "--message", "new"])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.contains(#"Created app "notes""#) && created.stdout.contains("revision 1"))
        let after = try history()
        #expect(after.revisions.contains("notes 1 cli new"))
        #expect(after.audit.last?.hasPrefix(#"cli notes app.create 1 {"source":"#) == true)

        // With --create on an existing app, an ordinary import.
        fixture.write("notes2.json", #"{"schemaVersion": 1, "app": {"id": "notes", "name": "Notes 2"}}"#)
        let second = try run(["policy", "import", fixture.path("notes2.json"), "--create"])
        #expect(second.status == 0 && second.stdout.contains("revision 2"))
        #expect(try history().audit.last?.hasPrefix("cli notes policy.import 2 ") == true)

        let export = try run(["policy", "export", "--app", "notes", "--revision", "1"])
        #expect(export.status == 0 && export.stdout.contains(#""name":"Notes""#))
    }

    @Test func ifMatchAndDryRunChangeNothingUnlessCurrent() throws {
        try seedDemo()
        let exported = try run(["policy", "export", "--app", "demo"])
        fixture.write("edited.json", exported.stdout.replacingOccurrences(of: #""maxShows":3"#, with: #""maxShows":4"#))

        let dry = try run(["policy", "import", fixture.path("edited.json"), "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(
            dry.stdout.contains("would become revision 2")
                && dry.stdout.contains("replace /defaults/cadence/prime/maxShows: 3 → 4"))
        #expect(try history().revisions.count == 1)

        let stale = try run(["policy", "import", fixture.path("edited.json"), "--if-match", #""r1-0-0""#])
        #expect(stale.status == 1)
        #expect(stale.stderr.contains("does not name the live revision") && stale.stderr.contains("\"r1-"))
        #expect(try history().revisions.count == 1)

        let etag = try #require(
            try Database(path: databasePath, readerCount: 1).read { db in
                try db.scalar("SELECT etag FROM policy_revisions WHERE app_id = 'demo' AND number = 1", as: String.self)
            })
        let current = try run(["policy", "import", fixture.path("edited.json"), "--if-match", etag, "--json"])
        #expect(current.status == 0, "\(current.stderr)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(current.stdout.utf8)) as? [String: Any])
        #expect(result["changed"] as? Bool == true && result["revision"] as? Int == 2)
        #expect((result["changes"] as? [Any])?.count ?? 0 >= 1)
        // The ETag it was based on is now stale.
        let again = try run(["policy", "import", fixture.path("edited.json"), "--if-match", etag])
        #expect(again.status == 1)
        #expect(try history().revisions.count == 2)
    }

    @Test func exportNamesAnUnknownAppOrRevision() throws {
        try seedDemo()
        let app = try run(["policy", "export", "--app", "nope"])
        #expect(app.status == 1 && app.stderr.contains(#"no app "nope""#) && app.stdout.isEmpty)
        let revision = try run(["policy", "export", "--app", "demo", "--revision", "7"])
        #expect(revision.status == 1 && revision.stderr.contains(#"app "demo" has no revision 7 (revisions 1–1)"#))
        #expect(try run(["policy", "export", "--app", "demo", "--revision", "0"]).status == 64)
    }

    /// What docs/admin.md says about a running server: it serves the imported revision within a second
    /// (LivePolicyReloader), and an admin write based on the ETag it showed before gets 412.
    @Test func runningServerServesTheImportAndRefusesAStaleWrite() throws {
        let server = try AdminServer()
        let database = server.service.configuration.database
        let loaded = try server.etag()
        let exported = try run(["policy", "export", "--app", "demo"], database: database)
        #expect(exported.status == 0, "\(exported.stderr)")
        fixture.write(
            "renamed.json", exported.stdout.replacingOccurrences(of: #""name":"Demo""#, with: #""name":"Demo 2""#))
        let imported = try run(["policy", "import", fixture.path("renamed.json")], database: database)
        #expect(imported.status == 0, "\(imported.stderr)")

        let committed = Date()
        while try server.etag() == loaded, Date().timeIntervalSince(committed) < 1 { usleep(20_000) }
        #expect(try server.etag() != loaded, "the import was not served within 1 s")
        #expect(try server.send("GET", "/v1/apps/demo/policy/document").body.contains(#""name":"Demo 2""#))

        let stale = try server.send(
            "PUT", "/v1/admin/apps/demo/policy",
            headers: [("If-Match", loaded), ("Content-Type", "application/json")],
            body: AdminServer.policyText.replacingOccurrences(of: #""name": "Demo""#, with: #""name": "Demo 3""#))
        #expect(stale.status == 412)
        #expect(stale.headers["etag"]?.hasPrefix("\"r2-") == true)
    }
}
