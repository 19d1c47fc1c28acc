import Foundation
import PreludeStorage
import PreludeStore
import Testing

@testable import PreludeService

/// `prelude changes …` against the built binary and a real database holding the demo app: the same transitions,
/// checks and refusals as the admin API, recorded the same way.
@Suite struct ChangesCommandLineTests {
    let fixture = ServiceFixture()
    var databasePath: String { fixture.path("changes.sqlite") }

    init() throws {
        var configuration = ServiceFixture.make(fixture)
        configuration.database = databasePath
        let (database, _, _) = try PreludeService.openAndMigrate(
            configuration: configuration, logger: Logger(level: .error))
        defer { database.close() }
        let path = ServiceFixture.repositoryRoot + "/config/demo-policy.json"
        _ = try DemoSeeder.seedIfEmpty(
            database, documentText: String(contentsOfFile: path, encoding: .utf8), sourcePath: path)
        fixture.write(
            "title.json", #"{"features": {"camera": {"copy": {"en": {"prime": {"title": "Scan receipts"}}}}}}"#)
        fixture.write("broken.json", #"{"defaults": {"cadence": {"prime": {"maxShows": -1}}}}"#)
    }

    func run(_ arguments: [String]) throws -> CommandLineTests.Run {
        try CommandLineTests.runPrelude(
            arguments + [
                "--app", "demo", "--database", databasePath, "--migrations-dir",
                ServiceFixture.repositoryRoot + "/migrations",
            ], in: fixture.directory)
    }

    /// (state, version, applied revision) of request `id`, the live revision, and the audit actions, in order.
    func stored(_ id: Int64 = 1) throws -> (request: String?, live: Int64?, audit: [String]) {
        let database = try Database(path: databasePath, readerCount: 1)
        defer { database.close() }
        return try database.read { db in
            let request = try db.query(
                "SELECT state, version, applied_revision FROM change_requests WHERE id = ?", [.integer(id)]
            ).first.map {
                "\(try $0.get("state", as: String.self)) v\(try $0.get("version", as: Int64.self)) "
                    + (try $0.get("applied_revision", as: Int64?.self).map { "r\($0)" } ?? "-")
            }
            let live =
                try db.scalar(
                    "SELECT live_revision FROM environments WHERE app_id = 'demo' AND name = 'production'",
                    as: Int64?.self) ?? nil
            let audit = try db.query("SELECT actor, action FROM audit_log ORDER BY id").map {
                "\(try $0.get("actor", as: String.self)) \(try $0.get("action", as: String.self))"
            }
            return (request, live, audit)
        }
    }

    @Test func proposeScheduleAndApplyAsOneRevisionByCli() throws {
        let created = try run(["changes", "create", fixture.path("title.json"), "--patch", "--message", "shorter"])
        #expect(created.status == 0, "\(created.stderr)")
        // production needs no approval: approved at once.
        #expect(created.stdout.contains("Change request 1 of demo/production created: approved, based on revision 1"))

        let shown = try run(["changes", "show", "1"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(
            shown.stdout.contains(
                #"replace /features/camera/copy/en/prime/title: "Take photos in {appName}" → "Scan receipts""#))
        #expect(shown.stdout.contains("Author: cli — shorter"))

        let scheduled = try run(["changes", "schedule", "1", "--at", "2099-01-01T09:00:00Z"])
        #expect(scheduled.status == 0, "\(scheduled.stderr)")
        #expect(scheduled.stdout.contains("scheduled for 2099-01-01T09:00:00.000Z"))

        let listed = try run(["changes", "list", "--json"])
        let list = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any]
        let first = try #require((list?["changeRequests"] as? [[String: Any]])?.first)
        #expect(first["state"] as? String == "approved")
        #expect(first["scheduledAt"] as? String == "2099-01-01T09:00:00.000Z")

        let applied = try run(["changes", "apply", "1"])
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(applied.stdout.contains("applied: revision 2"))
        let after = try stored()
        #expect(after.request == "applied v3 r2")
        #expect(after.live == 2)
        #expect(
            after.audit == [
                "system app.seed", "cli changeRequest.create", "cli changeRequest.schedule", "cli changeRequest.apply",
            ])
    }

    @Test func refusalsPrintTheAPIsProblemAndChangeNothing() throws {
        // A proposal that does not validate: every problem with its pointer, nothing stored.
        let invalid = try run(["changes", "create", fixture.path("broken.json"), "--patch"])
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains("/defaults/cadence/prime/maxShows:"), "\(invalid.stderr)")
        #expect(invalid.stderr.contains("urn:prelude:problem:invalid-policy"), "\(invalid.stderr)")
        #expect(try stored().request == nil)

        #expect(try run(["changes", "create", fixture.path("title.json"), "--patch", "--draft"]).status == 0)
        let cancelled = try run(["changes", "cancel", "1", "--reason", "not now"])
        #expect(cancelled.status == 0, "\(cancelled.stderr)")
        let before = try stored()

        // The state machine's refusal, as the API words it.
        let apply = try run(["changes", "apply", "1"])
        #expect(apply.status == 1)
        #expect(apply.stderr.contains("(urn:prelude:problem:change-request-state)"), "\(apply.stderr)")
        let past = try run(["changes", "schedule", "1", "--at", "2026-11-26"])
        #expect(past.status == 1)
        #expect(past.stderr.contains("/at: value.invalid:"), "\(past.stderr)")
        let unknown = try run(["changes", "show", "7"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("urn:prelude:problem:unknown-change-request"), "\(unknown.stderr)")
        #expect(try stored() == before)
        #expect(before.request == "cancelled v2 -")
    }

    @Test func aRebaseConflictExitsOneNamingThePointerAndChangesNothing() throws {
        #expect(try run(["changes", "create", fixture.path("title.json"), "--patch"]).status == 0)
        // Another request changes the same title differently and is applied first.
        fixture.write(
            "other.json", #"{"features": {"camera": {"copy": {"en": {"prime": {"title": "Scan now"}}}}}}"#)
        #expect(try run(["changes", "create", fixture.path("other.json"), "--patch"]).status == 0)
        #expect(try run(["changes", "apply", "2"]).status == 0)
        #expect(try run(["changes", "apply", "1"]).status == 1)
        let before = try stored()

        let conflict = try run(["changes", "rebase", "1"])
        #expect(conflict.status == 1)
        #expect(conflict.stderr.contains("/features/camera/copy/en/prime/title: rebase.conflict"), "\(conflict.stderr)")
        #expect(conflict.stderr.contains("(urn:prelude:problem:rebase-conflict)"), "\(conflict.stderr)")
        #expect(try stored() == before)
        #expect(before.request == "stale v2 -")
    }

    /// Issue 35: `--at` without a zone or without seconds scheduled the date's midnight UTC; now refused like the
    /// API (`/at`, an example from now), and an offset schedules exactly the instant it names.
    @Test func scheduleTakesOnlyRFC3339DateTimes() throws {
        #expect(try run(["changes", "create", fixture.path("title.json"), "--patch"]).status == 0)
        for text in ["2099-01-01T09:00:00", "2099-01-01T09:00Z"] {
            let refused = try run(["changes", "schedule", "1", "--at", text])
            #expect(refused.status == 1, "\(text): \(refused.stdout)")
            #expect(refused.stderr.contains("/at: value.invalid:"), "\(refused.stderr)")
            #expect(refused.stderr.contains("such as 20"), "\(refused.stderr)")
        }
        #expect(try stored().audit.last == "cli changeRequest.create")
        let scheduled = try run(["changes", "schedule", "1", "--at", "2099-01-01T10:00:00+01:00"])
        #expect(scheduled.status == 0, "\(scheduled.stderr)")
        #expect(scheduled.stdout.contains("scheduled for 2099-01-01T09:00:00.000Z"), "\(scheduled.stdout)")
    }

    @Test func aStaleRequestIsNotAppliedAndRebaseBringsItBack() throws {
        #expect(try run(["changes", "create", fixture.path("title.json"), "--patch"]).status == 0)
        // Someone publishes first: the request's base is no longer live.
        fixture.write(
            "other.json", #"{"features": {"camera": {"copy": {"en": {"prime": {"message": "Other text."}}}}}}"#)
        #expect(try run(["changes", "create", fixture.path("other.json"), "--patch"]).status == 0)
        #expect(try run(["changes", "apply", "2"]).status == 0)

        let stale = try run(["changes", "apply", "1"])
        #expect(stale.status == 1)
        #expect(stale.stderr.contains("urn:prelude:problem:stale-change-request"), "\(stale.stderr)")
        #expect(try stored().request == "stale v2 -")
        #expect(try stored().live == 2)

        let rebased = try run(["changes", "rebase", "1"])
        #expect(rebased.status == 0, "\(rebased.stderr)")
        #expect(rebased.stdout.contains("is based on revision 2 and approved"))
        #expect(try run(["changes", "apply", "1"]).status == 0)
        // Both changes are live: the patch was re-applied to revision 2, nothing of it was lost.
        let export = try run(["policy", "export"])
        #expect(export.stdout.contains("Scan receipts") && export.stdout.contains("Other text."))
    }

    @Test func policyImportObeysTheEnvironmentsApprovalRuleAsTheAPIDoes() throws {
        // The demo's whole document with one title changed: an import would make it revision 2.
        let demo = try String(
            contentsOfFile: ServiceFixture.repositoryRoot + "/config/demo-policy.json", encoding: .utf8)
        #expect(demo.contains("Take photos in {appName}"))
        fixture.write("retitled.json", demo.replacingOccurrences(of: "Take photos in {appName}", with: "Scan receipts"))
        let database = try Database(path: databasePath, readerCount: 1)
        try database.write { db in
            try db.execute(
                "UPDATE environments SET required_approvals = 1 WHERE app_id = 'demo' AND name = 'production'")
        }
        database.close()
        let before = try stored()

        // As PUT …/policy answers 409 approval-required: refused before anything is written, dry run included.
        for extra in [[], ["--dry-run"]] {
            let refused = try run(["policy", "import", fixture.path("retitled.json")] + extra)
            #expect(refused.status == 1, "\(refused.stdout)")
            #expect(
                refused.stderr.contains(
                    #"environment "production" of app "demo" requires 1 approval for every change"#),
                "\(refused.stderr)")
            #expect(refused.stderr.contains("prelude changes create"), "\(refused.stderr)")
            #expect(refused.stderr.contains("(urn:prelude:problem:approval-required)"), "\(refused.stderr)")
            #expect(try stored() == before)
        }
        #expect(before.live == 1)

        // The way in: the same file as a change request, which then waits for a reviewer.
        let proposed = try run(["changes", "create", fixture.path("retitled.json")])
        #expect(proposed.status == 0, "\(proposed.stderr)")
        #expect(try stored().request == "review v1 -")
        let apply = try run(["changes", "apply", "1"])
        #expect(apply.status == 1)
        #expect(apply.stderr.contains("(urn:prelude:problem:not-approved)"), "\(apply.stderr)")
        #expect(try stored().live == 1)

        // Without the rule, the same import goes through.
        let reopened = try Database(path: databasePath, readerCount: 1)
        try reopened.write { db in
            try db.execute(
                "UPDATE environments SET required_approvals = 0 WHERE app_id = 'demo' AND name = 'production'")
        }
        reopened.close()
        let imported = try run(["policy", "import", fixture.path("retitled.json")])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try stored().live == 2)
    }
}
