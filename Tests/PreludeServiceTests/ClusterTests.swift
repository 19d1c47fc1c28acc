import Foundation
import PreludeStorage
import PreludeTestSupport
import Synchronization
import Testing

@testable import PreludeService
@testable import PreludeStore

/// Nodes of the built binary sharing one PostgreSQL database (docs/scaling.md, "PostgreSQL cluster"), as real
/// processes on loopback, one of them killed with SIGKILL: a publish on any node is served by every node within a
/// second, `If-Match` holds across nodes, each kind of work that must run once has exactly one leader, and when the
/// leader dies another node takes over and applies a scheduled change exactly once. Runs in the PostgreSQL lane.
@Suite(.serialized, .enabled(if: TestDatabase.isPostgres, "needs the PostgreSQL lane (PRELUDE_TEST_POSTGRES)"))
struct ClusterTests {
    let fixture = ServiceFixture()
    static let everyRole = LeaderWork.allCases.map(\.rawValue).joined(separator: ",")

    /// Starts `count` nodes on one database, one after another (the first migrates and seeds the demo).
    func startNodes(_ count: Int) throws -> [ServerProcess] {
        fixture.write("policy.json", AdminServer.policyText)
        var nodes: [ServerProcess] = []
        for _ in 0..<count {
            nodes.append(
                try ServerProcess.start(
                    database: fixture.database, policy: fixture.path("policy.json"),
                    environment: Topology.environment))
        }
        return nodes
    }

    static func readiness(_ node: ServerProcess) throws -> [String: Any] {
        try TestTransport.live(port: node.port).get("/readyz").object
    }

    static func send(
        _ node: ServerProcess, _ method: String, _ path: String, headers: [(String, String)] = [], body: String = ""
    ) throws -> TestTransport.Response {
        try TestTransport.live(port: node.port).exchange(
            AdminRequest.bytes(method, path, token: AdminServer.secret, headers: headers, body: body))
    }

    static func documentETag(_ node: ServerProcess) throws -> String? {
        try TestTransport.live(port: node.port).get("/v1/apps/demo/policy/document").headers["etag"]
    }

    /// Waits until `condition` holds, at most `seconds`; returns how long it took.
    static func wait(atMost seconds: Double, _ what: String, _ condition: () throws -> Bool) throws -> Double {
        let start = Date()
        while Date().timeIntervalSince(start) < seconds {
            if try condition() { return Date().timeIntervalSince(start) }
            usleep(10_000)
        }
        throw TestTransport.Failure.malformed("\(what) not within \(seconds) s")
    }

    /// Three sessions of the suite's database, as three nodes would open it: two that race and one that watches.
    func threeSessions() throws -> (Database, Database, Database) {
        let location = DatabaseLocation(fixture.database)
        return (
            try Database(location: location, readerCount: 1), try Database(location: location, readerCount: 1),
            try Database(location: location, readerCount: 1)
        )
    }

    /// Waits (at most 10 s) until a session of `observer`'s database waits on a lock another transaction holds.
    static func waitForALockWait(_ observer: Database) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let blocked = try observer.read {
                try $0.scalar(
                    """
                    SELECT count(*) FROM pg_stat_activity
                    WHERE datname = current_database() AND wait_event_type IN ('Lock', 'LWLock')
                    """, as: Int64.self)
            }
            if (blocked ?? 0) > 0 { return }
            usleep(5_000)
        }
    }

    @Test func oneLeaderPerKindOfWorkAndAPublishOnAnyNodeIsServedByEvery() throws {
        let nodes = try startNodes(3)
        defer { for node in nodes { node.killHard() } }
        for node in nodes { #expect(try Self.readiness(node)["status"] as? String == "ready") }
        let leaders = try nodes.map { try Self.readiness($0)["leader"] as? String ?? "missing" }
        // The first node took every role at start; the others lead nothing and keep asking.
        #expect(leaders == [Self.everyRole, "", ""], "\(leaders)")
        let metrics = try TestTransport.live(port: nodes[0].port).get("/metrics").body
        #expect(metrics.contains("prelude_leader{work=\"scheduler\"} 1"))
        #expect(
            try TestTransport.live(port: nodes[1].port).get("/metrics").body.contains(
                "prelude_leader{work=\"rollouts\"} 0"))

        // A publish on the last node is served by every node within a second (LISTEN/NOTIFY).
        let current = try #require(try Self.send(nodes[2], "GET", "/v1/admin/apps/demo/policy").headers["etag"])
        let patch = try Self.send(
            nodes[2], "PATCH", "/v1/admin/apps/demo/features/camera",
            headers: [("If-Match", current), ("Content-Type", "application/merge-patch+json")],
            body: #"{"copy": {"en": {"prime": {"title": "Scan receipts anywhere."}}}}"#)
        #expect(patch.status == 200, "\(patch.body)")
        let published = try #require(try Self.documentETag(nodes[2]))
        for node in nodes {
            let seconds = try Self.wait(atMost: 1, "node \(node.port) serving the publish") {
                try Self.documentETag(node) == published
            }
            #expect(seconds < 1)
        }

        // An operator's calls through a load balancer land on any node: what one admin call made, the next one on
        // another node sees at once, before that node's poll would have loaded it.
        for attempt in 1...5 {
            let created = try Self.send(
                nodes[0], "POST", "/v1/admin/apps/demo/environments", headers: [("Content-Type", "application/json")],
                body: #"{"name": "qa-\#(attempt)", "copyFrom": "production"}"#)
            #expect(created.status == 201, "\(created.body)")
            let read = try Self.send(nodes[1], "GET", "/v1/admin/apps/demo/environments/qa-\(attempt)/policy")
            #expect(read.status == 200, "attempt \(attempt): \(read.status) \(read.body.prefix(200))")
            #expect(read.headers["etag"] == created.object["etag"] as? String)
        }

        // Two nodes racing on the same ETag: exactly one wins, the other gets 412.
        let base = try #require(try Self.send(nodes[0], "GET", "/v1/admin/apps/demo/policy").headers["etag"])
        let outcomes = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let status =
                (try? Self.send(
                    nodes[index], "PATCH", "/v1/admin/apps/demo/features/camera",
                    headers: [("If-Match", base), ("Content-Type", "application/merge-patch+json")],
                    body: #"{"copy": {"en": {"prime": {"title": "Race \#(index)."}}}}"#
                ).status) ?? 0
            outcomes.withLock { $0.append(status) }
        }
        #expect(outcomes.withLock { $0 }.sorted() == [200, 412])

        // A batch retried on another node (its first answer lost) is stored once: the database's key decides.
        let ids = (1...20).map { "cluster-\($0)" }
        let first = try Topology.postEvents(ids: ids, install: "cluster-install", port: nodes[0].port)
        #expect(first.status == 202)
        #expect(first.object["accepted"] as? Int == 20)
        let retried = try Topology.postEvents(ids: ids, install: "cluster-install", port: nodes[1].port)
        #expect(retried.status == 202)
        #expect(retried.object["accepted"] as? Int == 0)
        #expect(retried.object["duplicates"] as? Int == 20)

        // The same new batch on every node at once: every node answers 202, and the events are stored once.
        let racing = (1...20).map { "race-\($0)" }
        let answers = Mutex<[(Int, Int)]>([])
        DispatchQueue.concurrentPerform(iterations: nodes.count) { index in
            let response = try? Topology.postEvents(ids: racing, install: "race-install", port: nodes[index].port)
            answers.withLock { $0.append((response?.status ?? 0, response?.object["accepted"] as? Int ?? -1)) }
        }
        let results = answers.withLock { $0 }
        #expect(results.map(\.0) == Array(repeating: 202, count: nodes.count), "\(results)")
        #expect(results.map(\.1).reduce(0, +) == 20, "\(results)")
    }

    /// Nodes ingesting one install's events at the same moment (its prime shown in three sessions, each session's
    /// events reaching another node, with its accepted and granted events) count the install once per step: each node
    /// reads the install's stored steps and writes their union, so without a lock every node would count the shown
    /// step as new.
    @Test func experimentCountsStayExactWhenNodesIngestOneInstallAtOnce() throws {
        let nodes = try startNodes(3)
        defer { for node in nodes { node.killHard() } }
        let types = ["primeShown", "primeAccepted", "systemGranted"]
        var installs = 0
        for round in 0..<8 {
            var batches = Array(repeating: [String](), count: nodes.count)
            for index in 0..<25 {
                let install = "hot-\(round)-\(index)"
                let policy = try TestTransport.live(port: nodes[0].port).get(
                    "/v1/apps/demo/policy?platform=ios&os=17.4&locale=en&installId=\(install)"
                ).object
                let microphone = (policy["features"] as? [String: Any])?["microphone"] as? [String: Any]
                guard let variant = (microphone?["variant"] as? [String: Any])?["variant"] as? String else { continue }
                installs += 1
                // Each node gets the install's shown event (the prime shown in three sessions) and one more step.
                for (node, type) in types.enumerated() {
                    for (number, step) in Set(["primeShown", type]).sorted().enumerated() {
                        batches[node].append(
                            #"{"id":"\#(install)-\#(node)-\#(number)","installId":"\#(install)","type":"\#(step)","feature":"microphone","experiment":"mic","variant":"\#(variant)","occurredAt":1795000000000}"#
                        )
                    }
                }
            }
            let statuses = Mutex<[Int]>([])
            let bodies = batches.map { #"{"events":[\#($0.joined(separator: ","))]}"# }
            DispatchQueue.concurrentPerform(iterations: nodes.count) { node in
                let status =
                    (try? TestTransport.live(port: nodes[node].port).exchange(
                        AdminRequest.bytes(
                            "POST", "/v1/apps/demo/events", token: nil, headers: [("Content-Type", "application/json")],
                            body: bodies[node])
                    ).status) ?? 0
                statuses.withLock { $0.append(status) }
            }
            #expect(statuses.withLock { $0 } == [202, 202, 202], "round \(round)")
        }
        #expect(installs > 100)
        let database = try Database(location: DatabaseLocation(fixture.database), readerCount: 1)
        defer { database.close() }
        let counts = try database.read {
            try $0.queryOne(
                """
                SELECT CAST(sum(exposed) AS BIGINT), CAST(sum(prime_shown) AS BIGINT),
                    CAST(sum(prime_continued) AS BIGINT), CAST(sum(system_granted) AS BIGINT)
                FROM experiment_funnel_counts WHERE experiment_key = 'mic'
                """)
        }
        let figures = try (0..<4).map { try counts?.get($0, as: Int64.self) ?? -1 }
        #expect(figures == Array(repeating: Int64(installs), count: 4), "\(figures) for \(installs) installs")
    }

    /// The race above made certain: one node's transaction counts an install's shown step and stays open until the
    /// other node's transaction for the same install waits on it; the second must then see the step as counted.
    @Test func aSecondNodeWaitsForTheFirstNodesStepsOfTheSameInstall() throws {
        let node = try startNodes(1)[0]
        defer { node.killHard() }
        let (first, second, observer) = try threeSessions()
        defer { for database in [first, second, observer] { database.close() } }
        @Sendable func shown(_ id: String) -> StoredEvent {
            StoredEvent(
                rowID: 0, appID: "demo", installID: "raced", clientEventID: id, type: .primeShown, feature: .microphone,
                experiment: "mic", variant: "a", occurredAt: 1_795_000_000_000, receivedAt: 1_795_000_000_000)
        }
        let waiting = DispatchSemaphore(value: 0)
        let secondDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? second.write { connection in
                waiting.wait()  // the first transaction has counted the step and is still open
                try ExperimentAggregator().record(batch: [shown("second")], on: connection)
            }
            secondDone.signal()
        }
        try first.write { connection in
            try ExperimentAggregator().record(batch: [shown("first")], on: connection)
            waiting.signal()
            // Until the second session waits on a lock this transaction holds (its advisory lock, or the row).
            try Self.waitForALockWait(observer)
        }
        #expect(secondDone.wait(timeout: .now() + 10) == .success)
        let counted = try observer.read {
            try $0.scalar(
                """
                SELECT CAST(sum(prime_shown) AS BIGINT) FROM experiment_funnel_counts
                WHERE experiment_key = 'mic' AND variant = 'a'
                """, as: Int64.self)
        }
        #expect(counted == 1, "the shown step of one install counted \(counted ?? -1) times")
    }

    /// Two nodes publishing a revision of one app at once: while the first's transaction holds the app's revision
    /// lock (it numbers its revision as the app's highest + 1 under it), the second must wait, then take the next
    /// number (without the lock it read the same highest and failed on the primary key: a 500 in the cluster drill).
    @Test func twoNodesPublishingAtOnceTakeTwoNumbers() throws {
        let node = try startNodes(1)[0]
        defer { node.killHard() }
        let (first, second, observer) = try threeSessions()
        defer { for database in [first, second, observer] { database.close() } }
        let repository = PolicyRepository(database: observer)
        let text = try #require(try repository.liveDocument(app: "demo", environment: "production"))
        let canonical = Array(text.utf8)
        let highest = try #require(
            try observer.read { db in
                try db.scalar("SELECT max(number) FROM policy_revisions WHERE app_id = 'demo'", as: Int64.self)
            })
        let started = DispatchSemaphore(value: 0)
        let secondDone = DispatchSemaphore(value: 0)
        let secondResult = Mutex<String>("")
        DispatchQueue.global().async {
            started.wait()
            let outcome = Result {
                try PolicyRepository(database: second).publish(
                    app: "demo", environment: "production", name: "Demo", canonical: canonical, author: "test",
                    action: "policy.replace", message: nil, detail: .null, at: 1_795_000_000_000)
            }
            secondResult.withLock { $0 = "\(outcome)" }
            secondDone.signal()
        }
        try first.write { db in
            try PolicyRepository.serializeRevisions(db, app: "demo")
            started.signal()
            try Self.waitForALockWait(observer)
        }
        #expect(secondDone.wait(timeout: .now() + 10) == .success)
        #expect(secondResult.withLock { $0 } == "success(\(highest + 1))")
    }

    /// A first deployment starts every node at once on an empty database: each migrates, seeds the demo and stores
    /// the bootstrap token "if missing", and none may fail on the others' inserts (one used to exit on a unique key).
    @Test func nodesStartedAtOnceOnAnEmptyDatabaseAllStart() throws {
        fixture.write("policy.json", AdminServer.policyText)
        final class Started: @unchecked Sendable {
            let lock = NSLock()
            var nodes: [ServerProcess] = []
            var failures: [String] = []
        }
        let started = Started()
        let database = fixture.database
        let policy = fixture.path("policy.json")
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            do {
                let node = try ServerProcess.start(
                    database: database, policy: policy, environment: Topology.environment)
                started.lock.withLock { started.nodes.append(node) }
            } catch {
                started.lock.withLock { started.failures.append("\(error)") }
            }
        }
        defer { for node in started.nodes { node.killHard() } }
        #expect(started.failures.isEmpty, "\(started.failures)")
        #expect(started.nodes.count == 3)
        for node in started.nodes {
            #expect(try Self.readiness(node)["status"] as? String == "ready")
            #expect(try Self.send(node, "GET", "/v1/admin/apps/demo/policy").status == 200)
        }
    }

    @Test func whenTheLeaderIsKilledAnotherNodeTakesOverAndAppliesTheScheduleOnce() throws {
        var nodes = try startNodes(2)
        defer { for node in nodes { node.killHard() } }
        #expect(try Self.readiness(nodes[0])["leader"] as? String == Self.everyRole)

        // An approved change request scheduled a few seconds ahead, then the leader dies before it is due.
        let requests = "/v1/admin/apps/demo/environments/production/change-requests"
        let proposed = try Self.send(
            nodes[0], "POST", requests, headers: [("Content-Type", "application/json")],
            body: #"{"patch": {"features": {"camera": {"copy": {"en": {"prime": {"title": "Scheduled."}}}}}}, "#
                + #""message": "retitle"}"#)
        #expect(proposed.status == 201, "\(proposed.body)")
        let id = try #require(proposed.object["id"] as? Int)
        let due = Date().addingTimeInterval(4)
        let at = AdminTime.iso8601(Int64(due.timeIntervalSince1970 * 1000))
        let scheduled = try Self.send(
            nodes[0], "POST", "\(requests)/\(id)/schedule", headers: [("Content-Type", "application/json")],
            body: #"{"at": "\#(at)"}"#)
        #expect(scheduled.status == 200, "\(scheduled.body)")
        let revisionsBefore =
            try Self.send(nodes[1], "GET", "/v1/admin/apps/demo/revisions").object["revisions"]
            as? [Any]

        nodes[0].killHard()
        let takeover = try Self.wait(atMost: 5, "the surviving node leading every kind of work") {
            try Self.readiness(nodes[1])["leader"] as? String == Self.everyRole
        }
        print("leader takeover after SIGKILL: \(String(format: "%.2f", takeover)) s")
        #expect(takeover < 3)

        // Due during or after the takeover: applied once, by the new leader's scheduler.
        _ = try Self.wait(atMost: 10, "the scheduled change applied") {
            try Self.send(nodes[1], "GET", "\(requests)/\(id)").object["state"] as? String == "applied"
        }
        #expect(Date() >= due)
        // A restarted first node (now a follower) does not apply it again.
        nodes[0] = try ServerProcess.start(
            database: fixture.database, policy: fixture.path("policy.json"), environment: Topology.environment)
        #expect(try Self.readiness(nodes[0])["leader"] as? String == "")
        usleep(1_500_000)
        let revisionsAfter =
            try Self.send(nodes[1], "GET", "/v1/admin/apps/demo/revisions").object["revisions"]
            as? [Any]
        #expect(revisionsAfter?.count == (revisionsBefore?.count ?? -10) + 1)
        let audit = try Self.send(nodes[0], "GET", "/v1/admin/audit?action=changeRequest.apply").object
        #expect((audit["entries"] as? [Any])?.count == 1, "\(audit)")
    }
}
