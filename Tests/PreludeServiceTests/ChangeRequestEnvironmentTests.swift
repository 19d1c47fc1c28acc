import Foundation
import Testing

@testable import PreludeService

/// Change requests over the environments' stored settings and scoped tokens, against the live server: approval rules
/// per environment, the `approve` and `bypass` capabilities, a token's grant, and a promotion into an environment
/// that requires approval becoming a change request there.
@Suite struct ChangeRequestEnvironmentTests {
    static let environments = "/v1/admin/apps/demo/environments"

    /// A server whose production requires one approval (not the author's) and whose staging, copied from it,
    /// requires none.
    static func server() throws -> ChangeServer {
        let server = try ChangeServer(storedRules: true)
        let staging = try server.send(
            "POST", environments, body: #"{"name": "staging", "copyFrom": "production"}"#)
        #expect(staging.status == 201, "\(staging.body)")
        let settings = try server.send(
            "PATCH", environments + "/production", headers: [("Content-Type", "application/merge-patch+json")],
            body: #"{"requiredApprovals": 1}"#)
        #expect(settings.status == 200, "\(settings.body)")
        return server
    }

    @Test func eachEnvironmentKeepsItsOwnRulesAndRequests() throws {
        let server = try Self.server()
        // Staging needs nothing: approved at once, applied to staging only.
        let staged = try server.propose(title: "Scan in staging", path: Self.environments + "/staging/change-requests")
        #expect(staged.object["state"] as? String == "approved")
        let stagedID = try #require(staged.object["id"] as? Int)
        let applied = try server.send("POST", Self.environments + "/staging/change-requests/\(stagedID)/apply")
        #expect(applied.status == 200, "\(applied.body)")
        let production = try server.send("GET", "/v1/apps/demo/policy/document")
        #expect(!production.body.contains("Scan in staging"))
        #expect(
            try server.send("GET", "/v1/apps/demo/environments/staging/policy/document").body.contains(
                "Scan in staging"))
        // Production's list does not show staging's request, nor does its id resolve there.
        let listed = try server.send("GET", Self.environments + "/production/change-requests")
        #expect((listed.object["changeRequests"] as? [Any])?.isEmpty == true)
        #expect(try server.send("GET", Self.environments + "/production/change-requests/\(stagedID)").status == 404)

        // Production requires an approval by someone other than the author.
        let alice = try server.token("alice", approve: true)
        let reviewer = try server.token("reviewer", scope: "read", approve: true)
        let proposed = try server.propose(title: "Scan receipts", token: alice)
        #expect(proposed.object["state"] as? String == "review")
        #expect(proposed.object["requiredApprovals"] as? Int == 1)
        let id = try #require(proposed.object["id"] as? Int)
        let item = Self.environments + "/production/change-requests/\(id)"
        let own = try server.send("POST", item + "/approve", token: alice)
        #expect(own.object["type"] as? String == "urn:prelude:problem:self-approval")
        #expect(try server.send("POST", item + "/apply", token: alice).status == 409)
        #expect(try server.send("POST", item + "/approve", token: reviewer).object["state"] as? String == "approved")
        // The reviewer's token may approve but not write: applying is a write.
        #expect(try server.send("POST", item + "/apply", token: reviewer).status == 403)
        #expect(try server.send("POST", item + "/apply", token: alice).status == 200)
        #expect(try server.send("GET", "/v1/apps/demo/policy/document").body.contains("Scan receipts"))
    }

    @Test func aTokenOutsideItsGrantIsRefusedAndBypassIsAudited() throws {
        let server = try Self.server()
        let stagingOnly = try server.send(
            "POST", "/v1/admin/tokens",
            body: #"{"name": "staging-ci", "scope": "write", "approve": true, "environments": ["staging"]}"#)
        let limited = try #require(stagingOnly.object["token"] as? String)
        let proposed = try server.propose(title: "Scan receipts")
        let id = try #require(proposed.object["id"] as? Int)
        for path in [
            Self.environments + "/production/change-requests/\(id)", "/v1/admin/apps/demo/change-requests/\(id)",
        ] {
            let refused = try server.send("POST", path + "/approve", token: limited)
            #expect(refused.status == 403)
            #expect(refused.object["type"] as? String == "urn:prelude:problem:token-not-granted", "\(path)")
        }

        // A direct write to production is refused, except with the bypass capability, which is audited.
        let body = #"{"copy": {"en": {"prime": {"title": "Scan now"}}}}"#
        let headers = [("If-Match", try server.etag()), ("Content-Type", "application/merge-patch+json")]
        let refused = try server.send("PATCH", "/v1/admin/apps/demo/features/camera", headers: headers, body: body)
        #expect(refused.object["type"] as? String == "urn:prelude:problem:approval-required")
        let robot = try server.token("deploy-bot", bypass: true)
        let direct = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/camera", token: robot, headers: headers, body: body)
        #expect(direct.status == 200, "\(direct.body)")
        let audit = try #require(try server.audit("feature.patch").last)
        #expect(audit.detail["bypass"] as? Bool == true)
        #expect(audit.detail["requiredApprovals"] as? Int == 1)
        // Its apply of a request still in review skips the approval, audited the same way.
        let again = try server.propose(title: "Scan later")
        let againID = try #require(again.object["id"] as? Int)
        let bypassed = try server.send(
            "POST", "/v1/admin/apps/demo/change-requests/\(againID)/apply?bypass=true", token: robot)
        #expect(bypassed.status == 200, "\(bypassed.body)")
        #expect(try server.audit("changeRequest.apply").last?.detail["bypass"] as? Bool == true)
    }

    @Test func aPromotionIntoAnEnvironmentThatRequiresApprovalBecomesAChangeRequest() throws {
        let server = try Self.server()
        let stagingTag = try #require(
            try server.send("GET", Self.environments + "/staging/policy").headers["etag"])
        let patched = try server.send(
            "PATCH", Self.environments + "/staging/features/camera",
            headers: [("If-Match", stagingTag), ("Content-Type", "application/merge-patch+json")],
            body: #"{"copy": {"en": {"prime": {"title": "Promoted title"}}}}"#)
        #expect(patched.status == 200, "\(patched.body)")
        let revisions = try server.revisionCount()
        let promotion = try server.send(
            "POST", Self.environments + "/production/promotions", headers: [("If-Match", try server.etag())],
            body: #"{"from": "staging", "features": ["camera"], "parts": ["copy"]}"#)
        #expect(promotion.status == 202, "\(promotion.body)")
        #expect(promotion.object["state"] as? String == "review")
        #expect(promotion.object["message"] as? String == "promotion from staging")
        #expect(promotion.headers["location"]?.contains("/environments/production/change-requests/") == true)
        #expect(promotion.object["changedPointers"] as? [String] == ["/features/camera/copy/en/prime/title"])
        // Nothing was published: production still serves its own title until the request is approved and applied.
        #expect(try server.revisionCount() == revisions)
        #expect(!(try server.send("GET", "/v1/apps/demo/policy/document").body.contains("Promoted title")))
    }
}
