import Foundation
import PreludeCore
import PreludeStorage
import Testing

@testable import PreludeService

/// The approval gate holds (issue 35, docs/change-management.md "Who may do what"), over the real server on
/// 127.0.0.1:0 with the environments' stored settings: a write token cannot loosen the governance of an environment
/// that requires approvals (only `bypass` or an approved change request of kind `settings` can), and a rollout on
/// such an environment starts only from an approved change request carrying its plan (or with `bypass`).
@Suite struct GovernanceGateTests {
    static let production = "/v1/admin/apps/demo/environments/production"
    static let requests = production + "/change-requests"
    static let json = [("Content-Type", "application/json")]
    static let rolloutBody =
        #"{"feature": "camera", "key": "camera-title", "set": {"copy": {"en": {"prime": {"title": "Scan it"}}}}, "#
        + #""steps": [{"percent": 10, "minimumHoldSeconds": 3600, "minimumExposed": 100}, {"percent": 100}], "#
        + #""start": true}"#

    /// A server whose production requires one approval (tightened by a plain writer, which is always allowed),
    /// with Alice (write, approve), Bob (read, approve) and Ops (write, bypass).
    static func gated() throws -> (server: ChangeServer, alice: String, bob: String, ops: String) {
        let server = try ChangeServer(storedRules: true)
        let alice = try server.token("alice", approve: true)
        let bob = try server.token("bob", scope: "read", approve: true)
        let ops = try server.token("ops", bypass: true)
        let tightened = try server.send(
            "PATCH", production, token: alice, headers: json, body: #"{"requiredApprovals": 1, "lintStrict": true}"#)
        #expect(tightened.status == 200, "\(tightened.body)")
        #expect(tightened.object["requiredApprovals"] as? Int == 1)
        return (server, alice, bob, ops)
    }

    static func settings(_ server: ChangeServer) throws -> [String: Any] {
        try server.send("GET", production).object
    }

    @Test func aWriteTokenCannotLoosenAGatedEnvironment() throws {
        let (server, alice, _, _) = try Self.gated()
        let before = try server.dump()

        let lowered = try server.send(
            "PATCH", Self.production, token: alice, headers: Self.json, body: #"{"requiredApprovals": 0}"#)
        #expect(lowered.status == 403, "\(lowered.body)")
        #expect(lowered.headers["content-type"] == "application/problem+json")
        #expect(lowered.object["type"] as? String == "urn:prelude:problem:settings-approval-required")
        let detail = try #require(lowered.object["detail"] as? String)
        #expect(detail.contains("lowering requiredApprovals"))
        #expect(detail.contains("bypass capability") && detail.contains("change-requests"))
        let pointers = (lowered.object["errors"] as? [[String: Any]])?.compactMap { $0["pointer"] as? String }
        #expect(pointers == ["/requiredApprovals"])

        // Every loosened member is named; the tightening beside it does not save the request.
        let both = try server.send(
            "PUT", Self.production, token: alice, headers: Self.json,
            body: #"{"requiredApprovals": 2, "allowSelfApproval": true, "lintStrict": false}"#)
        #expect(both.status == 403, "\(both.body)")
        let named = (both.object["errors"] as? [[String: Any]])?.compactMap { $0["pointer"] as? String }
        #expect(named == ["/allowSelfApproval", "/lintStrict"])

        // The app settings route turns production's lintStrict off the same way: refused too.
        let app = try server.send(
            "PATCH", "/v1/admin/apps/demo", token: alice, headers: Self.json + [("If-Match", try server.etag())],
            body: #"{"lintStrict": false}"#)
        #expect(app.status == 403, "\(app.body)")
        #expect(app.object["type"] as? String == "urn:prelude:problem:settings-approval-required")

        // The hole of issue 35: lower, publish directly, set back. The first step is refused, so the publish is too.
        let direct = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/camera", token: alice,
            headers: [("If-Match", try server.etag()), ("Content-Type", "application/merge-patch+json")],
            body: #"{"copy": {"en": {"prime": {"title": "Unreviewed"}}}}"#)
        #expect(direct.status == 409)
        #expect(try server.dump() == before)

        // Tightening further stays allowed to writers.
        let tighter = try server.send(
            "PATCH", Self.production, token: alice, headers: Self.json, body: #"{"requiredApprovals": 2}"#)
        #expect(tighter.status == 200, "\(tighter.body)")
    }

    @Test func aBypassTokenLoosensAndIsAuditedWithBeforeAndAfter() throws {
        let (server, _, _, ops) = try Self.gated()
        let loosened = try server.send(
            "PATCH", Self.production, token: ops, headers: Self.json,
            body: #"{"requiredApprovals": 0, "lintStrict": false}"#)
        #expect(loosened.status == 200, "\(loosened.body)")
        #expect(loosened.object["requiredApprovals"] as? Int == 0)
        let audit = try #require(try server.audit("environment.settings").last)
        #expect(audit.actor == "ops")
        #expect(audit.detail["bypass"] as? Bool == true)
        #expect((audit.detail["requiredApprovals"] as? [String: Any])?["from"] as? Int == 1)
        #expect((audit.detail["requiredApprovals"] as? [String: Any])?["to"] as? Int == 0)
        #expect((audit.detail["lintStrict"] as? [String: Any])?["from"] as? Bool == true)
        // The plain writer's tightening before it is audited too, without bypass.
        let first = try #require(try server.audit("environment.settings").first)
        #expect(first.actor == "alice" && first.detail["bypass"] == nil)
        #expect(
            server.logLines.all.contains { $0.contains("environment governance loosened without approval (bypass)") })
    }

    @Test func anApprovedSettingsChangeRequestLoosensTheGate() throws {
        let (server, alice, bob, _) = try Self.gated()
        let created = try server.send(
            "POST", Self.requests, token: alice, headers: Self.json,
            body: #"{"settings": {"requiredApprovals": 0}, "message": "launch week: no review"}"#)
        #expect(created.status == 201, "\(created.body)")
        #expect(created.object["kind"] as? String == "settings")
        #expect(created.object["state"] as? String == "review")
        let id = try ChangeRequestTests.id(created)
        #expect(created.object["changedPointers"] as? [String] == ["/requiredApprovals"], "\(created.body)")
        let read = try server.send("GET", "\(Self.requests)/\(id)", token: alice)
        let diff = try #require((read.object["diff"] as? [[String: Any]])?.first, "\(read.body)")
        #expect(diff["pointer"] as? String == "/requiredApprovals")
        #expect(diff["from"] as? Int == 1 && diff["to"] as? Int == 0)

        // Not approved: nothing changes; the author's own approval never counts for a settings change.
        let early = try server.send("POST", "\(Self.requests)/\(id)/apply", token: alice)
        #expect(early.status == 409)
        #expect(early.object["type"] as? String == "urn:prelude:problem:not-approved")
        let own = try server.send("POST", "\(Self.requests)/\(id)/approve", token: alice)
        #expect(own.status == 403)
        #expect(own.object["type"] as? String == "urn:prelude:problem:self-approval")
        // Its proposal cannot be edited or re-based: a settings request is cancelled and proposed again.
        let edit = try server.send(
            "PATCH", "\(Self.requests)/\(id)", token: alice,
            headers: Self.json + [("If-Match", "\"cr\(id)-v1\"")], body: #"{"document": {}}"#)
        #expect(edit.status == 409)
        #expect(edit.object["type"] as? String == "urn:prelude:problem:change-request-kind")

        let approved = try server.send("POST", "\(Self.requests)/\(id)/approve", token: bob)
        #expect(approved.status == 200, "\(approved.body)")
        #expect(approved.object["state"] as? String == "approved")
        let applied = try server.send("POST", "\(Self.requests)/\(id)/apply", token: alice)
        #expect(applied.status == 200, "\(applied.body)")
        #expect(applied.object["state"] as? String == "applied")
        #expect(applied.object["policy"] == nil)
        #expect(try Self.settings(server)["requiredApprovals"] as? Int == 0)
        #expect(try server.revisionCount() == 1)
        let audit = try #require(try server.audit("changeRequest.apply").last)
        #expect(audit.detail["changeRequest"] as? Int == id)
        #expect(audit.revision == nil)
        #expect((audit.detail["requiredApprovals"] as? [String: Any])?["from"] as? Int == 1)
        #expect((audit.detail["requiredApprovals"] as? [String: Any])?["to"] as? Int == 0)
    }

    @Test func aRolloutOnAGatedEnvironmentStartsOnlyFromAnApprovedPlan() throws {
        let (server, alice, bob, _) = try Self.gated()
        let revisions = try server.revisionCount()
        let created = try server.send(
            "POST", Self.production + "/rollouts", token: alice, headers: Self.json, body: Self.rolloutBody)
        #expect(created.status == 202, "\(created.body)")
        #expect(created.object["status"] as? String == "draft")
        let request = try #require(created.object["changeRequest"] as? [String: Any])
        let requestID = try #require(request["id"] as? Int)
        #expect(request["state"] as? String == "review")
        let rollout = try #require(created.object["id"] as? Int)
        #expect(try server.revisionCount() == revisions)

        // Starting it by hand is the hole: refused, naming the request that carries its plan.
        let start = try server.send("POST", "\(Self.production)/rollouts/\(rollout)/start", token: alice)
        #expect(start.status == 409, "\(start.body)")
        #expect(start.object["type"] as? String == "urn:prelude:problem:approval-required")
        #expect((start.object["detail"] as? String)?.contains("change request \(requestID)") == true)
        #expect(try server.revisionCount() == revisions)

        let shown = try server.send("GET", "\(Self.requests)/\(requestID)", token: bob)
        #expect(shown.object["kind"] as? String == "rollout")
        #expect((shown.object["document"] as? [String: Any])?["rollout"] as? Int == rollout)
        #expect(try server.send("POST", "\(Self.requests)/\(requestID)/approve", token: bob).status == 200)
        let applied = try server.send("POST", "\(Self.requests)/\(requestID)/apply", token: alice)
        #expect(applied.status == 200, "\(applied.body)")
        #expect(applied.object["state"] as? String == "applied")
        #expect(try server.revisionCount() == revisions + 1)
        let running = try server.send("GET", "\(Self.production)/rollouts/\(rollout)", token: alice)
        #expect(running.object["status"] as? String == "running")
        let step = try #require(try server.audit("rollout.step").last)
        #expect(step.detail["changeRequest"] as? Int == requestID)

        // Once approved, the plan runs on: completing it needs no other approval.
        let completed = try server.send("POST", "\(Self.production)/rollouts/\(rollout)/complete", token: alice)
        #expect(completed.status == 200, "\(completed.body)")
        #expect(completed.object["status"] as? String == "completed")
        #expect(try server.send("GET", "/v1/admin/apps/demo/policy").body.contains("Scan it"))
    }

    @Test func anApprovedPlanCanBeScheduledAndThePrimaryStartsIt() throws {
        let (server, alice, bob, _) = try Self.gated()
        let created = try server.send(
            "POST", Self.production + "/rollouts", token: alice, headers: Self.json, body: Self.rolloutBody)
        let rollout = try #require(created.object["id"] as? Int)
        let request = try #require((created.object["changeRequest"] as? [String: Any])?["id"] as? Int)
        #expect(try server.send("POST", "\(Self.requests)/\(request)/approve", token: bob).status == 200)
        let at = AdminTime.iso8601(ChangeServer.start + 60_000)
        let scheduled = try server.send(
            "POST", "\(Self.requests)/\(request)/schedule", token: alice, headers: Self.json,
            body: #"{"at": "\#(at)"}"#)
        #expect(scheduled.status == 200, "\(scheduled.body)")
        server.setClock(secondsAfterStart: 60)
        // The scheduler's own thread may fire first once the clock moves; either way the primary's scheduler starts it.
        _ = server.service.admin.scheduler.runOnce()
        let running = try server.send("GET", "\(Self.production)/rollouts/\(rollout)", token: alice)
        #expect(running.object["status"] as? String == "running")
        #expect(try server.audit("rollout.step").last?.actor == "scheduler")
    }

    @Test func abortingADraftCancelsTheRequestCarryingItsPlan() throws {
        let (server, alice, bob, _) = try Self.gated()
        let created = try server.send(
            "POST", Self.production + "/rollouts", token: alice, headers: Self.json, body: Self.rolloutBody)
        #expect(created.status == 202, "\(created.body)")
        let rollout = try #require(created.object["id"] as? Int)
        let request = try #require((created.object["changeRequest"] as? [String: Any])?["id"] as? Int)
        let aborted = try server.send("POST", "\(Self.production)/rollouts/\(rollout)/abort", token: alice)
        #expect(aborted.status == 200, "\(aborted.body)")
        let shown = try server.send("GET", "\(Self.requests)/\(request)", token: bob)
        #expect(shown.object["state"] as? String == "cancelled")
        #expect(shown.object["reason"] as? String == "rollout \(rollout) was aborted directly")
    }

    @Test func aBypassTokenStartsARolloutDirectlyAndAWriterMayAbortIt() throws {
        let (server, alice, _, ops) = try Self.gated()
        let created = try server.send(
            "POST", Self.production + "/rollouts", token: ops, headers: Self.json, body: Self.rolloutBody)
        #expect(created.status == 201, "\(created.body)")
        #expect(created.object["status"] as? String == "running")
        let rollout = try #require(created.object["id"] as? Int)
        let step = try #require(try server.audit("rollout.step").last)
        #expect(step.actor == "ops" && step.detail["bypass"] as? Bool == true)
        #expect(try server.audit("changeRequest.create").isEmpty)
        // An abort only restores: a plain writer may.
        let aborted = try server.send("POST", "\(Self.production)/rollouts/\(rollout)/abort", token: alice)
        #expect(aborted.status == 200, "\(aborted.body)")
        #expect(aborted.object["status"] as? String == "aborted")
    }

    @Test func anUngatedEnvironmentIsUnchanged() throws {
        let server = try ChangeServer(storedRules: true)
        let alice = try server.token("alice")
        let loosened = try server.send(
            "PATCH", Self.production, token: alice, headers: Self.json, body: #"{"allowSelfApproval": true}"#)
        #expect(loosened.status == 200, "\(loosened.body)")
        let created = try server.send(
            "POST", Self.production + "/rollouts", token: alice, headers: Self.json, body: Self.rolloutBody)
        #expect(created.status == 201, "\(created.body)")
        #expect(created.object["status"] as? String == "running")
    }
}

/// Every settings change is told to webhooks as `environment.updated`, signed, with the before and after values
/// and what allowed it (docs/webhooks.md, "Event types").
@Suite(.serialized) struct EnvironmentWebhookTests {
    @Test func settingsChangesAreDeliveredAsEnvironmentUpdated() throws {
        let setup = try WebhookLiveTests.start()
        defer {
            setup.receiver.stop()
            setup.receiver.remove()
        }
        _ = try WebhookLiveTests.register(setup, events: ["environment.updated"])
        let json = [("Content-Type", "application/json")]
        let path = "/v1/admin/apps/demo/environments/production"
        let tightened = try setup.server.send("PATCH", path, headers: json, body: #"{"requiredApprovals": 1}"#)
        #expect(tightened.status == 200, "\(tightened.body)")
        // Setting what is already set changes nothing and tells nobody.
        #expect(try setup.server.send("PATCH", path, headers: json, body: #"{"requiredApprovals": 1}"#).status == 200)
        let bypass = try setup.server.send(
            "POST", "/v1/admin/tokens", headers: json,
            body: #"{"name": "ops", "scope": "write", "bypass": true}"#)
        let ops = try #require(bypass.object["token"] as? String)
        let loosened = try setup.server.send(
            "PATCH", path, token: ops, headers: json, body: #"{"requiredApprovals": 0, "allowSelfApproval": true}"#)
        #expect(loosened.status == 200, "\(loosened.body)")

        #expect(setup.dispatcher.runDue() == 2)
        let events = ChangeRequestWebhookTests.delivered(setup)
        #expect(events.map(\.type) == ["environment.updated", "environment.updated"])
        let first = try #require(events.first?.data)
        #expect(first["environment"] as? String == "production")
        #expect(first["authority"] as? String == "write")
        #expect((first["changes"] as? [String: Any])?.keys.sorted() == ["requiredApprovals"])
        #expect((first["before"] as? [String: Any])?["requiredApprovals"] as? Int == 0)
        #expect((first["after"] as? [String: Any])?["requiredApprovals"] as? Int == 1)
        #expect((first["loosened"] as? [String])?.isEmpty == true)
        let second = try #require(events.last?.data)
        #expect(second["actor"] as? String == "ops")
        #expect(second["authority"] as? String == "bypass")
        #expect(second["loosened"] as? [String] == ["requiredApprovals", "allowSelfApproval"])
        let change = try #require((second["changes"] as? [String: Any])?["allowSelfApproval"] as? [String: Any])
        #expect(change["from"] as? Bool == false && change["to"] as? Bool == true)
    }
}
