import Foundation
import PreludeStorage
import Testing

@testable import PreludeService

/// An acknowledged admin write survives `kill -9` of the real binary right after its 200.
@Suite struct AdminDurabilityTests {
    @Test func acknowledgedPolicyWriteSurvivesKill9() throws {
        let fixture = ServiceFixture()
        fixture.write("policy.json", AdminServer.policyText)
        let database = fixture.path("kill.sqlite")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(CommandLineTests.binary()))
        process.arguments = [
            "serve", "--port", "0", "--database", database, "--demo-policy", fixture.path("policy.json"),
            "--migrations-dir", ServiceFixture.repositoryRoot + "/migrations",
        ]
        process.environment = ["SWIFT_BACKTRACE": "enable=no", "PRELUDE_ADMIN_TOKEN": AdminServer.secret]
        let err = Pipe()
        process.standardError = err
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        var log = ""
        while !log.contains("\"msg\":\"listening\"") {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            log += String(decoding: chunk, as: UTF8.self)
        }
        let port = try #require(
            log.firstMatch(of: /"msg":"listening"[^\n]*"port":"(\d+)"/).flatMap { Int($0.output.1) },
            "no port in: \(log)")

        var acknowledged: [(revision: Int, title: String)] = []
        for round in 1...3 {
            let etag = try #require(
                try AdminClient.send(
                    AdminClient.request("GET", "/v1/admin/apps/demo/policy", token: AdminServer.secret), port: port
                ).headers["etag"])
            let title = "Durable title \(round)."
            let response = try AdminClient.send(
                AdminClient.request(
                    "PATCH", "/v1/admin/apps/demo/features/camera", token: AdminServer.secret,
                    headers: [("If-Match", etag), ("Content-Type", "application/merge-patch+json")],
                    body: #"{"copy": {"en": {"prime": {"title": "\#(title)"}}}}"#), port: port)
            #expect(response.status == 200)
            acknowledged.append((try #require(response.object["revision"] as? Int), title))
        }
        // SIGKILL right after the last 200: no shutdown, no checkpoint, no close.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let reopened = try Database(path: database, readerCount: 1)
        defer { reopened.close() }
        try reopened.read { db in
            #expect(try db.scalar("PRAGMA integrity_check", as: String.self) == "ok")
            #expect(try db.scalar("SELECT live_revision FROM apps WHERE id = 'demo'", as: Int64.self) == 4)
            for (revision, title) in acknowledged {
                let document = try db.scalar(
                    "SELECT document FROM policy_revisions WHERE app_id = 'demo' AND number = ?",
                    [.integer(Int64(revision))], as: String.self)
                #expect(document?.contains(title) == true)
                let audit = try db.queryOne(
                    "SELECT actor, action FROM audit_log WHERE app_id = 'demo' AND revision = ?",
                    [.integer(Int64(revision))])
                #expect(try audit?.get("actor", as: String.self) == "bootstrap")
                #expect(try audit?.get("action", as: String.self) == "feature.patch")
            }
        }
    }
}
