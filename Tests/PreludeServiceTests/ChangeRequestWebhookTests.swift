import Foundation
import PreludeCore
import PreludeStore
import Testing

@testable import PreludeService

/// Change requests tell webhooks what happened to them (docs/webhooks.md, "Event types"): each transition enqueues
/// its `changeRequest.*` delivery in the transaction that stores it, and an apply's `changeRequest.applied` commits
/// with its revision. Over the real server, delivered signed over HTTPS to the local receiver
/// (scripts/webhook-receiver.py), with the dispatcher on an injected clock.
@Suite(.serialized) struct ChangeRequestWebhookTests {
    static let base = "/v1/admin/apps/demo/environments/production/change-requests"

    /// A server whose production requires one approval, a webhook hearing every change-request event and
    /// `revision.published`, and a reviewer's token (read, approve).
    static func start() throws -> (setup: WebhookLiveTests.Setup, webhook: String, reviewer: String) {
        let setup = try WebhookLiveTests.start()
        let webhook = try WebhookLiveTests.register(
            setup,
            events: WebhookEventType.allCases.map(\.rawValue).filter { $0.hasPrefix("changeRequest.") }
                + ["revision.published"])
        let settings = try setup.server.send(
            "PATCH", "/v1/admin/apps/demo/environments/production", headers: [("Content-Type", "application/json")],
            body: #"{"requiredApprovals": 1}"#)
        #expect(settings.status == 200, "\(settings.body)")
        let token = try setup.server.send(
            "POST", "/v1/admin/tokens", headers: [("Content-Type", "application/json")],
            body: #"{"name": "reviewer", "scope": "read", "approve": true}"#)
        #expect(token.status == 201, "\(token.body)")
        return (setup, webhook, try #require(token.object["token"] as? String))
    }

    static func propose(_ setup: WebhookLiveTests.Setup, title: String) throws -> Int {
        let response = try setup.server.send(
            "POST", base, headers: [("Content-Type", "application/json")],
            body: #"{"patch": {"features": {"camera": {"copy": {"en": {"prime": {"title": "\#(title)"}}}}}}, "#
                + #""message": "retitle"}"#)
        #expect(response.status == 201, "\(response.body)")
        #expect(response.object["state"] as? String == "review")
        return try #require(response.object["id"] as? Int)
    }

    /// The delivered payloads (type and data) since `from`, in the order sent; every one verified by the receiver.
    static func delivered(_ setup: WebhookLiveTests.Setup, from: Int = 0) -> [(type: String, data: [String: Any])] {
        let records = setup.receiver.records()
        #expect(records.allSatisfy { $0.verified == true })
        return records.dropFirst(from).map {
            ($0.payload["type"] as? String ?? "", $0.payload["data"] as? [String: Any] ?? [:])
        }
    }

    @Test func reviewAndApplyAreDeliveredSignedWithTheRequestAndItsDiff() throws {
        let (setup, _, reviewer) = try Self.start()
        defer {
            setup.receiver.stop()
            setup.receiver.remove()
        }
        let live = try #require(try setup.server.send("GET", "/v1/admin/apps/demo").object["liveRevision"] as? Int)
        let id = try Self.propose(setup, title: "Scan receipts")
        let approved = try setup.server.send(
            "POST", "\(Self.base)/\(id)/approve", token: reviewer, headers: [("Content-Type", "application/json")],
            body: #"{"comment": "reads well"}"#)
        #expect(approved.status == 200, "\(approved.body)")
        let applied = try setup.server.send("POST", "\(Self.base)/\(id)/apply")
        #expect(applied.status == 200, "\(applied.body)")
        let revision = try #require((applied.object["policy"] as? [String: Any])?["revision"] as? Int)

        #expect(setup.dispatcher.runDue() == 4)
        let events = Self.delivered(setup)
        #expect(
            events.map(\.type).sorted()
                == ["changeRequest.applied", "changeRequest.approved", "changeRequest.created", "revision.published"])
        func data(_ type: String) throws -> [String: Any] { try #require(events.first { $0.type == type }?.data) }
        func request(_ type: String) throws -> [String: Any] {
            try #require(try data(type)["changeRequest"] as? [String: Any])
        }

        let created = try data("changeRequest.created")
        #expect(created["app"] as? String == "demo" && created["environment"] as? String == "production")
        #expect(created["actor"] as? String == TokenStore.bootstrapName)
        #expect(try request("changeRequest.created")["id"] as? Int == id)
        #expect(try request("changeRequest.created")["state"] as? String == "review")
        #expect(try request("changeRequest.created")["baseRevision"] as? Int == live)
        let createdChange = try #require(((created["diff"] as? [String: Any])?["changes"] as? [[String: Any]])?.first)
        #expect(createdChange["pointer"] as? String == "/features/camera/copy/en/prime/title")
        #expect(createdChange["to"] as? String == "Scan receipts")

        let approval = try data("changeRequest.approved")
        #expect(approval["actor"] as? String == "reviewer")
        #expect(try request("changeRequest.approved")["state"] as? String == "approved")
        #expect(try request("changeRequest.approved")["approvers"] as? [String] == ["reviewer"])
        #expect(approval["diff"] == nil)

        let apply = try data("changeRequest.applied")
        #expect(apply["action"] as? String == "changeRequest.apply")
        #expect(try request("changeRequest.applied")["state"] as? String == "applied")
        let numbers = try #require(apply["revision"] as? [String: Any])
        #expect(numbers["before"] as? Int == live && numbers["after"] as? Int == revision)
        #expect(((apply["diff"] as? [String: Any])?["changeCount"] as? Int) == 1)
        // The revision's own event says the same revision went live.
        let published = try data("revision.published")
        #expect((published["revision"] as? [String: Any])?["after"] as? Int == revision)
        #expect(setup.dispatcher.runDue() == 0)
    }

    @Test func refusalsSendNothingAndAStaleApplySendsStaleNotApplied() throws {
        let (setup, webhook, reviewer) = try Self.start()
        defer {
            setup.receiver.stop()
            setup.receiver.remove()
        }
        let first = try Self.propose(setup, title: "First")
        let second = try Self.propose(setup, title: "Second")
        #expect(setup.dispatcher.runDue() == 2)
        // Refused: the author's own approval, an apply before approval. Nothing is enqueued.
        #expect(try setup.server.send("POST", "\(Self.base)/\(first)/approve").status == 403)
        #expect(try setup.server.send("POST", "\(Self.base)/\(first)/apply").status == 409)
        #expect(try WebhookLiveTests.deliveries(setup, webhook: webhook).count == 2)

        for id in [first, second] {
            #expect(try setup.server.send("POST", "\(Self.base)/\(id)/approve", token: reviewer).status == 200)
        }
        #expect(try setup.server.send("POST", "\(Self.base)/\(first)/apply").status == 200)
        // The second was based on the revision the first replaced: stale, and no revision, so no applied event.
        let stale = try setup.server.send("POST", "\(Self.base)/\(second)/apply")
        #expect(stale.status == 409, "\(stale.body)")
        let cancelled = try setup.server.send(
            "POST", "\(Self.base)/\(second)/cancel", headers: [("Content-Type", "application/json")],
            body: #"{"reason": "superseded"}"#)
        #expect(cancelled.status == 200, "\(cancelled.body)")

        #expect(setup.dispatcher.runDue() == 6)
        let events = Self.delivered(setup, from: 2)
        let ids = events.map { ($0.data["changeRequest"] as? [String: Any])?["id"] as? Int }
        #expect(
            events.map(\.type).sorted()
                == [
                    "changeRequest.applied", "changeRequest.approved", "changeRequest.approved",
                    "changeRequest.cancelled", "changeRequest.stale", "revision.published",
                ])
        #expect(events.filter { $0.type == "changeRequest.applied" }.count == 1)
        #expect(zip(events, ids).first { $0.0.type == "changeRequest.applied" }?.1 == first)
        let staleData = try #require(events.first { $0.type == "changeRequest.stale" }?.data)
        #expect((staleData["changeRequest"] as? [String: Any])?["id"] as? Int == second)
        let cancelData = try #require(events.first { $0.type == "changeRequest.cancelled" }?.data)
        #expect((cancelData["changeRequest"] as? [String: Any])?["reason"] as? String == "superseded")
    }
}
