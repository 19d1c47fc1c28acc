import Foundation
import PreludeTestSupport
import Synchronization
import Testing

@testable import PreludeService

/// PostgreSQL going away under a running Prelude and coming back (docs/storage.md, "PostgreSQL"): the policy is
/// served from memory throughout, writes and events fail with 503 problem+json while the server is gone, never a
/// crash or a hang, and resume by themselves. Each test runs its own cluster, so it can crash it.
@Suite(.enabled(if: TestDatabase.isPostgres, "needs PostgreSQL 15 (the suite's PostgreSQL lane)"))
struct PostgresOutageTests {
    static let script = ServiceFixture.repositoryRoot + "/scripts/postgres/throwaway.sh"

    @Test func aRestartedDatabaseCostsOnlyTheWritesDuringTheGap() throws {
        let fixture = ServiceFixture()
        let cluster = fixture.path("cluster")
        try Self.run([Self.script, "start", cluster])
        defer { try? Self.run([Self.script, "stop", cluster]) }
        let port = try String(contentsOfFile: cluster + "/port", encoding: .utf8)
        let url = "postgres://prelude@127.0.0.1:\(port.trimmingCharacters(in: .whitespacesAndNewlines))/prelude"
        fixture.write("policy.json", AdminServer.policyText)
        let server = try ServerProcess.start(
            database: url, policy: fixture.path("policy.json"),
            environment: ["PRELUDE_ADMIN_TOKEN": AdminServer.secret])
        defer { server.killHard() }
        let client = TestTransport.live(port: server.port)
        #expect(try Self.write(client, title: "Before").status == 200)
        let metricsBefore = try client.get("/metrics").body
        #expect(metricsBefore.contains("prelude_db_reconnects_total 0"))
        #expect(Self.sample("prelude_db_round_trip_seconds", in: metricsBefore).map { $0 >= 0 && $0 < 5 } == true)

        try Self.run([Self.script, "crash", cluster])
        let served = try client.get("/v1/apps/demo/policy")
        #expect(served.status == 200, "the policy is served from memory while the database is gone")
        let refused = try Self.write(client, title: "During")
        #expect(refused.status == 503, "\(refused.body)")
        #expect(refused.headers["content-type"] == "application/problem+json")
        #expect(refused.headers["retry-after"] != nil)
        let events = try Self.postEvents(client, prefix: "gap")
        #expect(events.status == 503, "\(events.body)")
        #expect(try client.get("/metrics").body.contains("prelude_db_round_trip_seconds NaN"))

        try Self.run([Self.script, "resume", cluster])
        // Writes come back by themselves: the sessions reconnect at their next statement.
        var resumed = 0
        for attempt in 0..<100 {
            resumed = try Self.write(client, title: "After \(attempt)").status
            if resumed == 200 { break }
            usleep(100_000)
        }
        #expect(resumed == 200)
        #expect(try Self.postEvents(client, prefix: "back").status == 202)
        #expect(try client.get("/v1/apps/demo/policy/document").body.contains(#""name":"After"#))
        #expect(server.process.isRunning)
        let reconnects = Self.sample("prelude_db_reconnects_total", in: try client.get("/metrics").body) ?? 0
        #expect(reconnects >= 1, "the sessions the restart dropped were opened again")
    }

    /// The value of an unlabelled sample in a metrics exposition.
    static func sample(_ name: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
    }

    private static func write(_ client: TestTransport, title: String) throws -> TestTransport.Response {
        try client.exchange(
            AdminRequest.bytes(
                "PUT", "/v1/admin/apps/demo/policy", token: AdminServer.secret, headers: [("If-Match", "*")],
                body: AdminServer.policyText.replacingOccurrences(
                    of: #""name": "Demo""#, with: #""name": "\#(title)""#)))
    }

    private static func postEvents(_ client: TestTransport, prefix: String) throws -> TestTransport.Response {
        let events = (0..<5).map {
            #"{"id":"\#(prefix)-\#($0)","installId":"install-\#($0)","type":"primeShown","feature":"camera","occurredAt":1795350000000}"#
        }
        return try client.exchange(
            AdminRequest.bytes(
                "POST", "/v1/apps/demo/events", token: nil, headers: [("Content-Type", "application/json")],
                body: #"{"events":[\#(events.joined(separator: ","))]}"#))
    }

    /// Runs the cluster script. Its output goes nowhere: the server it starts keeps every descriptor it inherited,
    /// so a pipe would never reach its end while the cluster runs.
    static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["bash"] + arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestTransport.Failure.malformed("\(arguments.joined(separator: " ")) failed")
        }
    }
}
