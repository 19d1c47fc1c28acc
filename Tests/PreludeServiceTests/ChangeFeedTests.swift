import Foundation
import PreludeCore
import PreludeStorage
import Synchronization
import Testing

@testable import PreludeService
@testable import PreludeStore

/// The primary's side of replication: the change feed (long poll with If-None-Match) and forwarded events.
@Suite struct ChangeFeedTests {
    @Test func feedCarriesEveryLiveRevisionAsStoredAndRoundTrips() throws {
        let server = try AdminServer()
        let response = try server.send("GET", "/v1/admin/changes")
        #expect(response.status == 200)
        #expect(response.headers["cache-control"] == "no-store")
        let etag = try #require(response.headers["etag"])
        #expect(etag.hasPrefix("\"f-"))
        let feed = try ChangeFeed(parsing: response.bytes)
        var stored = try server.service.database.read { try ChangeFeed.read($0) }
        // The document travels as JSON: the same value, serialized compactly (the seeded one is stored as written).
        for index in stored.apps.indices {
            for environment in stored.apps[index].environments.indices {
                let text = stored.apps[index].environments[environment].live?.document ?? "null"
                stored.apps[index].environments[environment].live?.document = try JSONValue(parsing: text).serialized()
            }
        }
        #expect(feed == stored)
        let demo = try #require(feed.apps.first)
        #expect(demo.id == "demo")
        #expect(demo.live?.number == 1)
        #expect(demo.live?.etag == server.service.policyStore.snapshot(app: "demo")?.etag.headerValue)
    }

    @Test func matchingTagIsHeldThen304AndAnythingElseAnswersAtOnce() throws {
        let server = try AdminServer()
        let etag = try #require(try server.send("GET", "/v1/admin/changes").headers["etag"])
        // wait=0 (the default) never holds: 304 at once for the current tag.
        let now = try server.send("GET", "/v1/admin/changes", headers: [("If-None-Match", etag)])
        #expect(now.status == 304)
        #expect(now.headers["etag"] == etag)
        #expect(now.bytes.isEmpty)
        // A held poll with nothing changing ends with 304 after its wait.
        let held = try server.send("GET", "/v1/admin/changes?wait=1", headers: [("If-None-Match", etag)])
        #expect(held.status == 304)
        // Another tag: the feed at once.
        let other = try server.send("GET", "/v1/admin/changes?wait=30", headers: [("If-None-Match", "\"f-old\"")])
        #expect(other.status == 200)
    }

    @Test func aHeldPollAnswersAsSoonAsARevisionGoesLive() throws {
        let server = try AdminServer()
        let etag = try #require(try server.send("GET", "/v1/admin/changes").headers["etag"])
        let answer = Mutex<TestTransport.Response?>(nil)
        let done = DispatchSemaphore(value: 0)
        let port = server.adminPort
        DispatchQueue.global().async {
            let response = try? TestTransport.live(port: port).exchange(
                AdminRequest.bytes(
                    "GET", "/v1/admin/changes?wait=30", token: AdminServer.secret,
                    headers: [("If-None-Match", etag)]))
            answer.withLock { $0 = response }
            done.signal()
        }
        // The poll is held until the commit below (a 304 would mean it was not).
        let patched = try server.send(
            "PATCH", "/v1/admin/apps/demo/features/camera",
            headers: [("If-Match", try server.etag()), ("Content-Type", "application/merge-patch+json")],
            body: #"{"copy": {"en": {"prime": {"title": "Held poll wakes."}}}}"#)
        #expect(patched.status == 200)
        #expect(done.wait(timeout: .now() + 20) == .success)
        let response = try #require(answer.withLock { $0 })
        #expect(response.status == 200)
        #expect(response.headers["etag"] != etag)
        #expect(response.body.contains("Held poll wakes."))
        #expect(try ChangeFeed(parsing: response.bytes).apps.first?.live?.number == 2)
    }

    @Test func feedNeedsATokenAndABoundedWait() throws {
        let server = try AdminServer()
        #expect(try server.send("GET", "/v1/admin/changes", token: nil).status == 401)
        let tooLong = try server.send("GET", "/v1/admin/changes?wait=31")
        #expect(tooLong.status == 400)
        #expect(tooLong.body.contains("wait"))
        #expect(try server.send("GET", "/v1/admin/changes?since=3").status == 400)
    }

    @Test func forwardedEventsAreStoredOnceHoweverOftenTheyAreSent() throws {
        let server = try AdminServer { $0.eventsPerInstallBurst = 500 }
        let body =
            #"{"events":[{"id":"f-1","installId":"i-1","type":"primeShown","feature":"camera","occurredAt":1795000000000}]}"#
        #expect(try server.send("POST", "/v1/admin/apps/demo/events", token: nil, body: body).status == 401)
        let first = try server.send("POST", "/v1/admin/apps/demo/events", body: body)
        #expect(first.status == 202)
        #expect(first.body == #"{"accepted":1,"duplicates":0}"#)
        let again = try server.send("POST", "/v1/admin/apps/demo/events", body: body)
        #expect(again.body == #"{"accepted":0,"duplicates":1}"#)
        #expect(try server.send("POST", "/v1/admin/apps/nope/events", body: body).status == 404)
        #expect(try server.send("POST", "/v1/admin/apps/demo/events", body: #"{"events":[]}"#).status == 422)
        let count = try server.service.database.read { try $0.scalar("SELECT count(*) FROM events", as: Int64.self) }
        #expect(count == 1)
    }

    /// Forwarding skips the budgets and the experiment check, so it takes a `replica` (or `write`) token: a `read`
    /// token follows the feed but cannot add events (migration 0008 admits the scope in the tokens table).
    @Test func forwardingNeedsTheReplicaScopeAndTheFeedOnlyRead() throws {
        let server = try AdminServer()
        let tokens = TokenStore(database: server.service.database)
        let (_, read) = try tokens.create(name: "dashboard", scope: .read, actor: "test", now: 0)
        let (_, replica) = try tokens.create(name: "replica-1", scope: .replica, actor: "test", now: 0)
        let body =
            #"{"events":[{"id":"s-1","installId":"i-1","type":"primeShown","feature":"camera","occurredAt":1795000000000}]}"#
        let refused = try server.send("POST", "/v1/admin/apps/demo/events", token: read, body: body)
        #expect(refused.status == 403)
        #expect(try server.send("GET", "/v1/admin/changes", token: read).status == 200)
        #expect(try server.send("GET", "/v1/admin/changes", token: replica).status == 200)
        #expect(try server.send("POST", "/v1/admin/apps/demo/events", token: replica, body: body).status == 202)
        // A replica token is not a write token.
        #expect(try server.send("DELETE", "/v1/admin/apps/demo", token: replica).status == 403)
        let count = try server.service.database.read { try $0.scalar("SELECT count(*) FROM events", as: Int64.self) }
        #expect(count == 1)
        #expect(TokenScope.read < .replica && TokenScope.replica < .write)
        #expect(TokenScope.replica.allows(.read) && !TokenScope.replica.allows(.write))
    }

    @Test func forwardingIsNotThrottledByTheIngestionBudget() throws {
        // One install may send one batch at once; the replica forwards many installs' batches as one source.
        let server = try AdminServer {
            $0.eventsPerInstallPerSecond = 0.001
            $0.eventsPerInstallBurst = 500
            $0.eventsPerAddressPerSecond = 0.001
            $0.eventsPerAddressBurst = 500
        }
        for batch in 0..<4 {
            let events = (0..<500).map {
                #"{"id":"b\#(batch)-\#($0)","installId":"one","type":"primeShown","feature":"camera","occurredAt":1795000000000}"#
            }
            let response = try server.send(
                "POST", "/v1/admin/apps/demo/events", body: #"{"events":[\#(events.joined(separator: ","))]}"#)
            #expect(response.status == 202, "batch \(batch): \(response.body)")
        }
    }

    @Test func followSettingsComeFromFlagAndEnvironmentAndNeedAToken() throws {
        let token = "replica-token-0123456789abcdefghijklmnopqrstuvwxyz"
        let configuration = try ServiceConfiguration.resolve(
            fileText: nil,
            environment: ["PRELUDE_FOLLOW_URL": "http://primary.internal:8081/base/", "PRELUDE_FOLLOW_TOKEN": token],
            flags: [:])
        #expect(configuration.followURL == FollowURL(host: "primary.internal", port: 8081, prefix: "/base"))
        #expect(configuration.followToken?.value == token)
        let flag = try ServiceConfiguration.resolve(
            fileText: nil, environment: ["PRELUDE_FOLLOW_TOKEN": token], flags: [.followURL: "http://[::1]:9000"])
        #expect(flag.followURL?.description == "http://[::1]:9000")
        let missing = #expect(throws: ConfigurationError.self) {
            try ServiceConfiguration.resolve(fileText: nil, environment: ["PRELUDE_FOLLOW_URL": "http://p"], flags: [:])
        }
        #expect(missing?.setting == "PRELUDE_FOLLOW_TOKEN")
        // https (issue 25): port 443 unless named, certificates checked against tlsCAFile or the system's bundle.
        let https = try ServiceConfiguration.resolve(
            fileText: nil, environment: ["PRELUDE_FOLLOW_TOKEN": token, "PRELUDE_TLS_CA_FILE": "/etc/prelude/ca.pem"],
            flags: [.followURL: "https://p/base"])
        #expect(https.followURL == FollowURL(isSecure: true, host: "p", port: 443, prefix: "/base"))
        #expect(https.followURL?.description == "https://p:443/base")
        #expect(https.tlsCAFile == "/etc/prelude/ca.pem")
        for bad in [
            "ftp://x", "http://", "https://", "http://host:0", "http://host:99999", "http://u@host", "http://h/p?q=1",
            "https://h:0", "http://h/a b",
        ] {
            #expect(throws: ConfigurationError.self, "\(bad)") {
                try ServiceConfiguration.resolve(
                    fileText: nil, environment: ["PRELUDE_FOLLOW_TOKEN": token], flags: [.followURL: bad])
            }
        }
    }

    /// The change feed's body from a primary whose app `tiny` is `StartupRulesVersionTests.lacksTexts` stamped with
    /// this build's rules, beside the seeded demo (unstamped).
    private static func feedOfAStampedPrimary() throws -> JSONValue {
        let fixture = PublicFixture()
        let primary = try fixture.makeDatabase()
        defer { primary.close() }
        try StartupRulesVersionTests.insert(
            primary, text: StartupRulesVersionTests.lacksTexts, rulesVersion: PolicyValidator.rulesVersion)
        return try primary.read { try ChangeFeed.read($0) }.jsonValue()
    }

    /// A replica's database (in `fixture`) after it parsed and applied the feed `body`.
    private static func replica(applying body: JSONValue, in fixture: PublicFixture) throws -> Database {
        let replica = try fixture.makeDatabase()
        try ReplicaMirror.apply(
            try ChangeFeed(parsing: Array(body.serialized().utf8)), replica, primary: "p", etag: "\"f-1\"", now: 1)
        return replica
    }

    /// A revision the primary's rules accepted travels with its stamp, and the replica stores it: a replica of a
    /// build with the same rules reads it at start-up without validating it, as the primary does (validating
    /// `lacksTexts` would find two problems). An unstamped revision travels without the member.
    @Test func theStampTravelsSoAReplicaStartsWithoutValidatingAgain() throws {
        let body = try Self.feedOfAStampedPrimary()
        let tiny = try #require(body["apps"]?.arrayValue?.first { $0["id"]?.stringValue == "tiny" })
        #expect(tiny["live"]?["rulesVersion"]?.intValue == PolicyValidator.rulesVersion)
        let demo = try #require(body["apps"]?.arrayValue?.first { $0["id"]?.stringValue == "demo" })
        #expect(demo["live"]?.objectValue?["rulesVersion"] == nil)  // the seeded demo is unstamped: no member

        let replicaFixture = PublicFixture()
        let replica = try Self.replica(applying: body, in: replicaFixture)
        defer { replica.close() }
        let stamps = try ["tiny", "demo"].map { try StartupRulesVersionTests.storedRulesVersions(replica, app: $0) }
        #expect(stamps == [[PolicyValidator.rulesVersion], [nil]])

        let served = try #require(try StartupRulesVersionTests.started(replica).snapshot(app: "tiny"))
        #expect(served.storedFindings.isEmpty && served.fallbacks.isEmpty)
        #expect(served.canonicalBytes == Array(StartupRulesVersionTests.lacksTexts.utf8))
        #expect(served.etag.headerValue == tiny["live"]?["etag"]?.stringValue)
    }

    /// A replica whose primary sent no stamp (a build before the member, or an unstamped row) validates the copy.
    @Test func aCopyWithoutAStampIsValidatedAtStartUp() throws {
        var feed = try ChangeFeed(parsing: Array(try Self.feedOfAStampedPrimary().serialized().utf8))
        for index in feed.apps.indices { feed.apps[index].environments[0].live?.rulesVersion = nil }
        let replicaFixture = PublicFixture()
        let replica = try Self.replica(applying: try feed.jsonValue(), in: replicaFixture)
        defer { replica.close() }
        #expect(try StartupRulesVersionTests.storedRulesVersions(replica, app: "tiny") == [nil])
        let served = try #require(try StartupRulesVersionTests.started(replica).snapshot(app: "tiny"))
        #expect(served.storedFindings.map(\.code) == [.missingCopy, .missingCopy])
    }
}
