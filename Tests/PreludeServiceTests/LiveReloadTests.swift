import Foundation
import Testing

@testable import PreludeService

/// A revision another process commits goes live in the running server within a second (LivePolicyReloader).
@Suite struct LiveReloadTests {
    @Test func policyImportIntoARunningServersDatabaseIsServedWithinOneSecond() throws {
        let fixture = ServiceFixture()
        let policy = ServiceFixture.repositoryRoot + "/config/demo-policy.json"
        let database = fixture.path("live.sqlite")
        let server = try ServerProcess.start(database: database, policy: policy)
        defer { server.killHard() }
        let before = try TestTransport.live(port: server.port).get("/v1/apps/demo/policy/document")
        #expect(before.status == 200)
        #expect(before.headers["etag"]?.hasPrefix("\"r1-") == true)

        let text = try String(contentsOfFile: policy, encoding: .utf8)
        let renamed = text.replacingOccurrences(of: #""name": "Prelude Demo""#, with: #""name": "Renamed Demo""#)
        #expect(renamed != text)
        fixture.write("renamed.json", renamed)
        let imported = try CommandLineTests.runPrelude(
            [
                "policy", "import", fixture.path("renamed.json"), "--database", database, "--migrations-dir",
                ServiceFixture.repositoryRoot + "/migrations",
            ], in: fixture.directory)
        #expect(imported.status == 0, "\(imported.stderr)")
        let committed = Date()

        var served = before
        while Date().timeIntervalSince(committed) < 1 {
            served = try TestTransport.live(port: server.port).get("/v1/apps/demo/policy/document")
            if served.headers["etag"] != before.headers["etag"] { break }
            usleep(20_000)
        }
        #expect(served.headers["etag"]?.hasPrefix("\"r2-") == true, "not served within 1 s")
        #expect(served.body.contains("Renamed Demo"))
    }
}
