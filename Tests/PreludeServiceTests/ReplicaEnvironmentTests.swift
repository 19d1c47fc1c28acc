import Foundation
import PreludeStorage
import PreludeTestSupport
import Testing

@testable import PreludeService

/// A read replica follows every environment of every app, over HTTPS (docs/scaling.md, "Environments" and "Over
/// HTTPS"): real processes — a primary, nginx terminating TLS in front of it with a certificate from a CA made for
/// this run, and replicas of the built binary following `https://localhost:…`.
@Suite(
    .serialized,
    .enabled(
        if: NginxTLSFront.installed,
        "nginx or openssl is missing and `apt-get install nginx` failed; the test needs a real TLS endpoint"))
struct ReplicaEnvironmentTests {
    let fixture = ServiceFixture()
    static let staging = "/v1/admin/apps/demo/environments/staging"

    /// Staging and production each reach the replica with their own live revision, bytes and tags (identity and
    /// gzip, document and resolved policy); a staging rollback, a settings change and new environments (empty, and
    /// copied) on the primary appear on the replica; events posted to the replica are stored on the primary under
    /// the environment their client asked. A replica that does not trust the CA never syncs.
    @Test func replicaOverHTTPSFollowsEveryEnvironment() throws {
        fixture.write("policy.json", AdminServer.policyText)
        let primaryDatabase = fixture.path("primary.sqlite")
        let primary = try ServerProcess.start(
            database: primaryDatabase, policy: fixture.path("policy.json"), environment: Topology.environment)
        defer { primary.killHard() }
        let proxy = try NginxTLSFront(.proxy(upstream: primary.port), authority: "Prelude replica test CA")
        defer { proxy.stop() }
        let admin = { (method: String, path: String, headers: [(String, String)], body: String?) in
            try TestTransport.live(port: primary.port).exchange(
                AdminRequest.bytes(method, path, token: AdminServer.secret, headers: headers, body: body))
        }

        // Staging: a copy of production, then a camera title of its own.
        let created = try admin(
            "POST", "/v1/admin/apps/demo/environments", [], #"{"name": "staging", "copyFrom": "production"}"#)
        #expect(created.status == 201, "\(created.body)")
        let copiedRevision = try #require(created.object["liveRevision"] as? Int)
        let patched = try admin(
            "PATCH", Self.staging + "/features/camera",
            [
                ("If-Match", try Self.etag(Self.staging + "/policy", port: primary.port)),
                ("Content-Type", "application/merge-patch+json"),
            ],
            #"{"copy": {"en": {"prime": {"title": "Scan in staging"}}}}"#)
        #expect(patched.status == 200, "\(patched.body)")

        let replicaEnvironment = Topology.environment.merging([
            "PRELUDE_FOLLOW_TOKEN": AdminServer.secret, "PRELUDE_TLS_CA_FILE": proxy.caFile,
        ]) { $1 }
        let replica = try ServerProcess.start(
            database: fixture.path("replica.sqlite"), policy: "", environment: replicaEnvironment,
            arguments: ["--follow", proxy.url])
        defer { replica.killHard() }
        // The same settings without the run's CA: certificates are verified by default.
        let untrusting = try ServerProcess.start(
            database: fixture.path("untrusting.sqlite"), policy: "",
            environment: Topology.environment.merging(["PRELUDE_FOLLOW_TOKEN": AdminServer.secret]) { $1 },
            arguments: ["--follow", proxy.url])
        defer { untrusting.killHard() }

        let production = "/v1/apps/demo/policy/document"
        let stagingDocument = "/v1/apps/demo/environments/staging/policy/document"
        try Self.waitUntilReplica(replica, servesAs: primary, [production, stagingDocument])
        let paths = [
            production, "/v1/apps/demo/environments/production/policy/document", stagingDocument,
            "/v1/apps/demo/policy?platform=ios&os=17.2&locale=en&installId=abc",
            "/v1/apps/demo/environments/staging/policy?platform=ios&os=17.2&locale=en&installId=abc",
        ]
        try Self.expectSameRepresentations(paths, replica: replica.port, primary: primary.port)
        let stagingServed = try Topology.get(stagingDocument, port: replica.port, gzip: false)
        let productionServed = try Topology.get(production, port: replica.port, gzip: false)
        #expect(stagingServed.body.contains("Scan in staging"))
        #expect(!productionServed.body.contains("Scan in staging"))
        #expect(stagingServed.headers["etag"] != productionServed.headers["etag"])

        // Not trusting the CA: no sync, not ready, nothing served.
        try Self.waitUntil("the untrusting replica counts a failed sync") {
            try Topology.metric("prelude_replica_sync_failures_total", port: untrusting.port) >= 1
        }
        #expect(try TestTransport.live(port: untrusting.port).get("/readyz").status == 503)
        #expect(try Topology.get(stagingDocument, port: untrusting.port, gzip: false).status == 404)
        #expect(try Topology.metric("prelude_replica_syncs_total", port: untrusting.port) == 0)

        // A staging rollback to the copied revision: the replica's staging follows, production does not move.
        let rolledBack = try admin(
            "POST", Self.staging + "/revisions/\(copiedRevision)/rollback",
            [("If-Match", try Self.etag(Self.staging + "/policy", port: primary.port))], nil)
        #expect(rolledBack.status == 200, "\(rolledBack.body)")
        try Self.waitUntilReplica(replica, servesAs: primary, [stagingDocument])
        try Self.expectSameRepresentations(paths, replica: replica.port, primary: primary.port)
        #expect(try Topology.get(production, port: replica.port, gzip: false).bytes == productionServed.bytes)
        #expect(!(try Topology.get(stagingDocument, port: replica.port, gzip: false).body.contains("Scan in staging")))

        // A settings change, an empty environment and a copy of staging: the replica lists what the primary lists.
        let settings = try admin(
            "PATCH", Self.staging, [("Content-Type", "application/merge-patch+json")],
            #"{"requiredApprovals": 2, "lintStrict": true}"#)
        #expect(settings.status == 200, "\(settings.body)")
        // A settings change alone (no revision goes live) reaches the replica too, without waiting out a held poll.
        try Self.waitUntil("the replica has staging's new settings") {
            try Self.environments(port: replica.port) == Self.environments(port: primary.port)
        }
        #expect(
            try admin("POST", "/v1/admin/apps/demo/environments", [], #"{"name": "development"}"#).status == 201)
        #expect(
            try admin("POST", "/v1/admin/apps/demo/environments", [], #"{"name": "qa", "copyFrom": "staging"}"#)
                .status == 201)
        let primaryList = try Self.environments(port: primary.port)
        #expect(primaryList.map(\.name) == ["development", "production", "qa", "staging"])
        try Self.waitUntil("the replica lists the primary's environments and settings") {
            try Self.environments(port: replica.port) == primaryList
        }
        let qaDocument = "/v1/apps/demo/environments/qa/policy/document"
        try Self.waitUntilReplica(replica, servesAs: primary, [qaDocument])
        try Self.expectSameRepresentations(
            paths + [qaDocument, "/v1/apps/demo/environments/development/policy/document"], replica: replica.port,
            primary: primary.port)

        // Events through the replica, each environment's to its own route: stored on the primary under it.
        let batches = [
            ("/v1/apps/demo/environments/staging/events", "staging", "s"),
            ("/v1/apps/demo/events", "production", "p"), ("/v1/apps/demo/environments/qa/events", "qa", "q"),
        ]
        var sent: Set<String> = []
        for (path, environment, prefix) in batches {
            let ids = (0..<5).map { "\(prefix)-\($0)" }
            let events = ids.map {
                #"{"id":"\#($0)","installId":"install-1","type":"primeShown","feature":"camera","occurredAt":\#(Self.nowMs)}"#
            }
            let response = try TestTransport.live(port: replica.port).exchange(
                AdminRequest.bytes(
                    "POST", path, token: nil, body: #"{"events":[\#(events.joined(separator: ","))]}"#))
            #expect(response.status == 202, "\(path): \(response.body)")
            sent.formUnion(ids.map { "\(environment)/\($0)" })
        }
        try Self.waitUntil("the replica's outbox drains") {
            try Topology.metric("prelude_replica_outbox_events", port: replica.port) == 0
        }
        primary.killHard()
        let database = try Database(path: primaryDatabase, readerCount: 1)
        defer { database.close() }
        let stored = try database.read { db in
            try db.query("SELECT environment, client_event_id FROM events").map {
                "\(try $0.get("environment", as: String.self))/\(try $0.get("client_event_id", as: String.self))"
            }
        }
        #expect(Set(stored) == sent)
        #expect(stored.count == sent.count)
    }

    /// An environment of `GET /v1/admin/apps/demo/environments` as a replica must mirror it.
    struct Listed: Equatable {
        var name: String
        var liveRevision: Int?
        var etag: String?
        var status: String?
        var requiredApprovals: Int?
        var allowSelfApproval: Bool?
        var lintStrict: Bool?
        var createdAt: String?
        var updatedAt: String?
    }

    static func environments(port: Int) throws -> [Listed] {
        let response = try TestTransport.live(port: port).exchange(
            AdminRequest.bytes("GET", "/v1/admin/apps/demo/environments", token: AdminServer.secret))
        guard response.status == 200 else { return [] }
        return (response.object["environments"] as? [[String: Any]] ?? []).map {
            Listed(
                name: $0["name"] as? String ?? "", liveRevision: $0["liveRevision"] as? Int,
                etag: $0["etag"] as? String, status: $0["status"] as? String,
                requiredApprovals: $0["requiredApprovals"] as? Int, allowSelfApproval: $0["allowSelfApproval"] as? Bool,
                lintStrict: $0["lintStrict"] as? Bool, createdAt: $0["createdAt"] as? String,
                updatedAt: $0["updatedAt"] as? String)
        }.sorted { $0.name < $1.name }
    }

    static var nowMs: Int { Int(Date().timeIntervalSince1970 * 1000) }

    /// The `ETag` of an admin resource on `port`.
    static func etag(_ path: String, port: Int) throws -> String {
        try #require(
            try TestTransport.live(port: port).exchange(AdminRequest.bytes("GET", path, token: AdminServer.secret))
                .headers["etag"])
    }

    /// Waits (at most 10 s, polling) until the replica serves each path under the primary's current tag.
    static func waitUntilReplica(_ replica: ServerProcess, servesAs primary: ServerProcess, _ paths: [String]) throws {
        for path in paths {
            let wanted = try #require(try Topology.get(path, port: primary.port, gzip: false).headers["etag"])
            try waitUntil("the replica serves \(path) as \(wanted)") {
                try Topology.get(path, port: replica.port, gzip: false).headers["etag"] == wanted
            }
        }
    }

    /// The replica answers each path with the primary's status, bytes and tag, identity and gzip.
    static func expectSameRepresentations(_ paths: [String], replica: Int, primary: Int) throws {
        for path in paths {
            for gzip in [false, true] {
                let expected = try Topology.get(path, port: primary, gzip: gzip)
                let served = try Topology.get(path, port: replica, gzip: gzip)
                #expect(served.status == expected.status, "\(path) gzip=\(gzip)")
                #expect(served.bytes == expected.bytes, "\(path) gzip=\(gzip): bodies differ")
                #expect(served.headers["etag"] == expected.headers["etag"], "\(path) gzip=\(gzip)")
                #expect(served.headers["content-type"] == expected.headers["content-type"], "\(path) gzip=\(gzip)")
            }
        }
    }

    /// Polls `condition` until it holds, at most 10 s (a bound on a hang, not a timing assertion).
    static func waitUntil(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(10)
        while try !condition() {
            guard Date() < deadline else { throw TestTransport.Failure.malformed("not within 10 s: \(what)") }
            usleep(10_000)
        }
    }
}
