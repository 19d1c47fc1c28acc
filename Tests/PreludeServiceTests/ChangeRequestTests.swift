import Foundation
import PreludeCore
import PreludeStorage
import Testing

@testable import PreludeService

/// Change requests over the real server (docs/change-management.md): every transition, every refusal, and that
/// applying publishes exactly one audited revision.
@Suite struct ChangeRequestTests {
    static let base = "/v1/admin/apps/demo/environments/production/change-requests"
    static let two = ApprovalRules(requiredApprovals: 2, allowSelfApproval: false)

    static func id(_ response: TestTransport.Response) throws -> Int {
        try #require(response.object["id"] as? Int, "no id in \(response.status) \(response.body)")
    }

    @Test func aDirectChangeRequestAppliesAsOneAuditedRevision() throws {
        let server = try ChangeServer()
        let created = try server.propose(title: "Scan receipts")
        #expect(created.status == 201)
        #expect(created.object["state"] as? String == "approved")
        #expect(created.object["baseRevision"] as? Int == 1)
        let id = try Self.id(created)
        #expect(created.headers["location"] == "\(Self.base)/\(id)")
        #expect(created.headers["etag"] == "\"cr\(id)-v1\"")
        // A write answers the state and links; the diff, findings and document are the GET's.
        #expect(created.object["changedPointers"] as? [String] == ["/features/camera/copy/en/prime/title"])
        #expect(created.object["diff"] == nil)

        let shown = try server.send("GET", "\(Self.base)/\(id)")
        #expect(shown.status == 200)
        let diff = try #require(shown.object["diff"] as? [[String: Any]])
        #expect(diff.count == 1)
        #expect(diff.first?["pointer"] as? String == "/features/camera/copy/en/prime/title")
        #expect(diff.first?["to"] as? String == "Scan receipts")
        let findings = try #require(shown.object["findings"] as? [String: Any])
        #expect((findings["validation"] as? [Any])?.isEmpty == true)
        #expect(shown.object["message"] as? String == "retitle")
        let listed = try server.send("GET", Self.base + "?state=approved")
        let items = try #require(listed.object["changeRequests"] as? [[String: Any]])
        #expect(items.map { $0["id"] as? Int } == [id])
        // The path without an environment is production.
        #expect(try server.send("GET", "/v1/admin/apps/demo/change-requests/\(id)").status == 200)

        let applied = try server.send("POST", "\(Self.base)/\(id)/apply")
        #expect(applied.status == 200, "\(applied.body)")
        #expect(applied.object["state"] as? String == "applied")
        #expect(applied.object["appliedRevision"] as? Int == 2)
        #expect((applied.object["policy"] as? [String: Any])?["revision"] as? Int == 2)
        #expect(try server.revisionCount() == 2)
        let policy = try server.send("GET", "/v1/admin/apps/demo/policy")
        #expect(policy.body.contains("Scan receipts"))
        let audit = try server.audit("changeRequest.apply")
        #expect(audit.count == 1)
        #expect(audit.first?.revision == 2)
        #expect(audit.first?.detail["changeRequest"] as? Int == id)
        #expect(audit.first?.detail["approvers"] as? [String] == [])
        #expect(audit.first?.detail["changeCount"] as? Int == 1)

        // Applied is final: a second apply is refused and publishes nothing.
        let again = try server.send("POST", "\(Self.base)/\(id)/apply")
        #expect(again.status == 409)
        #expect(again.headers["content-type"] == "application/problem+json")
        #expect(again.object["type"] as? String == "urn:prelude:problem:change-request-state")
        #expect(try server.revisionCount() == 2)
    }

    @Test func approvalsGateApplyAndSelfApprovalIsRefused() throws {
        let server = try ChangeServer(approval: Self.two)
        let alice = try server.token("alice", approve: true)
        let bob = try server.token("bob", approve: true)
        let carol = try server.token("carol", scope: "read", approve: true)
        let created = try server.propose(title: "Scan receipts", token: alice)
        #expect(created.object["state"] as? String == "review")
        #expect(created.object["requiredApprovals"] as? Int == 2)
        let id = try Self.id(created)
        let item = "\(Self.base)/\(id)"

        // The bootstrap token may write but not approve; Alice may approve, but not her own request.
        let writer = try server.send("POST", item + "/approve")
        #expect(writer.status == 403)
        #expect(writer.headers["www-authenticate"]?.contains(#"scope="approve""#) == true)
        let own = try server.send("POST", item + "/approve", token: alice)
        #expect(own.status == 403)
        #expect(own.object["type"] as? String == "urn:prelude:problem:self-approval")
        let early = try server.send("POST", item + "/apply")
        #expect(early.status == 409)
        #expect(early.object["type"] as? String == "urn:prelude:problem:not-approved")

        let first = try server.send("POST", item + "/approve", token: bob, body: #"{"comment": "looks right"}"#)
        #expect(first.status == 200, "\(first.body)")
        #expect(first.object["state"] as? String == "review")
        #expect(first.object["approvalsCounted"] as? Int == 1)
        let twice = try server.send("POST", item + "/approve", token: bob)
        #expect(twice.status == 409)
        #expect(twice.object["type"] as? String == "urn:prelude:problem:already-approved")
        let scheduleEarly = try server.send("POST", item + "/schedule", body: #"{"at": "2030-01-01T00:00:00Z"}"#)
        #expect(scheduleEarly.status == 409)
        #expect(try server.send("POST", item + "/apply").status == 409)
        #expect(try server.revisionCount() == 1)

        let second = try server.send("POST", item + "/approve", token: carol)
        #expect(second.object["state"] as? String == "approved")
        let applied = try server.send("POST", item + "/apply", token: bob)
        #expect(applied.status == 200, "\(applied.body)")
        #expect(try server.revisionCount() == 2)
        let audit = try #require(try server.audit("changeRequest.apply").first)
        #expect(audit.actor == "bob")
        #expect(audit.detail["approvers"] as? [String] == ["bob", "carol"])
        #expect(audit.detail["author"] as? String == "alice")
        #expect(try server.audit("changeRequest.approve").count == 2)
    }

    @Test func aDirectWriteIsRefusedWhereApprovalIsRequired() throws {
        let server = try ChangeServer(approval: ApprovalRules(requiredApprovals: 1, allowSelfApproval: true))
        // The first request stamps the token's last use; take the snapshot after it.
        let etag = try server.etag()
        let before = try server.dump()
        let put = try server.send(
            "PUT", "/v1/admin/apps/demo/policy", headers: [("If-Match", etag)],
            body: AdminServer.policyText.replacingOccurrences(of: "Scan documents", with: "Scan receipts"))
        #expect(put.status == 409)
        #expect(put.headers["content-type"] == "application/problem+json")
        #expect(put.object["type"] as? String == "urn:prelude:problem:approval-required")
        #expect((put.object["detail"] as? String)?.contains("/environments/production/change-requests") == true)
        let patch = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/camera",
            headers: [("If-Match", etag), ("Content-Type", "application/merge-patch+json")],
            body: #"{"copy": {"en": {"prime": {"title": "Scan receipts"}}}}"#)
        #expect(patch.status == 409)
        #expect(try server.dump() == before)

        // No token may skip approval without the bypass scope.
        let id = try Self.id(try server.propose(title: "Scan receipts"))
        let bypass = try server.send("POST", "\(Self.base)/\(id)/apply?bypass=true")
        #expect(bypass.status == 403)
        #expect(bypass.headers["www-authenticate"]?.contains("scope=\"bypass\"") == true)
        #expect(try server.revisionCount() == 1)
    }

    @Test func editingARequestInReviewClearsItsApprovals() throws {
        let server = try ChangeServer(approval: Self.two)
        let bob = try server.token("bob", approve: true)
        let id = try Self.id(try server.propose(title: "Scan receipts"))
        let item = "\(Self.base)/\(id)"
        let approved = try server.send("POST", item + "/approve", token: bob)
        #expect(approved.object["approvalsCounted"] as? Int == 1)
        let tag = try #require(approved.headers["etag"])
        #expect(tag == "\"cr\(id)-v2\"")

        let body = #"{"patch": {"features": {"camera": {"copy": {"en": {"prime": {"title": "Scan letters"}}}}}}}"#
        #expect(try server.send("PATCH", item, body: body).status == 428)
        let stale = try server.send("PATCH", item, headers: [("If-Match", "\"cr\(id)-v1\"")], body: body)
        #expect(stale.status == 412)
        #expect(stale.object["type"] as? String == "urn:prelude:problem:change-request-changed")
        #expect(stale.headers["etag"] == tag)

        let edited = try server.send("PATCH", item, headers: [("If-Match", tag)], body: body)
        #expect(edited.status == 200, "\(edited.body)")
        #expect(edited.object["state"] as? String == "review")
        #expect((edited.object["approvals"] as? [Any])?.isEmpty == true)
        #expect(try server.send("GET", item + "/document").body.contains("Scan letters"))
        #expect(try server.audit("changeRequest.edit").first?.detail["approvalsCleared"] as? Int == 1)
        // Bob may approve the new proposal again.
        #expect(try server.send("POST", item + "/approve", token: bob).status == 200)
    }

    @Test func aChangeRequestGoesStaleWhenAnotherChangeLandsFirst() throws {
        let server = try ChangeServer()
        let first = try Self.id(try server.propose(title: "Scan receipts"))
        let second = try Self.id(
            try server.send(
                "POST", Self.base,
                body: #"{"patch": {"features": {"microphone": {"copy": {"en": {"prime": {"title": "Dictate"}}}}}}}"#))
        #expect(try server.send("POST", "\(Self.base)/\(first)/apply").status == 200)

        let refused = try server.send("POST", "\(Self.base)/\(second)/apply")
        #expect(refused.status == 409)
        #expect(refused.object["type"] as? String == "urn:prelude:problem:stale-change-request")
        #expect(try server.revisionCount() == 2)
        let shown = try server.send("GET", "\(Self.base)/\(second)")
        #expect(shown.object["state"] as? String == "stale")
        #expect(shown.object["baseIsLive"] as? Bool == false)
        #expect(try server.audit("changeRequest.stale").count == 1)
        #expect(try server.send("POST", "\(Self.base)/\(second)/apply").status == 409)

        // Re-basing re-applies the patch to the live revision: the first change is kept, nothing merged silently.
        let rebased = try server.send("POST", "\(Self.base)/\(second)/rebase")
        #expect(rebased.status == 200, "\(rebased.body)")
        #expect(rebased.object["baseRevision"] as? Int == 2)
        #expect(rebased.object["state"] as? String == "approved")
        let text = try server.send("GET", "\(Self.base)/\(second)/document").body
        #expect(text.contains("Scan receipts") && text.contains("Dictate"))
        #expect(try server.send("POST", "\(Self.base)/\(second)/apply").status == 200)
        #expect(try server.revisionCount() == 3)
    }

    @Test func aDirectWriteMakesAnOpenRequestStale() throws {
        let server = try ChangeServer()
        let id = try Self.id(try server.propose(title: "Scan receipts"))
        let put = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/camera",
            headers: [("If-Match", try server.etag()), ("Content-Type", "application/merge-patch+json")],
            body: #"{"copy": {"en": {"prime": {"title": "Scan letters"}}}}"#)
        #expect(put.status == 200)
        let refused = try server.send("POST", "\(Self.base)/\(id)/apply")
        #expect(refused.object["type"] as? String == "urn:prelude:problem:stale-change-request")
        #expect(try server.revisionCount() == 2)
    }

    @Test func rejectedAndCancelledRequestsAreFinal() throws {
        let server = try ChangeServer(approval: ApprovalRules(requiredApprovals: 1, allowSelfApproval: false))
        let bob = try server.token("bob", approve: true)
        let id = try Self.id(try server.propose(title: "Scan receipts"))
        let item = "\(Self.base)/\(id)"
        let rejected = try server.send("POST", item + "/reject", token: bob, body: #"{"reason": "wrong tone"}"#)
        #expect(rejected.status == 200)
        #expect(rejected.object["state"] as? String == "rejected")
        #expect(rejected.object["closedBy"] as? String == "bob")
        #expect(rejected.object["reason"] as? String == "wrong tone")
        for action in ["approve", "apply", "cancel", "reject", "submit", "rebase"] {
            let refused = try server.send("POST", item + "/" + action, token: bob)
            #expect(refused.status == 409, "\(action)")
            #expect(refused.object["type"] as? String == "urn:prelude:problem:change-request-state", "\(action)")
        }

        let draft = try Self.id(try server.propose(title: "Scan letters", draft: true))
        let draftItem = "\(Self.base)/\(draft)"
        #expect(try server.send("GET", draftItem).object["state"] as? String == "draft")
        #expect(try server.send("POST", draftItem + "/approve", token: bob).status == 409)
        #expect(try server.send("POST", draftItem + "/apply").status == 409)
        #expect(try server.send("POST", draftItem + "/submit").object["state"] as? String == "review")
        let cancelled = try server.send("POST", draftItem + "/cancel", body: #"{"reason": "not now"}"#)
        #expect(cancelled.object["state"] as? String == "cancelled")
        #expect(try server.send("POST", draftItem + "/approve", token: bob).status == 409)
        #expect(try server.revisionCount() == 1)
        #expect(try server.audit("changeRequest.reject").count == 1)
        #expect(try server.audit("changeRequest.cancel").count == 1)
    }

    @Test func refusalsAreProblemsAndChangeNothing() throws {
        let server = try ChangeServer()
        let reader = try server.token("reader", scope: "read")
        let id = try Self.id(try server.propose(title: "Scan receipts", draft: true))
        let before = try server.dump()
        let cases: [(String, String, String?, String?, Int, String?)] = [
            ("POST", Self.base, reader, #"{"patch": {}}"#, 403, nil),
            ("POST", "\(Self.base)/\(id)/submit", reader, nil, 403, nil),
            ("POST", "\(Self.base)/\(id)/approve", reader, nil, 403, nil),
            ("POST", "\(Self.base)/\(id)/reject", AdminServer.secret, nil, 403, nil),
            (
                "POST", Self.base, AdminServer.secret, #"{"document": {"schemaVersion": 1}}"#, 422,
                "urn:prelude:problem:invalid-policy"
            ),
            ("POST", Self.base, AdminServer.secret, #"{"document": {}, "patch": {}}"#, 422, nil),
            ("POST", Self.base, AdminServer.secret, #"{"patch": {}, "colour": 1}"#, 422, nil),
            ("POST", Self.base, AdminServer.secret, #"{"message": "nothing"}"#, 422, nil),
            ("POST", Self.base, AdminServer.secret, #"{"patch": {"app": {"id": "other"}}}"#, 422, nil),
            ("POST", Self.base, AdminServer.secret, #"{"patch": "#, 400, "urn:prelude:problem:malformed-json"),
            ("GET", "\(Self.base)/999", AdminServer.secret, nil, 404, "urn:prelude:problem:unknown-change-request"),
            ("GET", "\(Self.base)/x", AdminServer.secret, nil, 404, "urn:prelude:problem:unknown-change-request"),
            (
                "GET", "/v1/admin/apps/demo/environments/staging/change-requests", AdminServer.secret, nil, 404,
                "urn:prelude:problem:unknown-environment"
            ),
            (
                "GET", "/v1/admin/apps/nope/change-requests", AdminServer.secret, nil, 404,
                "urn:prelude:problem:unknown-app"
            ),
            ("GET", Self.base + "?state=merged", AdminServer.secret, nil, 400, nil),
            ("POST", "\(Self.base)/\(id)/schedule", AdminServer.secret, #"{"at": "tomorrow"}"#, 422, nil),
            ("POST", "\(Self.base)/\(id)/schedule", AdminServer.secret, #"{}"#, 422, nil),
            ("POST", "\(Self.base)/\(id)/cancel", AdminServer.secret, #"{"reason": 3}"#, 422, nil),
            (
                "POST", "\(Self.base)/\(id)/apply", AdminServer.secret, nil, 409,
                "urn:prelude:problem:change-request-state"
            ),
        ]
        for (method, path, token, body, status, type) in cases {
            let response = try server.send(method, path, token: token, body: body)
            #expect(response.status == status, "\(method) \(path) \(body ?? ""): \(response.body)")
            #expect(response.headers["content-type"] == "application/problem+json", "\(method) \(path)")
            if let type { #expect(response.object["type"] as? String == type, "\(method) \(path)") }
        }
        // The read token may list and show.
        #expect(try server.send("GET", Self.base, token: reader).status == 200)
        #expect(try server.dump().filter { !$0.hasPrefix("tokens:") } == before.filter { !$0.hasPrefix("tokens:") })
    }

    @Test func scheduleRefusesAnInstantThatIsNotInTheFuture() throws {
        let server = try ChangeServer()
        let id = try Self.id(try server.propose(title: "Scan receipts"))
        let past = AdminTime.iso8601(ChangeServer.start - 1000)
        let refused = try server.send("POST", "\(Self.base)/\(id)/schedule", body: #"{"at": "\#(past)"}"#)
        #expect(refused.status == 422)
        #expect((refused.object["errors"] as? [[String: Any]])?.first?["pointer"] as? String == "/at")
        #expect(try server.send("GET", "\(Self.base)/\(id)").object["scheduledAt"] is NSNull)
    }
}
