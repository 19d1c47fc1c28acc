import Foundation
import PreludeStorage
import PreludeTestSupport
import Testing

/// Deliveries survive kill -9 of the primary: a publish acknowledged with 200 has its deliveries on disk, and after a
/// restart each arrives at the receiver, signed, and is processed exactly once per webhook-id (the receiver's dedupe).
@Suite(.serialized) struct WebhookDurabilityTests {
    static func publish(port: Int, title: String) throws -> Int {
        let etag = try #require(
            try TestTransport.live(port: port).exchange(
                AdminRequest.bytes("GET", "/v1/admin/apps/demo/policy", token: AdminServer.secret)
            ).headers["etag"])
        let response = try TestTransport.live(port: port).exchange(
            AdminRequest.bytes(
                "PATCH", "/v1/admin/apps/demo/features/camera", token: AdminServer.secret,
                headers: [("If-Match", etag), ("Content-Type", "application/merge-patch+json")],
                body: #"{"copy": {"en": {"prime": {"title": "\#(title)"}}}}"#))
        #expect(response.status == 200)
        return try #require(response.object["revision"] as? Int)
    }

    static func deliveryIDs(_ path: String) throws -> [String: String] {
        let database = try Database(path: path, readerCount: 1)
        defer { database.close() }
        return try database.read { db in
            var ids: [String: String] = [:]
            for row in try db.query("SELECT id, state FROM webhook_deliveries") {
                ids[try row.get("id", as: String.self)] = try row.get("state", as: String.self)
            }
            return ids
        }
    }

    /// The attempts recorded so far, per delivery, oldest first: (started at, error).
    static func attempts(_ path: String) throws -> [String: [(startedAt: Int64, error: String?)]] {
        let database = try Database(path: path, readerCount: 1)
        defer { database.close() }
        return try database.read { db in
            var attempts: [String: [(startedAt: Int64, error: String?)]] = [:]
            for row in try db.query("SELECT delivery_id, started_at, error FROM webhook_attempts ORDER BY number") {
                var error: String?
                if case .text(let text) = try row.get("error", as: SQLValue.self) { error = text }
                attempts[try row.get("delivery_id", as: String.self), default: []].append(
                    (try row.get("started_at", as: Int64.self), error))
            }
            return attempts
        }
    }

    @Test func deliveriesSurviveKillNineAndArriveOncePerID() throws {
        var receiver = try WebhookReceiver(secret: WebhookReceiver.makeSecret())
        defer {
            receiver.stop()
            receiver.remove()
        }
        let fixture = ServiceFixture()
        fixture.write("policy.json", AdminServer.policyText)
        let database = TestDatabase.location(file: fixture.path("webhooks-kill.sqlite"))
        let environment = [
            "PRELUDE_ADMIN_TOKEN": AdminServer.secret, "PRELUDE_TLS_CA_FILE": receiver.caFile,
            "PRELUDE_WEBHOOK_ALLOWED_HOSTS": "localhost:\(receiver.port)",
        ]
        var server = try ServerProcess.start(
            database: database, policy: fixture.path("policy.json"), environment: environment)
        defer { server.killHard() }
        let registered = try TestTransport.live(port: server.port).exchange(
            AdminRequest.bytes(
                "POST", "/v1/admin/apps/demo/webhooks", token: AdminServer.secret,
                headers: [("Content-Type", "application/json")],
                body: #"{"url": "\#(receiver.url)", "events": ["revision.published"], "secret": "\#(receiver.secret)"}"#
            ))
        #expect(registered.status == 201)

        // Phase 1: the receiver is down, so nothing can be delivered before the kill.
        receiver.stop()
        var revisions: [Int] = []
        for round in 1...3 { revisions.append(try Self.publish(port: server.port, title: "Down \(round).")) }
        // The running primary tries, fails to connect and retries with backoff (5 s × [0.5, 1) after the first
        // failure): wait, on the database rather than on a timer, for a second attempt of every delivery.
        var tried: [String: [(startedAt: Int64, error: String?)]] = [:]
        let deadline = Date().addingTimeInterval(30)
        repeat {
            usleep(100_000)
            tried = try Self.attempts(database)
        } while (tried.count < 3 || tried.values.contains { $0.count < 2 }) && Date() < deadline
        #expect(tried.count == 3)
        for (id, attempts) in tried {
            #expect(attempts.count >= 2, "\(id)")
            #expect(attempts.allSatisfy { $0.error?.hasPrefix("could not connect") == true }, "\(attempts)")
            if attempts.count >= 2 { #expect(attempts[1].startedAt - attempts[0].startedAt >= 2500, "\(attempts)") }
        }
        server.killHard()
        #expect(server.process.terminationReason == .uncaughtSignal)
        let stored = try Self.deliveryIDs(database)
        #expect(stored.count == 3 && stored.values.allSatisfy { $0 == "pending" })

        // Phase 2: receiver back, primary restarted; then three more publishes and a kill right after the last 200.
        receiver = try receiver.restarted()
        server = try ServerProcess.start(
            database: database, policy: fixture.path("policy.json"), environment: environment)
        for round in 1...3 { revisions.append(try Self.publish(port: server.port, title: "Up \(round).")) }
        server.killHard()
        let all = try Self.deliveryIDs(database)
        #expect(all.count == 6)
        server = try ServerProcess.start(
            database: database, policy: fixture.path("policy.json"), environment: environment)

        // A delivery the killed primary had claimed mid-send is due again when its claim (20 s) runs out.
        let records = receiver.waitUntil(seconds: 45) { records in
            Set(records.filter { $0.status == 204 }.compactMap(\.id)) == Set(all.keys)
        }
        let acknowledged = records.filter { $0.status == 204 }
        #expect(Set(acknowledged.compactMap(\.id)) == Set(all.keys))
        #expect(records.allSatisfy { $0.verified == true })
        // Processed exactly once per id: one first acknowledgement each; any resend is flagged a duplicate.
        for id in all.keys {
            #expect(acknowledged.filter { $0.id == id && $0.duplicate == false }.count == 1, "\(id)")
        }
        let afters = acknowledged.compactMap {
            (($0.payload["data"] as? [String: Any])?["revision"] as? [String: Any])?["after"] as? Int
        }
        #expect(Set(afters) == Set(revisions))
    }
}
