import Foundation
import Testing

@testable import PreludeService

/// The drain period between SIGTERM and the listener closing (docs/kubernetes.md, "Rolling updates").
@Suite struct DrainTests {
    let fixture = ServiceFixture()

    @Test func readinessFailsWhileRequestsAreStillServedThenTheProcessExitsCleanly() throws {
        let server = try ServerProcess.start(
            database: fixture.path("drain.sqlite"), policy: ServiceFixture.repositoryRoot + "/config/demo-policy.json",
            environment: ["PRELUDE_DRAIN_SECONDS": "2"])
        defer { server.killHard() }
        #expect(try TestTransport.live(port: server.port).get("/readyz").status == 200)
        kill(server.process.processIdentifier, SIGTERM)
        // Poll until readiness turns; the drain lasts 2 s, so the listener is still open when it does.
        var readiness = 200
        let deadline = Date().addingTimeInterval(2)
        while readiness == 200, Date() < deadline {
            readiness = try TestTransport.live(port: server.port).get("/readyz").status
        }
        #expect(readiness == 503)
        // Still serving: liveness and the public API answer during the drain.
        #expect(try TestTransport.live(port: server.port).get("/healthz").status == 200)
        #expect(try TestTransport.live(port: server.port).get("/v1/apps/demo/policy/document").status == 200)
        server.process.waitUntilExit()
        #expect(server.process.terminationReason == .exit)
        #expect(server.process.terminationStatus == 0)
    }

    @Test func drainSecondsComesFromEveryConfigurationSource() throws {
        #expect(try ServiceConfiguration.resolve(fileText: nil, environment: [:], flags: [:]).drainSeconds == 5)
        let file = try ServiceConfiguration.resolve(fileText: #"{"drainSeconds": 0}"#, environment: [:], flags: [:])
        #expect(file.drainSeconds == 0)
        let environment = try ServiceConfiguration.resolve(
            fileText: nil, environment: ["PRELUDE_DRAIN_SECONDS": "1.5"], flags: [:])
        #expect(environment.drainSeconds == 1.5)
        let error = #expect(throws: ConfigurationError.self) {
            try ServiceConfiguration.resolve(fileText: nil, environment: [:], flags: [.drainSeconds: "-1"])
        }
        #expect(error?.setting == "--drain-seconds")
    }
}
