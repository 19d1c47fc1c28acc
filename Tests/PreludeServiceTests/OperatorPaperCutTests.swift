import Foundation
import PreludeCore
import PreludeStorage
import Testing

@testable import PreludeService

/// What a new operator hit following the docs (issue 24): each answer names what is wrong and what was meant.
@Suite struct OperatorPaperCutTests {
    static let json = ("Content-Type", "application/json")

    /// RFC 9110 §13.2.1: the precondition is evaluated before the method's work. A stale `If-Match` is refused
    /// without reading the body: a body that is not even JSON still gets 412, not 400.
    @Test func staleIfMatchIsRefusedBeforeTheBodyIsParsedOrValidated() throws {
        let server = try AdminServer()
        _ = try server.etag()  // the token's first use records its last use; the dump comes after
        let before = try server.dump()
        let stale = [("If-Match", #""r99-0000000000000000-1""#), Self.json]
        for (method, path) in [
            ("PUT", "/v1/admin/apps/demo/policy"), ("PATCH", "/v1/admin/apps/demo/features/camera"),
            ("PUT", "/v1/admin/apps/demo/features/camera"),
        ] {
            let response = try server.send(method, path, headers: stale, body: "not json {")
            #expect(response.status == 412, "\(method) \(path): \(response.body)")
            #expect(response.headers["etag"] == (try server.etag()))
        }
        #expect(try server.dump() == before)
    }

    @Test func seededAppIsNamedAsItsPolicy() throws {
        let server = try AdminServer(
            policy: AdminServer.policyText.replacingOccurrences(
                of: #""name": "Demo""#, with: #""name": "Prelude Demo""#))
        #expect(try server.send("GET", "/v1/admin/apps/demo").object["name"] as? String == "Prelude Demo")
    }

    @Test func mistypedFeatureNamesTheFeatureMeant() throws {
        let server = try AdminServer()
        let patch = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/camra", headers: [("If-Match", try server.etag()), Self.json],
            body: "{}")
        #expect(patch.status == 404)
        #expect(patch.body.contains(#"did you mean \"camera\"?"#), "\(patch.body)")
        #expect(!patch.body.contains("adds it"))
        let put = try server.send(
            "PUT", "/v1/admin/apps/demo/features/camra", headers: [("If-Match", try server.etag()), Self.json],
            body: "{}")
        #expect(put.status == 422)
        #expect(put.body.contains(#"Did you mean \"camera\"?"#), "\(put.body)")
        // A catalogue feature the app does not configure yet: PUT adds it.
        let absent = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/photos", headers: [("If-Match", try server.etag()), Self.json],
            body: "{}")
        #expect(absent.status == 404 && absent.body.contains("adds it"))
    }

    @Test func unknownAppProblemNamesTheAdminResource() throws {
        let server = try AdminServer()
        let response = try server.send("GET", "/v1/admin/apps/dmo/policy")
        #expect(response.status == 404)
        #expect(response.object["instance"] as? String == "/v1/admin/apps/dmo/policy")
    }
}

extension OperatorPaperCutTests {
    /// openapi.yaml: `size` is bytes of the stored document, not characters.
    @Test func revisionSizeIsBytes() throws {
        let server = try AdminServer()
        let accented = AdminServer.policyText.replacingOccurrences(of: "Scan documents", with: "Numérisez vos reçus")
        let put = try server.send(
            "PUT", "/v1/admin/apps/demo/policy", headers: [("If-Match", try server.etag()), Self.json], body: accented)
        #expect(put.status == 200, "\(put.body)")
        let stored = try server.service.database.read { db in
            try db.query("SELECT number, document FROM policy_revisions WHERE app_id = 'demo'").map {
                (Int(try $0.get(0, as: Int64.self)), try $0.get(1, as: String.self).utf8.count)
            }
        }
        let listed = try server.send("GET", "/v1/admin/apps/demo/revisions")
        let revisions = try #require(listed.object["revisions"] as? [[String: Any]])
        let sizes = Dictionary(
            uniqueKeysWithValues: revisions.map { ($0["number"] as? Int ?? 0, $0["size"] as? Int ?? 0) })
        for (number, bytes) in stored { #expect(sizes[number] == bytes, "revision \(number)") }
        #expect(stored.contains { $0.0 == 2 })
    }
}

extension OperatorPaperCutTests {
    /// docs/api.md: a 422 is `urn:prelude:problem:validation`; `invalid-request` is the 400 type.
    @Test func concludeWithAnUnknownWinnerIsAValidationProblem() throws {
        let server = try AdminServer()
        let response = try server.send(
            "POST", "/v1/admin/apps/demo/experiments/mic/conclude",
            headers: [("If-Match", try server.etag()), Self.json], body: #"{"winner":"benefit"}"#)
        #expect(response.status == 422)
        #expect(response.object["type"] as? String == "urn:prelude:problem:validation")
    }
}

extension OperatorPaperCutTests {
    /// docs/api.md: a refused batch lists every problem — a malformed event and one naming an experiment the live
    /// policy does not define are reported together.
    @Test func everyBadEventOfABatchIsReported() throws {
        let server = try AdminServer()
        let body = """
            {"events":[
              {"id":"a","installId":"i","type":"primeShwn","feature":"microphone","occurredAt":"2026-11-22T12:30:00Z"},
              {"id":"b","installId":"i","type":"primeShown","feature":"microphone","experiment":"nope","variant":"a",
               "occurredAt":"2026-11-22T12:30:00Z"}]}
            """
        let response = try TestTransport.live(port: server.service.port).exchange(
            AdminRequest.bytes("POST", "/v1/apps/demo/events", token: nil, headers: [Self.json], body: body))
        #expect(response.status == 422)
        let pointers = (response.object["errors"] as? [[String: Any]] ?? []).compactMap { $0["pointer"] as? String }
        #expect(pointers == ["/events/0/type", "/events/1/experiment"], "\(response.body)")
    }
}

extension OperatorPaperCutTests {
    /// A revision committed by another process (`prelude policy import`): the summary's revision and ETag are the
    /// same revision's at once, not the new number with the old tag until the reloader catches up.
    @Test func summaryAfterAnotherProcessCommitsNamesOneRevision() throws {
        let server = try AdminServer()
        let other = try PreludeStorage.Database(path: server.service.configuration.database, readerCount: 1)
        defer { other.close() }
        let store = PolicyStore(database: other)
        try store.loadAll()
        let edited = AdminServer.policyText.replacingOccurrences(of: "Scan documents", with: "Scan receipts")
        let document = try #require(PolicyValidator.validate(text: edited).document)
        let committed = try store.commit(
            app: "demo", document: document, author: "cli", action: "policy.import", message: nil, precondition: nil,
            auditDetail: .object(JSONObject()))
        let summary = try server.send("GET", "/v1/admin/apps/demo")
        #expect(summary.object["liveRevision"] as? Int == committed.revision)
        #expect(summary.object["etag"] as? String == committed.etag.headerValue)
        #expect(summary.headers["etag"] == committed.etag.headerValue)
    }
}

extension OperatorPaperCutTests {
    /// A copy edit a running experiment's variant overrides for its arm: the write succeeds and its answer names the
    /// experiment and arm that keep their own text.
    @Test func copyEditOverriddenByARunningVariantIsNamed() throws {
        let policy = AdminServer.policyText.replacingOccurrences(
            of: #"{"name": "a", "weight": 50}"#,
            with: #"{"name": "a", "weight": 50, "set": {"copy": {"en": {"prime": {"title": "Voice memos"}}}}}"#)
        let server = try AdminServer(policy: policy)
        let response = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/microphone",
            headers: [("If-Match", try server.etag()), ("Content-Type", "application/merge-patch+json")],
            body: #"{"copy": {"en": {"prime": {"title": "Record voice notes"}}}}"#)
        #expect(response.status == 200, "\(response.body)")
        let findings = try #require(response.object["findings"] as? [[String: Any]])
        #expect(findings.count == 1)
        #expect(findings.first?["experiment"] as? String == "mic")
        #expect(findings.first?["variant"] as? String == "a")
        #expect(findings.first?["pointer"] as? String == "/experiments/0/variants/0/set/copy/en/prime/title")
        // A text no variant overrides: no finding.
        let other = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/microphone",
            headers: [("If-Match", try server.etag()), ("Content-Type", "application/merge-patch+json")],
            body: #"{"copy": {"en": {"prime": {"message": "{appName} records your voice notes."}}}}"#)
        #expect((other.object["findings"] as? [Any])?.isEmpty == true, "\(other.body)")
    }
}
