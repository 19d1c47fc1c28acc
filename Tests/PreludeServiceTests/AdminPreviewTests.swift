import Foundation
import PreludeStorage
import Testing

@testable import PreludeService

/// The policy preview over the admin API, against a live server on port 0.
@Suite struct AdminPreviewTests {
    private func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    private func readToken(_ server: AdminServer) throws -> String {
        let created = try server.send("POST", "/v1/admin/tokens", body: #"{"name": "viewer", "scope": "read"}"#)
        return try #require(created.object["token"] as? String)
    }

    /// The fixture policy with the camera's English priming title replaced.
    private func proposed(title: String) -> String {
        AdminServer.policyText.replacingOccurrences(of: "\"Scan documents\"", with: "\"\(title)\"")
    }

    @Test func previewsTheLivePolicyAsHTMLWithItsRevisionAndHash() throws {
        let server = try AdminServer()
        let token = try readToken(server)
        let response = try server.send("GET", "/v1/admin/apps/demo/preview", token: token)
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "text/html; charset=utf-8")
        #expect(response.headers["cache-control"] == "no-store")
        #expect(response.headers["content-security-policy"]?.hasPrefix("default-src 'none'") == true)
        #expect(response.body.hasPrefix("<!DOCTYPE html>"))
        #expect(response.body.contains("<dd id=\"revision\">1</dd>"))
        #expect(response.body.contains("revision 1 (live)"))
        // The hash is that of the canonical document the policy endpoint serves.
        let canonical = try server.send("GET", "/v1/admin/apps/demo/policy", token: token).body
        #expect(response.body.contains(SHA256.hex(SHA256.digest(Array(canonical.utf8)))))
        // Microphone (base + two arms) and camera, each with its screens, in the one locale.
        #expect(response.body.contains("id=\"s.microphone.en.e0-1.prime\""))
        #expect(response.body.contains("id=\"s.camera.en.base.unsupported\""))
        #expect(response.body.contains("Demo records voice notes."))
        // The same revision renders the same bytes.
        #expect(try server.send("GET", "/v1/admin/apps/demo/preview", token: token).body == response.body)
    }

    @Test func previewsAStoredRevision() throws {
        let server = try AdminServer()
        let put = try server.send(
            "PUT", "/v1/admin/apps/demo/policy", headers: [("If-Match", try server.etag())],
            body: proposed(title: "Scan receipts"))
        #expect(put.status == 200)
        let old = try server.send("GET", "/v1/admin/apps/demo/revisions/1/preview")
        #expect(old.status == 200)
        #expect(old.body.contains("<dd id=\"origin\">revision 1</dd>") && old.body.contains(">Scan documents<"))
        let live = try server.send("GET", "/v1/admin/apps/demo/revisions/2/preview")
        #expect(live.body.contains("<dd id=\"origin\">revision 2 (live)</dd>") && live.body.contains(">Scan receipts<"))
        #expect(try server.send("GET", "/v1/admin/apps/demo/preview").body == live.body)
        let missing = try server.send("GET", "/v1/admin/apps/demo/revisions/9/preview")
        #expect(missing.status == 404)
        #expect(missing.headers["content-type"] == "application/problem+json")
        #expect(try server.send("GET", "/v1/admin/apps/demo/revisions/zero/preview").status == 400)
    }

    @Test func previewsAProposedDocumentNextToTheLiveOneWithoutSaving() throws {
        let server = try AdminServer()
        let token = try readToken(server)
        let etag = try server.etag()
        let response = try server.send(
            "POST", "/v1/admin/apps/demo/preview", token: token, body: proposed(title: "Scan receipts <fast>"))
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "text/html; charset=utf-8")
        #expect(response.body.contains("proposed (not saved)"))
        #expect(response.body.contains("Compared with"))
        #expect(response.body.contains("1 changed, 0 added, 0 removed"))
        #expect(count("data-change=\"changed\"", in: response.body) == 1)
        #expect(response.body.contains("Scan receipts &lt;fast&gt;"))
        #expect(count("<p class=\"side-label\">live</p>", in: response.body) == 1)
        // Nothing was written.
        #expect(try server.etag() == etag)
        let revisions = try server.send("GET", "/v1/admin/apps/demo/revisions").object["revisions"] as? [Any]
        #expect(revisions?.count == 1)
    }

    @Test func refusesBadDocumentsWithProblemsAndPointers() throws {
        let server = try AdminServer()
        let invalid = try server.send(
            "POST", "/v1/admin/apps/demo/preview",
            body: AdminServer.policyText.replacingOccurrences(of: "\"weight\": 50}]", with: "\"weight\": 70}]"))
        #expect(invalid.status == 422)
        #expect(invalid.headers["content-type"] == "application/problem+json")
        let pointers = (invalid.object["errors"] as? [[String: Any]])?.compactMap { $0["pointer"] as? String } ?? []
        #expect(pointers.contains { $0.hasPrefix("/experiments/0") }, "\(invalid.body)")

        let mismatch = try server.send(
            "POST", "/v1/admin/apps/demo/preview",
            body: AdminServer.policyText.replacingOccurrences(of: "\"id\": \"demo\"", with: "\"id\": \"other\""))
        #expect(mismatch.status == 422)
        #expect(mismatch.body.contains("/app/id"))

        #expect(try server.send("POST", "/v1/admin/apps/demo/preview", body: "{not json").status == 400)
        let plain = try server.send(
            "POST", "/v1/admin/apps/demo/preview", headers: [("Content-Type", "text/plain")], body: "{}")
        #expect(plain.status == 415)
        #expect(try server.send("POST", "/v1/admin/apps/nope/preview", body: AdminServer.policyText).status == 404)
        #expect(try server.send("GET", "/v1/admin/apps/nope/preview").status == 404)
        #expect(try server.send("GET", "/v1/admin/apps/demo/preview", token: nil).status == 401)
    }
}
