import Foundation
import PreludeStorage
import PreludeStore
import PreludeTestSupport
import Synchronization
import Testing

@testable import PreludeService

/// Acknowledged writes survive `kill -9` of the real binary: an admin write right after its 200, and event batches
/// group-committed while others were still in flight.
@Suite struct AdminDurabilityTests {
    @Test func acknowledgedPolicyWriteSurvivesKill9() throws {
        let fixture = ServiceFixture()
        fixture.write("policy.json", AdminServer.policyText)
        let database = TestDatabase.location(file: fixture.path("kill.sqlite"))
        let server = try ServerProcess.start(
            database: database, policy: fixture.path("policy.json"),
            environment: ["PRELUDE_ADMIN_TOKEN": AdminServer.secret])
        defer { server.killHard() }
        let port = server.port

        var acknowledged: [(revision: Int, title: String)] = []
        for round in 1...3 {
            let etag = try #require(
                try TestTransport.live(port: port).exchange(
                    AdminRequest.bytes("GET", "/v1/admin/apps/demo/policy", token: AdminServer.secret)
                ).headers["etag"])
            let title = "Durable title \(round)."
            let response = try TestTransport.live(port: port).exchange(
                AdminRequest.bytes(
                    "PATCH", "/v1/admin/apps/demo/features/camera", token: AdminServer.secret,
                    headers: [("If-Match", etag), ("Content-Type", "application/merge-patch+json")],
                    body: #"{"copy": {"en": {"prime": {"title": "\#(title)"}}}}"#))
            #expect(response.status == 200)
            acknowledged.append((try #require(response.object["revision"] as? Int), title))
        }
        // SIGKILL right after the last 200: no shutdown, no checkpoint, no close.
        server.killHard()
        #expect(server.process.terminationReason == .uncaughtSignal)

        let reopened = try Database(path: database, readerCount: 1)
        defer { reopened.close() }
        #expect(try PolicyRepository(database: reopened).liveRevision(app: "demo", environment: "production") == 4)
        try reopened.read { db in
            if db.engine == .sqlite { #expect(try db.scalar("PRAGMA integrity_check", as: String.self) == "ok") }
            for (revision, title) in acknowledged {
                let document = try db.scalar(
                    "SELECT document FROM policy_revisions WHERE app_id = 'demo' AND number = ?",
                    [.integer(Int64(revision))], as: String.self)
                #expect(document?.contains(title) == true)
                let audit = try db.queryOne(
                    "SELECT actor, action FROM audit_log WHERE app_id = 'demo' AND revision = ?",
                    [.integer(Int64(revision))])
                #expect(try audit?.get("actor", as: String.self) == "bootstrap")
                #expect(try audit?.get("action", as: String.self) == "feature.patch")
            }
        }
    }
}

extension AdminDurabilityTests {
    /// Eight clients post batches as fast as they can; the server is killed while batches are queued, being
    /// committed and being answered. Every batch that got its 202 is stored whole, no batch is stored in part,
    /// and nothing was stored that no client sent.
    @Test func acknowledgedEventBatchesSurviveKill9InTheMiddleOfGroupCommits() throws {
        let fixture = ServiceFixture()
        fixture.write("policy.json", AdminServer.policyText)
        let database = TestDatabase.location(file: fixture.path("events-kill.sqlite"))
        // Eight installs sending as fast as they can: far over the per-install event budget, which is not what
        // this test is about.
        let server = try ServerProcess.start(
            database: database, policy: fixture.path("policy.json"),
            environment: ["PRELUDE_EVENTS_PER_INSTALL_PER_SECOND": "0"])
        defer { server.killHard() }

        let clients = 8
        let eventsPerBatch = 50
        let acknowledged = Mutex<[String]>([])  // batch prefixes answered 202
        let stop = Atomic<Bool>(false)
        let done = DispatchGroup()
        for client in 0..<clients {
            DispatchQueue.global().async(group: done) {
                var batch = 0
                while !stop.load(ordering: .relaxed) {
                    let prefix = "c\(client)-b\(batch)-"
                    let events = (0..<eventsPerBatch).map {
                        #"{"id":"\#(prefix)\#($0)","installId":"install-\#(client)","type":"primeShown","feature":"camera","occurredAt":1795350000000}"#
                    }
                    let request = AdminRequest.bytes(
                        "POST", "/v1/apps/demo/events", token: nil, headers: [("Content-Type", "application/json")],
                        body: #"{"events":[\#(events.joined(separator: ","))]}"#)
                    guard let response = try? TestTransport.live(port: server.port).exchange(request) else { return }
                    if response.status == 202 { acknowledged.withLock { $0.append(prefix) } }
                    batch += 1
                }
            }
        }
        // Kill once a good number of batches went through, with the clients still sending.
        while acknowledged.withLock({ $0.count }) < 60 { usleep(2_000) }
        server.killHard()
        stop.store(true, ordering: .relaxed)
        done.wait()

        let reopened = try Database(path: database, readerCount: 1)
        defer { reopened.close() }
        let ids = try reopened.read { db in
            if db.engine == .sqlite { #expect(try db.scalar("PRAGMA integrity_check", as: String.self) == "ok") }
            return try db.query("SELECT client_event_id FROM events").map { try $0.get(0, as: String.self) }
        }
        // "c3-b12-7" belongs to batch "c3-b12-".
        let stored = Dictionary(grouping: ids) { String($0[...$0.lastIndex(of: "-")!]) }.mapValues { Int64($0.count) }
        for prefix in acknowledged.withLock({ $0 }) {
            #expect(stored[prefix] == Int64(eventsPerBatch), "acknowledged batch \(prefix) lost")
        }
        for (prefix, count) in stored {
            #expect(count == Int64(eventsPerBatch), "batch \(prefix) stored in part: \(count) events")
            #expect(prefix.hasPrefix("c"))
        }
    }
}
