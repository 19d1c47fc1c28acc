import Foundation
import PreludeCore
import PreludeStorage
import PreludeTestSupport
import Testing

@testable import PreludeService

/// Databases written by earlier landed releases (Tests/Fixtures/upgrade/README.md): this build opens a copy of
/// each, migrates it, serves the policy document that release served (or it plus the documented fallback texts)
/// and keeps every event.
@Suite(.enabled(if: !TestDatabase.isPostgres, "SQLite fixture files written by earlier releases"))
struct UpgradeFixtureTests {
    static let directory = ServiceFixture.repositoryRoot + "/Tests/Fixtures/upgrade"

    /// The commits with a fixture, from the directory itself, so a fixture added later is tested without a change
    /// here.
    static var commits: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".sqlite") }.map { String($0.dropLast(".sqlite".count)) }.sorted()
    }

    @Test func everyReleaseHasAFixture() {
        // 9138599 is the release issue 24 names; 6fd4aef the landed tip before this one.
        #expect(Set(Self.commits).isSuperset(of: ["9138599", "6fd4aef"]))
    }

    @Test(arguments: commits)
    func opensMigratesServesTheSameDocumentAndKeepsEveryEvent(commit: String) throws {
        let fixture = ServiceFixture()
        try FileManager.default.copyItem(
            atPath: "\(Self.directory)/\(commit).sqlite", toPath: fixture.path("prelude.sqlite"))
        var configuration = ServiceFixture.make(fixture)
        configuration.demoPolicy = ""
        configuration.adminToken = RedactedSecret(AdminServer.secret)
        let service = try PreludeService.start(configuration: configuration, logger: Logger(level: .error))
        defer { service.stop() }

        // Loaded at start-up, the revision keeps its canonical bytes; the document decoded from them on first use is
        // the one the stored text reads as (fallbacks included).
        let loaded = try #require(service.policyStore.snapshot(app: "demo"))
        #expect(!loaded.live.isDocumentDecoded)
        let storedText = try #require(
            try service.database.read { db in
                try db.scalar(
                    "SELECT r.document FROM policy_revisions r JOIN environments e ON e.app_id = r.app_id "
                        + "AND e.live_revision = r.number WHERE r.app_id = 'demo' AND e.name = 'production'",
                    as: String.self)
            })
        #expect(loaded.document == StoredPolicyReader.read(text: storedText).document)

        let ready = try TestTransport.live(port: service.port).get("/readyz")
        #expect(ready.status == 200, "\(ready.body)")
        #expect(ready.body.contains("\"migrations\":\"\(service.migrator.migrations.count)\""))

        // The document the release served, plus this build's fallback texts at the documented pointers.
        let served = try TestTransport.live(port: service.port).get("/v1/apps/demo/policy/document")
        #expect(served.status == 200, "\(served.body)")
        let old = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(Self.directory)/\(commit).document.json")))
        let fallbacks = Self.documentedFallbacks(commit)
        if fallbacks.isEmpty {
            #expect(served.bytes == old, "the document served differs from \(commit)'s")
        } else {
            var expected = try JSONValue(parsing: old)
            for pointer in fallbacks {
                let tokens = pointer.tokens
                let key = try #require(
                    CopyScreen(rawValue: tokens[tokens.count - 2]).flatMap { screen in
                        CopyField(rawValue: tokens[tokens.count - 1]).map { CopyKey(screen, $0) }
                    })
                expected = Self.setting(.string(CopyFallback.text(key)), at: tokens[...], in: expected)
            }
            // In canonical order: the fallbacks sit where their screen and field belong.
            let (document, problems) = PolicyDocument.decode(expected)
            #expect(problems.isEmpty)
            #expect(
                String(decoding: served.bytes, as: UTF8.self) == document.jsonValue.serialized(),
                "the document served is not \(commit)'s plus the fallbacks in its .fallbacks file")
            let summary = try #require(service.policyStore.snapshot(app: "demo"))
            #expect(summary.fallbacks == fallbacks)
            #expect(!summary.storedFindings.isEmpty)
            // The findings are shown where an operator looks: the app summary and the preview.
            let admin = try TestTransport.live(port: service.port).exchange(
                AdminRequest.bytes("GET", "/v1/admin/apps/demo", token: AdminServer.secret))
            #expect((admin.object["storedFindings"] as? [Any])?.count == summary.storedFindings.count)
            let preview = try TestTransport.live(port: service.port).exchange(
                AdminRequest.bytes("GET", "/v1/admin/apps/demo/revisions/1/preview", token: AdminServer.secret))
            #expect(preview.status == 200)
            #expect(preview.body.contains("STORED"))
        }
        #expect(try TestTransport.live(port: service.port).get("/v1/apps/demo/policy").status == 200)

        let events = try service.database.read { db in
            try db.query("SELECT client_event_id FROM events WHERE app_id = 'demo' ORDER BY client_event_id").map {
                try $0.get(0, as: String.self)
            }
        }
        #expect(events == (0..<5).map { "upgrade-event-\($0)" })

        // Migration 0011: the app's data is production's; production by name serves the same bytes, and the
        // existing (bootstrap) token still reaches everything.
        let byName = try TestTransport.live(port: service.port).get(
            "/v1/apps/demo/environments/production/policy/document")
        #expect(byName.bytes == served.bytes)
        let environments = try TestTransport.live(port: service.port).exchange(
            AdminRequest.bytes("GET", "/v1/admin/apps/demo/environments", token: AdminServer.secret))
        let listed = environments.object["environments"] as? [[String: Any]] ?? []
        #expect(listed.compactMap { $0["name"] as? String } == ["production"])
        #expect(listed.first?["liveRevision"] as? Int == service.policyStore.snapshot(app: "demo")?.revision)
        let filed = try service.database.read { db in
            try db.query("SELECT DISTINCT environment FROM events").map { try $0.get(0, as: String.self) }
        }
        #expect(filed == ["production"])
    }

    /// `<commit>.fallbacks`: the pointers where this build serves a ``CopyFallback`` text, one per line (the
    /// documented difference); no file means the same bytes.
    static func documentedFallbacks(_ commit: String) -> [JSONPointer] {
        guard let text = try? String(contentsOfFile: "\(directory)/\(commit).fallbacks", encoding: .utf8) else {
            return []
        }
        return text.split(separator: "\n").compactMap { JSONPointer(String($0)) }
    }

    static func setting(_ value: JSONValue, at tokens: ArraySlice<String>, in json: JSONValue) -> JSONValue {
        guard let token = tokens.first, case .object(var object) = json else { return tokens.isEmpty ? value : json }
        object[token] = setting(value, at: tokens.dropFirst(), in: object[token] ?? .object(JSONObject()))
        return .object(object)
    }
}
