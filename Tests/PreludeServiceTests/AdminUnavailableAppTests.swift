import Foundation
import Testing

@testable import PreludeService

/// An app whose stored live revision does not validate (an older format, a hand-edited database) can be read and
/// repaired through the admin API, but only by a whole-policy PUT with `If-Match: *`.
@Suite struct AdminUnavailableAppTests {
    @Test func brokenLiveRevisionIsShownWithoutETagAndReplacedWithIfMatchStar() throws {
        let server = try AdminServer(policy: #"{"schemaVersion": 1, "app": "demo", "features": {"camera": {}}}"#)
        let stored = try server.send("GET", "/v1/admin/apps/demo/policy")
        #expect(stored.status == 200)
        #expect(stored.headers["etag"] == nil)
        #expect(stored.headers["prelude-policy-status"] == "unavailable")
        #expect(stored.body.contains(#""app": "demo""#))
        let summary = try server.send("GET", "/v1/admin/apps/demo")
        #expect(summary.object["status"] as? String == "unavailable")
        #expect(try server.send("GET", "/v1/admin/apps/demo/features/camera").status == 409)

        let json = ("Content-Type", "application/json")
        #expect(
            try server.send("PUT", "/v1/admin/apps/demo/policy", headers: [json], body: AdminServer.policyText).status
                == 428)
        #expect(
            try server.send(
                "PUT", "/v1/admin/apps/demo/policy", headers: [("If-Match", #""r1-whatever""#), json],
                body: AdminServer.policyText
            ).status == 412)
        let repaired = try server.send(
            "PUT", "/v1/admin/apps/demo/policy", headers: [("If-Match", "*"), json], body: AdminServer.policyText)
        #expect(repaired.status == 200, "\(repaired.body)")
        #expect(repaired.object["revision"] as? Int == 2)
        #expect(try server.send("GET", "/v1/admin/apps/demo").object["status"] as? String == "served")
    }

    @Test func conditionalReadsAndPrettyProblems() throws {
        let server = try AdminServer()
        let etag = try server.etag()
        let notModified = try server.send("GET", "/v1/admin/apps/demo/policy", headers: [("If-None-Match", etag)])
        #expect(notModified.status == 304)
        #expect(notModified.headers["etag"] == etag)
        let head = try server.send("HEAD", "/v1/admin/apps/demo/policy")
        #expect(head.status == 200 && head.body.isEmpty && head.headers["etag"] == etag)
        let problem = try server.send(
            "PUT", "/v1/admin/apps/demo/policy?pretty", headers: [("Content-Type", "application/json")], body: "{}")
        #expect(problem.status == 428)
        #expect(problem.body.hasPrefix("{\n  \""))
        #expect(problem.headers["content-type"] == "application/problem+json")
    }
}
