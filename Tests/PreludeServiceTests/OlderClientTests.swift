import Foundation
import PreludeCore
import PreludeTestSupport
import Testing

@testable import PreludeService

/// A client release that refuses unknown members (0.1.0: every member of an experiment but `key`, `feature`,
/// `seed`, `coverage` and `variants`) keeps accepting what this build serves after a policy fixes its analysis
/// settings (docs/policy.md, "What clients receive").
///
/// The reference is `Tests/Fixtures/upgrade/6fd4aef.document.json`: the bytes the 0.1.0 server (6fd4aef) served
/// to its clients, which they accepted. Publishing the same policy with `alpha` and `minimumEffect` added must serve
/// exactly those bytes again, while the admin API and the results keep the settings.
@Suite(.enabled(if: !TestDatabase.isPostgres, "SQLite fixture files written by earlier releases"))
struct OlderClientTests {
    @Test func analysisSettingsStayOutOfTheDocumentClientsFetch() throws {
        let fixture = ServiceFixture()
        try FileManager.default.copyItem(
            atPath: "\(UpgradeFixtureTests.directory)/6fd4aef.sqlite", toPath: fixture.path("prelude.sqlite"))
        var configuration = ServiceFixture.make(fixture)
        configuration.demoPolicy = ""
        configuration.adminToken = RedactedSecret(AdminServer.secret)
        let service = try PreludeService.start(configuration: configuration, logger: Logger(level: .error))
        defer { service.stop() }
        let accepted = try [UInt8](
            Data(contentsOf: URL(fileURLWithPath: "\(UpgradeFixtureTests.directory)/6fd4aef.document.json")))

        let before = try TestTransport.live(port: service.port).get("/v1/apps/demo/policy/document")
        let servedAsBefore = before.bytes == accepted
        #expect(servedAsBefore, "this build serves the 0.1.0 fixture's bytes before the change")
        let tag = try #require(before.headers["etag"])

        var settled = try JSONValue(parsing: accepted)
        var experiments = try #require(settled["experiments"]?.arrayValue)
        var experiment = try #require(experiments.first?.objectValue)
        experiment["alpha"] = .number(0.01)
        experiment["minimumEffect"] = .number(0.03)
        experiments[0] = .object(experiment)
        settled = settled.mergePatch(["experiments": .array(experiments)])
        let put = try TestTransport.live(port: service.port).exchange(
            AdminRequest.bytes(
                "PUT", "/v1/admin/apps/demo/policy", token: AdminServer.secret, headers: [("If-Match", tag)],
                body: settled.serialized()))
        #expect(put.status == 200, "\(put.body)")

        // Clients: the bytes 0.1.0 clients accepted, under the new revision's tag.
        let after = try TestTransport.live(port: service.port).get("/v1/apps/demo/policy/document")
        #expect(after.status == 200)
        let servedAsAccepted = after.bytes == accepted  // compared outside #expect: no byte dump on failure
        let mismatch =
            "the client document differs from what 0.1.0 clients accepted: \(after.body.count) bytes, alpha: "
            + "\(after.body.contains("\"alpha\"")), minimumEffect: \(after.body.contains("minimumEffect"))"
        #expect(servedAsAccepted, "\(mismatch)")
        #expect(after.headers["etag"]?.hasPrefix("\"r2-") == true)
        #expect(PolicyValidator.validate(bytes: after.bytes, unknownMembers: .skippedInExperiments).isValid)

        // Operators and the analysis: the settings are the revision's.
        let admin = try TestTransport.live(port: service.port).exchange(
            AdminRequest.bytes("GET", "/v1/admin/apps/demo/policy", token: AdminServer.secret))
        let stored = try JSONValue(parsing: admin.bytes)
        #expect(stored["experiments"]?[0]?["alpha"] == .number(0.01))
        #expect(stored["experiments"]?[0]?["minimumEffect"] == .number(0.03))
        let live = try #require(service.policyStore.snapshot(app: "demo"))
        #expect(live.document.experiments.first?.analysisAlpha == 0.01)
        #expect(live.canonicalBytes != live.clientBytes)
    }
}
