import Foundation
import PreludeStore
import Synchronization
import Testing

@testable import PreludeService

/// Webhooks over the real server: registered with the admin API, enqueued by policy writes, delivered signed over
/// HTTPS to a local receiver that verifies each signature with Python's hmac (scripts/webhook-receiver.py), with the
/// dispatcher driven on an injected clock (docs/webhooks.md).
@Suite(.serialized) struct WebhookLiveTests {
    /// A settable clock and jitter for the dispatcher.
    final class Timing: Sendable {
        let now = Atomic<Int64>(1_800_000_000_000)
        let random = Atomic<Int>(500)  // thousandths
        var clock: ServiceClock { ServiceClock { [self] in now.load(ordering: .acquiring) } }
        var jitter: @Sendable () -> Double { { [self] in Double(random.load(ordering: .acquiring)) / 1000 } }
        func advance(milliseconds: Int64) { now.add(milliseconds, ordering: .acquiringAndReleasing) }
    }

    struct Setup {
        let server: AdminServer
        let receiver: WebhookReceiver
        let timing: Timing
        var dispatcher: WebhookDispatcher { server.service.webhooks! }
    }

    /// A server and a receiver; `trustReceiver: false` leaves out the CA file, so the receiver's certificate
    /// (signed by a CA made for the run) is checked against the system's bundle only.
    static func start(fail: Int = 0, allowedHosts: String? = nil, trustReceiver: Bool = true) throws -> Setup {
        let receiver = try WebhookReceiver(secret: WebhookReceiver.makeSecret(), fail: fail)
        let timing = Timing()
        let server = try AdminServer(
            configure: { configuration in
                configuration.tlsCAFile = trustReceiver ? receiver.caFile : nil
                configuration.webhookAllowedHosts = try! WebhookAllowlist(
                    parsing: allowedHosts ?? "localhost:\(receiver.port)")
            }, webhookTiming: (timing.clock, timing.jitter))
        return Setup(server: server, receiver: receiver, timing: timing)
    }

    /// Registers a webhook for `events` at `url` (the receiver's by default) with the receiver's secret.
    static func register(
        _ setup: Setup, events: [String] = ["revision.published", "revision.rolledBack"], url: String? = nil
    ) throws -> String {
        let events = events.map { "\"\($0)\"" }.joined(separator: ",")
        let response = try setup.server.send(
            "POST", "/v1/admin/apps/demo/webhooks", headers: [("Content-Type", "application/json")],
            body:
                #"{"url": "\#(url ?? setup.receiver.url)", "events": [\#(events)], "secret": "\#(setup.receiver.secret)"}"#
        )
        #expect(response.status == 201, "\(response.body)")
        return try #require(response.object["id"] as? String)
    }

    /// Changes the camera title: one new revision.
    static func publish(_ setup: Setup, title: String) throws -> Int {
        let response = try setup.server.send(
            "PATCH", "/v1/admin/apps/demo/features/camera",
            headers: [("If-Match", try setup.server.etag()), ("Content-Type", "application/merge-patch+json")],
            body: #"{"copy": {"en": {"prime": {"title": "\#(title)"}}}}"#)
        #expect(response.status == 200, "\(response.body)")
        return try #require(response.object["revision"] as? Int)
    }

    static func deliveries(_ setup: Setup, webhook: String) throws -> [[String: Any]] {
        let response = try setup.server.send("GET", "/v1/admin/apps/demo/webhooks/\(webhook)/deliveries")
        #expect(response.status == 200)
        return response.object["deliveries"] as? [[String: Any]] ?? []
    }

    @Test func deliversSignedPublishAndRollbackEventsOverHTTPS() throws {
        let setup = try Self.start()
        defer {
            setup.receiver.stop()
            setup.receiver.remove()
        }
        let webhook = try Self.register(setup)
        let before = try setup.server.send("GET", "/v1/admin/apps/demo").object["liveRevision"] as? Int
        #expect(before != nil)
        let published = try Self.publish(setup, title: "Scan receipts")
        #expect(setup.dispatcher.runDue() == 1)
        var records = setup.receiver.records()
        #expect(records.count == 1)
        let first = try #require(records.first)
        #expect(first.verified == true && first.status == 204 && first.duplicate == false)
        #expect(first.timestamp == String(setup.timing.now.load(ordering: .acquiring) / 1000))
        let payload = first.payload
        #expect(payload["type"] as? String == "revision.published")
        let data = try #require(payload["data"] as? [String: Any])
        #expect(data["app"] as? String == "demo" && data["environment"] as? String == "production")
        let revision = try #require(data["revision"] as? [String: Any])
        #expect(revision["before"] as? Int == before && revision["after"] as? Int == published)
        let diff = try #require(data["diff"] as? [String: Any])
        let change = try #require((diff["changes"] as? [[String: Any]])?.first)
        #expect(change["pointer"] as? String == "/features/camera/copy/en/prime/title")
        #expect(change["to"] as? String == "Scan receipts")

        let rollback = try setup.server.send(
            "POST", "/v1/admin/apps/demo/revisions/\(before ?? 1)/rollback",
            headers: [("If-Match", try setup.server.etag())])
        #expect(rollback.status == 200, "\(rollback.body)")
        #expect(setup.dispatcher.runDue() == 1)
        records = setup.receiver.records()
        #expect(records.count == 2)
        #expect(records.last?.payload["type"] as? String == "revision.rolledBack")
        #expect(records.last?.verified == true)
        #expect(Set(records.compactMap(\.id)).count == 2)

        let listed = try Self.deliveries(setup, webhook: webhook)
        #expect(listed.count == 2 && listed.allSatisfy { $0["state"] as? String == "delivered" })
        #expect(setup.dispatcher.runDue() == 0)
    }

    @Test func aWebhookHearsOnlyTheEnvironmentsItLists() throws {
        let setup = try Self.start()
        defer {
            setup.receiver.stop()
            setup.receiver.remove()
        }
        let created = try setup.server.send(
            "POST", "/v1/admin/apps/demo/webhooks", headers: [("Content-Type", "application/json")],
            body:
                #"{"url": "\#(setup.receiver.url)", "events": ["revision.published"], "environments": ["staging"], "secret": "\#(setup.receiver.secret)"}"#
        )
        #expect(created.status == 201, "\(created.body)")
        #expect(created.object["environments"] as? [String] == ["staging"])
        let staging = try setup.server.send(
            "POST", "/v1/admin/apps/demo/environments", headers: [("Content-Type", "application/json")],
            body: #"{"name": "staging", "copyFrom": "production"}"#)
        #expect(staging.status == 201, "\(staging.body)")
        let etag = try #require(
            try setup.server.send("GET", "/v1/admin/apps/demo/environments/staging/policy").headers["etag"])
        let patched = try setup.server.send(
            "PATCH", "/v1/admin/apps/demo/environments/staging/features/camera",
            headers: [("If-Match", etag), ("Content-Type", "application/merge-patch+json")],
            body: #"{"copy": {"en": {"prime": {"title": "Scan in staging"}}}}"#)
        #expect(patched.status == 200, "\(patched.body)")
        _ = try Self.publish(setup, title: "Scan in production")
        #expect(setup.dispatcher.runDue() == 2)  // staging's first revision and its patch; not production's
        let records = setup.receiver.records()
        let environments = records.map { ($0.payload["data"] as? [String: Any])?["environment"] as? String }
        #expect(environments == ["staging", "staging"] && records.allSatisfy { $0.verified == true })
        let last = try #require(records.last?.payload["data"] as? [String: Any])
        let change = (last["diff"] as? [String: Any])?["changes"] as? [[String: Any]]
        #expect(change?.map { $0["to"] as? String } == ["Scan in staging"])
        let refused = try setup.server.send(
            "POST", "/v1/admin/apps/demo/webhooks", headers: [("Content-Type", "application/json")],
            body: #"{"url": "\#(setup.receiver.url)", "events": ["revision.published"], "environments": ["Staging"]}"#)
        #expect(refused.status == 422)
        #expect((refused.object["errors"] as? [[String: Any]])?.first?["pointer"] as? String == "/environments/0")
    }

    @Test func retriesWithBackoffOnTheInjectedClockWithTheSameID() throws {
        let setup = try Self.start(fail: 2)
        defer {
            setup.receiver.stop()
            setup.receiver.remove()
        }
        let webhook = try Self.register(setup, events: ["revision.published"])
        _ = try Self.publish(setup, title: "Scan invoices")
        let start = setup.timing.now.load(ordering: .acquiring)
        #expect(setup.dispatcher.runDue() == 1)  // 500
        let id = try #require(try Self.deliveries(setup, webhook: webhook).first?["id"] as? String)
        var shown = try setup.server.send("GET", "/v1/admin/apps/demo/webhooks/\(webhook)/deliveries/\(id)").object
        #expect(shown["state"] as? String == "pending" && shown["attempts"] as? Int == 1)
        #expect(shown["lastStatus"] as? Int == 500)
        #expect(shown["lastError"] as? String == "the receiver answered 500")
        // Backoff: 5 s × (0.5 + 0.5 × 0.5) = 3.75 s after the first failure, then 10 s × 0.75 = 7.5 s.
        #expect(shown["nextAttemptAt"] as? String == AdminTime.iso8601(start + 3750))
        #expect(setup.dispatcher.runDue() == 0)
        setup.timing.advance(milliseconds: 3749)
        #expect(setup.dispatcher.runDue() == 0)
        setup.timing.advance(milliseconds: 1)
        #expect(setup.dispatcher.runDue() == 1)  // 500 again
        setup.timing.advance(milliseconds: 7499)
        #expect(setup.dispatcher.runDue() == 0)
        setup.timing.advance(milliseconds: 1)
        #expect(setup.dispatcher.runDue() == 1)  // 204
        let records = setup.receiver.records()
        #expect(records.map(\.status) == [500, 500, 204])
        #expect(records.allSatisfy { $0.id == id && $0.verified == true })
        shown = try setup.server.send("GET", "/v1/admin/apps/demo/webhooks/\(webhook)/deliveries/\(id)").object
        #expect(shown["state"] as? String == "delivered" && shown["attempts"] as? Int == 3)
        let log = try #require(shown["attemptLog"] as? [[String: Any]])
        #expect(log.map { $0["status"] as? Int } == [500, 500, 204])
        #expect((shown["payload"] as? [String: Any])?["type"] as? String == "revision.published")
    }

    @Test func redeliversByHandWithTheSameID() throws {
        let setup = try Self.start()
        defer {
            setup.receiver.stop()
            setup.receiver.remove()
        }
        let webhook = try Self.register(setup, events: ["revision.published"])
        _ = try Self.publish(setup, title: "Scan letters")
        #expect(setup.dispatcher.runDue() == 1)
        let id = try #require(try Self.deliveries(setup, webhook: webhook).first?["id"] as? String)
        let redeliver = try setup.server.send(
            "POST", "/v1/admin/apps/demo/webhooks/\(webhook)/deliveries/\(id)/redeliver")
        #expect(redeliver.status == 202)
        #expect(redeliver.object["state"] as? String == "pending")
        #expect(setup.dispatcher.runDue() == 1)
        let records = setup.receiver.records()
        #expect(records.count == 2 && records.allSatisfy { $0.id == id && $0.verified == true })
        // The receiver's dedupe on webhook-id: the second copy is recognised, so it is processed once.
        #expect(records.map(\.duplicate) == [false, true])
        let missing = try setup.server.send(
            "POST", "/v1/admin/apps/demo/webhooks/\(webhook)/deliveries/msg_nope/redeliver")
        #expect(missing.status == 404)
    }

    @Test func refusesURLsOutsideTheAllowlistNamingTheField() throws {
        let setup = try Self.start()
        defer {
            setup.receiver.stop()
            setup.receiver.remove()
        }
        for url in [
            "https://example.com/hook", "http://localhost:\(setup.receiver.port)/hook",
            "https://localhost:1/hook", "https://user@localhost:\(setup.receiver.port)/hook", "ftp://localhost/x",
        ] {
            let response = try setup.server.send(
                "POST", "/v1/admin/apps/demo/webhooks", headers: [("Content-Type", "application/json")],
                body: #"{"url": "\#(url)", "events": ["revision.published"]}"#)
            #expect(response.status == 422, "\(url)")
            #expect(response.headers["content-type"] == "application/problem+json")
            let errors = response.object["errors"] as? [[String: Any]] ?? []
            #expect(errors.first?["pointer"] as? String == "/url", "\(url)")
        }
        let unknownEvent = try setup.server.send(
            "POST", "/v1/admin/apps/demo/webhooks", headers: [("Content-Type", "application/json")],
            body: #"{"url": "\#(setup.receiver.url)", "events": ["revision.deleted"], "secret": "nope"}"#)
        #expect(unknownEvent.status == 422)
        let pointers = (unknownEvent.object["errors"] as? [[String: Any]] ?? []).compactMap { $0["pointer"] as? String }
        #expect(pointers.sorted() == ["/events/0", "/secret"])
        let listed = try setup.server.send("GET", "/v1/admin/apps/demo/webhooks")
        #expect((listed.object["webhooks"] as? [Any])?.isEmpty == true)
    }

    @Test func anEmptyAllowlistRefusesEveryHost() throws {
        let setup = try Self.start(allowedHosts: "")
        defer {
            setup.receiver.stop()
            setup.receiver.remove()
        }
        let response = try setup.server.send(
            "POST", "/v1/admin/apps/demo/webhooks", headers: [("Content-Type", "application/json")],
            body: #"{"url": "\#(setup.receiver.url)", "events": ["revision.published"]}"#)
        #expect(response.status == 422)
        #expect((response.object["errors"] as? [[String: Any]])?.first?["code"] as? String == "webhook.urlNotAllowed")
    }

    @Test func refusesAReceiverWhoseCertificateIsNotTrusted() throws {
        let setup = try Self.start(trustReceiver: false)
        defer {
            setup.receiver.stop()
            setup.receiver.remove()
        }
        let webhook = try Self.register(setup, events: ["revision.published"])
        _ = try Self.publish(setup, title: "Scan passports")
        #expect(setup.dispatcher.runDue() == 1)
        // The handshake failed: the receiver never read a request, and the delivery waits for a retry.
        #expect(setup.receiver.records().isEmpty)
        let delivery = try #require(try Self.deliveries(setup, webhook: webhook).first)
        #expect(delivery["state"] as? String == "pending" && delivery["attempts"] as? Int == 1)
        #expect(delivery["lastStatus"] is NSNull)
        #expect((delivery["lastError"] as? String)?.hasPrefix("TLS failed") == true, "\(delivery)")
    }

    @Test func doesNotFollowRedirects() throws {
        let setup = try Self.start()
        defer {
            setup.receiver.stop()
            setup.receiver.remove()
        }
        let webhook = try Self.register(
            setup, events: ["revision.published"], url: "https://localhost:\(setup.receiver.port)/redirect")
        _ = try Self.publish(setup, title: "Scan forms")
        #expect(setup.dispatcher.runDue() == 1)
        #expect(setup.receiver.records().map(\.path) == ["/redirect"])  // never /hook
        let delivery = try #require(try Self.deliveries(setup, webhook: webhook).first)
        #expect(delivery["state"] as? String == "pending" && delivery["lastStatus"] as? Int == 302)
        #expect((delivery["lastError"] as? String)?.contains("redirects are not followed") == true)
    }

    @Test func aGoneReceiverDisablesTheWebhookAndSecretsAreShownOnce() throws {
        let setup = try Self.start()
        defer {
            setup.receiver.stop()
            setup.receiver.remove()
        }
        let created = try setup.server.send(
            "POST", "/v1/admin/apps/demo/webhooks", headers: [("Content-Type", "application/json")],
            body: #"{"url": "\#(setup.receiver.url)", "events": ["revision.published"]}"#)
        #expect(created.status == 201)
        let webhook = try #require(created.object["id"] as? String)
        let secret = try #require(created.object["secret"] as? String)
        #expect(secret.hasPrefix("whsec_") && WebhookSecret.key(secret)?.count == 32)
        #expect(created.headers["location"] == "/v1/admin/apps/demo/webhooks/\(webhook)")
        let shown = try setup.server.send("GET", "/v1/admin/apps/demo/webhooks/\(webhook)")
        #expect(shown.status == 200 && shown.object["secret"] == nil && !shown.body.contains(secret))
        #expect(!(try setup.server.send("GET", "/v1/admin/apps/demo/webhooks").body.contains(secret)))
        #expect(!(try setup.server.send("GET", "/v1/admin/audit").body.contains(secret)))

        try setup.receiver.force(status: 410)
        _ = try Self.publish(setup, title: "Scan receipts")
        #expect(setup.dispatcher.runDue() == 1)
        let disabled = try setup.server.send("GET", "/v1/admin/apps/demo/webhooks/\(webhook)").object
        #expect(disabled["enabled"] as? Bool == false)
        #expect((disabled["disabledReason"] as? String)?.contains("410") == true)
        #expect(try Self.deliveries(setup, webhook: webhook).first?["state"] as? String == "failed")
        // Disabled: new changes enqueue nothing for it.
        _ = try Self.publish(setup, title: "Scan notes")
        #expect(try Self.deliveries(setup, webhook: webhook).count == 1)
        let rotated = try setup.server.send(
            "PATCH", "/v1/admin/apps/demo/webhooks/\(webhook)", headers: [("Content-Type", "application/json")],
            body: #"{"enabled": true, "rotateSecret": true}"#)
        #expect(rotated.status == 200 && rotated.object["enabled"] as? Bool == true)
        #expect((rotated.object["secret"] as? String).map { $0 != secret && $0.hasPrefix("whsec_") } == true)
        let deleted = try setup.server.send("DELETE", "/v1/admin/apps/demo/webhooks/\(webhook)")
        #expect(deleted.status == 204)
        #expect(try setup.server.send("GET", "/v1/admin/apps/demo/webhooks/\(webhook)").status == 404)
    }
}
