import Foundation
import PreludeStorage
import Synchronization
import Testing

@testable import PreludeService

/// Read replicas as real processes (docs/scaling.md, "Read replicas"): a primary and replicas of the built binary on
/// loopback, killed with SIGKILL where the scenario says so, checked over real HTTP and in the primary's database.
@Suite(.serialized) struct ReplicaTopologyTests {
    let fixture = ServiceFixture()

    /// A revision committed on the primary is served by every replica, byte for byte and under the same tags, well
    /// within a second (the issue's bound, at p99 over 20 changes); admin writes on a replica are refused.
    @Test func revisionsReachEveryReplicaWithinASecondByteForByte() throws {
        let topology = try Topology(fixture: fixture, replicas: 3)
        defer { topology.stopAll() }
        try topology.waitUntilReplicasServe(try topology.primaryDocumentETag())

        var latencies: [Double] = []
        for round in 1...20 {
            let committed = try topology.commitChange(title: "Scan papers, take \(round).")
            let samples = Mutex<[Double]>([])
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: topology.replicas.count) { index in
                do {
                    let seconds = try topology.timeUntil(replica: index, serves: committed.etag, since: committed.at)
                    samples.withLock { $0.append(seconds) }
                } catch {
                    failures.withLock { $0.append("replica \(index): \(error)") }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
            latencies += samples.withLock { $0 }
        }
        latencies.sort()
        let p50 = latencies[latencies.count / 2]
        let p99 = latencies[min(latencies.count - 1, Int((Double(latencies.count) * 0.99).rounded(.up)) - 1)]
        print(
            "replica propagation over \(latencies.count) samples: p50 \(ms(p50)) ms, p99 \(ms(p99)) ms, max \(ms(latencies.last!)) ms"
        )
        #expect(latencies.count == 60)
        #expect(p99 < 1.0, "p99 \(p99) s over the issue's bound")

        // The same bytes and tags for every public representation: document (identity and gzip), resolved policy.
        let paths = [
            "/v1/apps/demo/policy/document", "/v1/apps/demo/policy?platform=ios&os=17.2&locale=en",
            "/v1/apps/demo/policy?installId=abc&platform=ios&os=18.0",
        ]
        for path in paths {
            for gzip in [false, true] {
                let fromPrimary = try Topology.get(path, port: topology.primary.port, gzip: gzip)
                #expect(fromPrimary.status == 200)
                for replica in topology.replicas {
                    let fromReplica = try Topology.get(path, port: replica.port, gzip: gzip)
                    #expect(fromReplica.status == fromPrimary.status, "\(path)")
                    #expect(fromReplica.bytes == fromPrimary.bytes, "\(path) gzip=\(gzip): bodies differ")
                    #expect(fromReplica.headers["etag"] == fromPrimary.headers["etag"], "\(path) gzip=\(gzip)")
                    #expect(fromReplica.headers["cache-control"] == fromPrimary.headers["cache-control"])
                    #expect(fromReplica.headers["vary"] == fromPrimary.headers["vary"])
                }
            }
        }

        // Admin writes on a replica: 409 naming the primary, and nothing changes.
        let refused = try TestTransport.live(port: topology.replicas[0].port).exchange(
            AdminRequest.bytes(
                "PATCH", "/v1/admin/apps/demo/features/camera", token: AdminServer.secret,
                headers: [("If-Match", "*"), ("Content-Type", "application/merge-patch+json")],
                body: #"{"copy": {"en": {"prime": {"title": "Never."}}}}"#))
        #expect(refused.status == 409)
        #expect(refused.headers["content-type"] == "application/problem+json")
        #expect(refused.object["type"] as? String == ReplicationRoutes.readReplicaProblem)
        #expect((refused.object["detail"] as? String)?.contains("http://127.0.0.1:\(topology.primary.port)") == true)
        let metrics = try TestTransport.live(port: topology.replicas[0].port).get("/metrics").body
        for family in [
            "prelude_replica_lag_seconds 0", "prelude_replica_last_sync_timestamp_seconds",
            "prelude_replica_sync_failures_total", "prelude_replica_outbox_events 0",
        ] {
            #expect(metrics.contains(family), "\(family)")
        }
    }

    /// The primary killed: replicas keep serving and queue events in their outbox; a replica restarted meanwhile
    /// serves its stored copy; the primary back: every queued event is stored exactly once, including one event
    /// sent to two replicas.
    @Test func eventsQueueWhileThePrimaryIsDownAndAreStoredOnceWhenItReturns() throws {
        let topology = try Topology(fixture: fixture, replicas: 2)
        defer { topology.stopAll() }
        let etag = try topology.commitChange(title: "Before the outage.").etag
        try topology.waitUntilReplicasServe(etag)
        let document = try Topology.get("/v1/apps/demo/policy/document", port: topology.primary.port, gzip: false)

        topology.primary.killHard()
        var sent = Set<String>()
        for batch in 0..<10 {
            let replica = topology.replicas[batch % 2]
            let ids = (0..<20).map { "e-\(batch)-\($0)" }
            let response = try Topology.postEvents(ids: ids, install: "install-\(batch)", port: replica.port)
            #expect(response.status == 202, "\(response.body)")
            sent.formUnion(ids.map { "install-\(batch)/\($0)" })
        }
        // One event sent through both replicas (a client that retried elsewhere): stored once.
        for replica in topology.replicas {
            #expect(try Topology.postEvents(ids: ["twice"], install: "install-x", port: replica.port).status == 202)
        }
        sent.insert("install-x/twice")
        for replica in topology.replicas {
            let served = try Topology.get("/v1/apps/demo/policy/document", port: replica.port, gzip: false)
            #expect(served.status == 200)
            #expect(served.bytes == document.bytes)
            #expect(served.headers["etag"] == document.headers["etag"])
            #expect(try Topology.metric("prelude_replica_outbox_events", port: replica.port) > 0)
        }

        // A replica restarted (after SIGKILL) with the primary down serves its stored copy and is ready.
        try topology.restartReplica(0)
        #expect(try TestTransport.live(port: topology.replicas[0].port).get("/readyz").status == 200)
        let restarted = try Topology.get("/v1/apps/demo/policy/document", port: topology.replicas[0].port, gzip: false)
        #expect(restarted.bytes == document.bytes)
        #expect(restarted.headers["etag"] == document.headers["etag"])
        // A new replica that never synced is not ready.
        let fresh = try topology.startReplica(database: fixture.path("fresh.sqlite"))
        defer { fresh.killHard() }
        let readiness = try TestTransport.live(port: fresh.port).get("/readyz")
        #expect(readiness.status == 503)
        #expect(readiness.body.contains("no copy"))

        try topology.restartPrimary()
        try topology.waitUntilOutboxesEmpty()
        topology.primary.killHard()
        #expect(try topology.storedEvents() == sent)
    }

    /// Events sent to a replica with a device segment (Prelude-OS-Major, Prelude-Locale) reach the primary with it;
    /// a batch without one stays without.
    @Test func theDeviceSegmentTravelsThroughAReplica() throws {
        let topology = try Topology(fixture: fixture, replicas: 1)
        defer { topology.stopAll() }
        try topology.waitUntilReplicasServe(try topology.primaryDocumentETag())
        let port = topology.replicas[0].port
        let french = [("Prelude-OS-Major", "18"), ("Prelude-Locale", "fr-CA")]
        #expect(try Topology.postEvents(ids: ["a", "b"], install: "i-fr", port: port, headers: french).status == 202)
        #expect(try Topology.postEvents(ids: ["c"], install: "i-old", port: port).status == 202)
        #expect(
            try Topology.postEvents(ids: ["d"], install: "i-us", port: port, headers: [("Prelude-Locale", "en-US")])
                .status == 202)
        #expect(
            try Topology.postEvents(ids: ["e"], install: "i-bad", port: port, headers: [("Prelude-OS-Major", "x")])
                .status == 400)
        try topology.waitUntilOutboxesEmpty()
        topology.primary.killHard()
        let database = try Database(path: topology.primaryDatabase, readerCount: 1)
        defer { database.close() }
        let stored = try database.read { db in
            try db.query("SELECT client_event_id, os_major, locale FROM events ORDER BY client_event_id").map {
                "\(try $0.get(0, as: String.self)) \(try $0.get(1, as: Int?.self).map(String.init) ?? "-") "
                    + (try $0.get(2, as: String?.self) ?? "-")
            }
        }
        #expect(stored == ["a 18 fr-CA", "b 18 fr-CA", "c - -", "d - en-US"])
    }

    /// A replica SIGKILLed again and again while it forwards its outbox: every event is stored exactly once.
    @Test func replicaKilledMidForwardLosesAndDoublesNothing() throws {
        let topology = try Topology(fixture: fixture, replicas: 1)
        defer { topology.stopAll() }
        try topology.waitUntilReplicasServe(try topology.primaryDocumentETag())
        topology.primary.killHard()
        var sent = Set<String>()
        for batch in 0..<40 {
            let ids = (0..<50).map { "k-\(batch)-\($0)" }
            let response = try Topology.postEvents(
                ids: ids, install: "install-\(batch)", port: topology.replicas[0].port)
            #expect(response.status == 202)
            sent.formUnion(ids.map { "install-\(batch)/\($0)" })
        }
        try topology.restartPrimary()
        // Kill the replica at growing delays after its start, while its forwarder works through 2000 events.
        var killedWithWorkLeft = 0
        for round in 0..<8 {
            try topology.restartReplica(0)
            usleep(UInt32(5_000 + round * 7_000))
            let left = try Topology.metric("prelude_replica_outbox_events", port: topology.replicas[0].port)
            topology.replicas[0].killHard()
            if left > 0 { killedWithWorkLeft += 1 }
        }
        try topology.restartReplica(0)
        try topology.waitUntilOutboxesEmpty()
        topology.primary.killHard()
        #expect(try topology.storedEvents() == sent)
        print("replica killed \(8) times, \(killedWithWorkLeft) of them with events still in its outbox")
    }

    private func ms(_ seconds: Double) -> String { String(format: "%.1f", seconds * 1000) }
}

/// A primary and its replicas as child processes.
final class Topology: @unchecked Sendable {
    let fixture: ServiceFixture
    private(set) var primary: ServerProcess
    private(set) var replicas: [ServerProcess] = []
    let primaryDatabase: String
    private let replicaDatabases: [String]

    /// Starts a primary with the bootstrap token and `replicas` replicas following it (not waiting for their sync).
    init(fixture: ServiceFixture, replicas count: Int) throws {
        self.fixture = fixture
        fixture.write("policy.json", AdminServer.policyText)
        primaryDatabase = fixture.path("primary.sqlite")
        replicaDatabases = (0..<count).map { fixture.path("replica-\($0).sqlite") }
        primary = try ServerProcess.start(
            database: primaryDatabase, policy: fixture.path("policy.json"), environment: Self.environment)
        for database in replicaDatabases { replicas.append(try startReplica(database: database)) }
    }

    static let environment = [
        "PRELUDE_ADMIN_TOKEN": AdminServer.secret, "PRELUDE_EVENTS_PER_INSTALL_PER_SECOND": "0",
        "PRELUDE_DRAIN_SECONDS": "0",
    ]

    /// Starts a replica of the primary on a free port.
    func startReplica(database: String) throws -> ServerProcess {
        try ServerProcess.start(
            database: database, policy: "",
            environment: Self.environment.merging(["PRELUDE_FOLLOW_TOKEN": AdminServer.secret]) { $1 },
            arguments: ["--follow", "http://127.0.0.1:\(primary.port)"])
    }

    /// SIGKILLs replica `index` (if running) and starts it again on its database.
    func restartReplica(_ index: Int) throws {
        replicas[index].killHard()
        replicas[index] = try startReplica(database: replicaDatabases[index])
    }

    /// Starts the primary again on its port and database.
    func restartPrimary() throws {
        primary.killHard()
        primary = try ServerProcess.start(
            database: primaryDatabase, policy: fixture.path("policy.json"), environment: Self.environment,
            port: primary.port)
    }

    func stopAll() {
        for process in [primary] + replicas { process.killHard() }
    }

    /// The primary's current document tag.
    func primaryDocumentETag() throws -> String {
        try #require(try TestTransport.live(port: primary.port).get("/v1/apps/demo/policy/document").headers["etag"])
    }

    /// Commits a new camera title on the primary; returns the new document tag and when the 200 arrived.
    func commitChange(title: String) throws -> (etag: String, at: Date) {
        let current = try #require(
            try TestTransport.live(port: primary.port).exchange(
                AdminRequest.bytes("GET", "/v1/admin/apps/demo/policy", token: AdminServer.secret)
            ).headers["etag"])
        let response = try TestTransport.live(port: primary.port).exchange(
            AdminRequest.bytes(
                "PATCH", "/v1/admin/apps/demo/features/camera", token: AdminServer.secret,
                headers: [("If-Match", current), ("Content-Type", "application/merge-patch+json")],
                body: #"{"copy": {"en": {"prime": {"title": "\#(title)"}}}}"#))
        let at = Date()
        #expect(response.status == 200, "\(response.body)")
        return (try primaryDocumentETag(), at)
    }

    /// Seconds from `since` until replica `index` serves the document tagged `etag` (at most 5 s).
    func timeUntil(replica index: Int, serves etag: String, since: Date) throws -> Double {
        let deadline = since.addingTimeInterval(5)
        while Date() < deadline {
            if try TestTransport.live(port: replicas[index].port).get("/v1/apps/demo/policy/document").headers["etag"]
                == etag
            {
                return Date().timeIntervalSince(since)
            }
            usleep(1_000)
        }
        throw TestTransport.Failure.malformed("replica \(index) did not serve \(etag) within 5 s")
    }

    /// Waits (at most 10 s) until every replica serves the document tagged `etag`.
    func waitUntilReplicasServe(_ etag: String) throws {
        for index in replicas.indices { _ = try timeUntil(replica: index, serves: etag, since: Date()) }
    }

    /// Waits (at most 30 s) until every replica's outbox is empty.
    func waitUntilOutboxesEmpty() throws {
        let deadline = Date().addingTimeInterval(30)
        for replica in replicas {
            while try Self.metric("prelude_replica_outbox_events", port: replica.port) > 0 {
                guard Date() < deadline else { throw TestTransport.Failure.malformed("outbox not drained in 30 s") }
                usleep(20_000)
            }
        }
    }

    /// Every stored event of the (stopped) primary as `install/id`; fails when one is stored twice.
    func storedEvents() throws -> Set<String> {
        let database = try Database(path: primaryDatabase, readerCount: 1)
        defer { database.close() }
        let keys = try database.read { db in
            try db.query("SELECT install_id, client_event_id FROM events").map {
                "\(try $0.get("install_id", as: String.self))/\(try $0.get("client_event_id", as: String.self))"
            }
        }
        #expect(Set(keys).count == keys.count, "an event is stored twice")
        return Set(keys)
    }

    /// GET with or without `Accept-Encoding: gzip`.
    static func get(_ path: String, port: Int, gzip: Bool) throws -> TestTransport.Response {
        let encoding = gzip ? "Accept-Encoding: gzip\r\n" : ""
        return try TestTransport.live(port: port).exchange(
            Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\(encoding)\r\n".utf8))
    }

    /// Posts one batch of camera `primeShown` events with these ids for one install.
    static func postEvents(ids: [String], install: String, port: Int, headers: [(String, String)] = []) throws
        -> TestTransport.Response
    {
        let events = ids.map {
            #"{"id":"\#($0)","installId":"\#(install)","type":"primeShown","feature":"camera","occurredAt":1795000000000}"#
        }
        return try TestTransport.live(port: port).exchange(
            AdminRequest.bytes(
                "POST", "/v1/apps/demo/events", token: nil, headers: headers,
                body: #"{"events":[\#(events.joined(separator: ","))]}"#))
    }

    /// One unlabelled sample of `/metrics`.
    static func metric(_ name: String, port: Int) throws -> Double {
        let text = try TestTransport.live(port: port).get("/metrics").body
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1)) ?? -1
        }
        throw TestTransport.Failure.malformed("no \(name) in /metrics")
    }
}
