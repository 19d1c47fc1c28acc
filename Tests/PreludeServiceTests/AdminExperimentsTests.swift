import Foundation
import Testing

@testable import PreludeService

/// Issue 17: experiments are read, merge-patched, started, stopped and concluded one request at a time.
@Suite("Admin experiments")
struct AdminExperimentsTests {
    @Test func readsOneExperimentWithThePolicyETag() throws {
        let server = try AdminServer()
        let response = try server.send("GET", "/v1/admin/apps/demo/experiments/mic")
        #expect(response.status == 200)
        #expect(response.headers["etag"] == (try server.etag()))
        #expect(response.object["feature"] as? String == "microphone")
        #expect(try server.send("GET", "/v1/admin/apps/demo/experiments/nope").status == 404)
        let list = try server.send("GET", "/v1/admin/apps/demo/experiments")
        #expect((list.object["experiments"] as? [[String: Any]])?.first?["status"] as? String == "running")
    }

    @Test func weightsChangeWithOneSmallPatch() throws {
        let server = try AdminServer()
        let etag = try server.etag()
        let noIfMatch = try server.send(
            "PATCH", "/v1/admin/apps/demo/experiments/mic", body: #"{"variants": {"b": {"weight": 70}}}"#)
        #expect(noIfMatch.status == 428)
        let patched = try server.send(
            "PATCH", "/v1/admin/apps/demo/experiments/mic",
            headers: [("If-Match", etag), ("Content-Type", "application/merge-patch+json")],
            body: #"{"variants": {"a": {"weight": 30}, "b": {"weight": 70}}}"#)
        #expect(patched.status == 200, "\(patched.body)")
        #expect(patched.object["changed"] as? Bool == true)
        #expect(patched.object["lint"] is [Any])
        let variants = try #require(
            try server.send("GET", "/v1/admin/apps/demo/experiments/mic").object["variants"] as? [[String: Any]])
        #expect(variants.map { $0["weight"] as? Double } == [30, 70])
        let audit = try server.send("GET", "/v1/admin/audit?action=experiment.patch")
        let entry = try #require((audit.object["entries"] as? [[String: Any]])?.first)
        #expect((entry["detail"] as? [String: Any])?["experiment"] as? String == "mic")
        #expect(
            try server.send("GET", "/v1/admin/apps/demo/revisions").object["revisions"].map { ($0 as? [Any])?.count }
                == 2)
        // Stale, invalid (weights must sum to 100): refused, nothing written.
        let before = try server.dump()
        #expect(
            try server.send(
                "PATCH", "/v1/admin/apps/demo/experiments/mic", headers: [("If-Match", etag)],
                body: #"{"coverage": 0.5}"#
            ).status == 412)
        let invalid = try server.send(
            "PATCH", "/v1/admin/apps/demo/experiments/mic", headers: [("If-Match", try server.etag())],
            body: #"{"variants": {"a": {"weight": 10}}}"#)
        #expect(invalid.status == 422, "\(invalid.body)")
        #expect(try server.dump() == before)
    }

    @Test func stopAndStartKeepTheCoverage() throws {
        let server = try AdminServer()
        let half = try server.send(
            "PATCH", "/v1/admin/apps/demo/experiments/mic", headers: [("If-Match", try server.etag())],
            body: #"{"coverage": 0.5}"#)
        #expect(half.status == 200)
        let stop = try server.send(
            "POST", "/v1/admin/apps/demo/experiments/mic/stop", headers: [("If-Match", try server.etag())])
        #expect(stop.status == 200, "\(stop.body)")
        let stopped = try server.send("GET", "/v1/admin/apps/demo/experiments/mic")
        #expect(stopped.object["coverage"] as? Double == 0)
        #expect(stopped.headers["prelude-experiment-status"] == "stopped")
        let start = try server.send(
            "POST", "/v1/admin/apps/demo/experiments/mic/start", headers: [("If-Match", try server.etag())])
        #expect(start.status == 200, "\(start.body)")
        #expect(try server.send("GET", "/v1/admin/apps/demo/experiments/mic").object["coverage"] as? Double == 0.5)
        let full = try server.send(
            "POST", "/v1/admin/apps/demo/experiments/mic/start", headers: [("If-Match", try server.etag())],
            body: #"{"coverage": 1}"#)
        #expect(full.status == 200)
        #expect(try server.send("GET", "/v1/admin/apps/demo/experiments/mic").object["coverage"] as? Double == 1)
        let actions = try #require(
            try server.send("GET", "/v1/admin/audit?app=demo").object["entries"] as? [[String: Any]])
        #expect(
            actions.compactMap { $0["action"] as? String }.prefix(4)
                == ["experiment.start", "experiment.start", "experiment.stop", "experiment.patch"])
    }

    @Test func concludeKeepsTheWinnersSettingsAndRemovesTheExperiment() throws {
        let policy = AdminServer.policyText.replacingOccurrences(
            of: #"{"name": "b", "weight": 50}"#,
            with: #"{"name": "b", "weight": 50, "set": {"copy": {"en": {"prime": {"title": "Voice notes"}}}}}"#)
        let server = try AdminServer(policy: policy)
        let missing = try server.send(
            "POST", "/v1/admin/apps/demo/experiments/mic/conclude", headers: [("If-Match", try server.etag())])
        #expect(missing.status == 422)
        let wrong = try server.send(
            "POST", "/v1/admin/apps/demo/experiments/mic/conclude", headers: [("If-Match", try server.etag())],
            body: #"{"winner": "c"}"#)
        #expect(wrong.status == 422)
        #expect((wrong.object["errors"] as? [[String: Any]])?.first?["pointer"] as? String == "/winner")
        let concluded = try server.send(
            "POST", "/v1/admin/apps/demo/experiments/mic/conclude", headers: [("If-Match", try server.etag())],
            body: #"{"winner": "b"}"#)
        #expect(concluded.status == 200, "\(concluded.body)")
        #expect(try server.send("GET", "/v1/admin/apps/demo/experiments/mic").status == 404)
        let microphone = try server.send("GET", "/v1/admin/apps/demo/features/microphone")
        #expect(microphone.body.contains("Voice notes"), "\(microphone.body)")
        #expect(microphone.body.contains("{appName} records voice notes."))
        // Results still find the experiment's configuration in the revision before.
        let results = try server.send("GET", "/v1/admin/apps/demo/experiments/mic/results")
        #expect(results.status == 200, "\(results.body)")
        #expect((results.object["configuration"] as? [String: Any])?["source"] as? String == "revision")
    }

    @Test func putCreatesAnExperimentAndDeleteRemovesIt() throws {
        let server = try AdminServer()
        let created = try server.send(
            "PUT", "/v1/admin/apps/demo/experiments/cam", headers: [("If-Match", try server.etag())],
            body: #"{"feature": "camera", "variants": [{"name": "a", "weight": 50}, {"name": "b", "weight": 50}]}"#)
        #expect(created.status == 201, "\(created.body)")
        let otherKey = try server.send(
            "PUT", "/v1/admin/apps/demo/experiments/cam", headers: [("If-Match", try server.etag())],
            body: #"{"key": "x", "feature": "camera", "variants": [{"name": "a", "weight": 100}]}"#)
        #expect(otherKey.status == 422)
        let deleted = try server.send(
            "DELETE", "/v1/admin/apps/demo/experiments/cam", headers: [("If-Match", try server.etag())])
        #expect(deleted.status == 200)
        #expect(try server.send("GET", "/v1/admin/apps/demo/experiments/cam").status == 404)
    }
}
