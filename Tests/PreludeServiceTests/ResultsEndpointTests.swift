import Foundation
import PreludeCore
import PreludeHTTP
import PreludeStorage
import PreludeStore
import PreludeStoreTestSupport
import PreludeTestSupport
import Testing

@testable import PreludeService

/// The admin endpoint on the running service, over real sockets, behind the admin tokens.
@Suite struct ResultsEndpointTests {
    static let secret = "results-test-bootstrap-secret-0123456789abcdefghijklmnop"
    static let path = "/v1/admin/apps/demo/experiments/camera-prime-copy/results"

    final class Service {
        let fixture = PublicFixture()
        let service: PreludeService
        var client: PublicClient { PublicClient(port: service.port) }

        init() throws {
            service = try fixture.startService { $0.adminToken = RedactedSecret(ResultsEndpointTests.secret) }
        }
        deinit { service.stop() }

        func get(_ target: String, token: String? = ResultsEndpointTests.secret) throws -> PublicClient.Response {
            try client.get(target, headers: token.map { [("Authorization", "Bearer \($0)")] } ?? [])
        }

        func reader() -> ExperimentResultsReader {
            let store = service.policyStore
            return ExperimentResultsReader(database: service.database) { app, _ in
                store.snapshot(app: app).map { ($0.document, $0.revision) }
            }
        }
    }

    @Test func answersTheReportAsJSON() throws {
        let service = try Service()
        try ResultsFixture.ingest(
            TestEvent.arm("control", exposed: 600, granted: 240)
                + TestEvent.arm("short-copy", exposed: 400, granted: 160), into: service.service.database)
        let response = try service.get(Self.path)
        #expect(response.status == 200)
        #expect(response["Content-Type"]?.hasPrefix("application/json") == true)
        #expect(response["Cache-Control"] == "no-store")
        let json = try JSONParser().parse(response.text)
        #expect(json == (try service.reader().results(appID: "demo", experiment: "camera-prime-copy")).encodeJSON())
        #expect(json["app"] == "demo")
        #expect(json["trustworthy"] == false)
        #expect(json["sampleRatio"]?["mismatch"] == true)
        #expect(json["configuration"]?["source"] == "live")
        #expect(json["configuration"]?["revision"] == 1)
        #expect(json["variants"]?[1]?["funnel"]?["exposed"] == 400)

        let sized = try JSONParser().parse(try service.get(Self.path + "?minimumEffect=0.05").text)
        #expect(sized["minimumEffect"] == .double(0.05))
        #expect(sized["requiredInstallsPerArm"] == 1534)
        #expect(try service.get(Self.path + "?pretty").text.contains("\n  \"experimentKey\""))
    }

    @Test func needsAnAdminTokenAndReadScopeIsEnough() throws {
        let service = try Service()
        let missing = try service.get(Self.path, token: nil)
        #expect(missing.status == 401)
        #expect(missing["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
        #expect(try service.get(Self.path, token: "wrong-" + Self.secret).status == 401)
        let (_, readSecret) = try TokenStore(database: service.service.database).create(
            name: "reader", scope: .read, actor: "test", now: 0)
        #expect(try service.get(Self.path, token: readSecret).status == 200)
    }

    @Test(arguments: [
        ("/v1/admin/apps/demo/experiments/nope/results", 404, "no experiment"),
        ("/v1/admin/apps/nope/experiments/camera-prime-copy/results", 404, "no app"),
        (path + "?minimumEffect=abc", 400, "minimumEffect"),
        (path + "?minimumEffect=0", 400, "minimumEffect"),
        // Vanishing effects once trapped (a planned sample beyond Int, a mixing variance of 0): found by schemathesis.
        (path + "?minimumEffect=1.1125369292536007e-308", 400, "minimumEffect"),
        (path + "?minimumEffect=1e-10", 400, "minimumEffect"),
        (path + "?minimumEffect=0.00009", 400, "minimumEffect"),
        (path + "?minimumEffect=-1e-308", 400, "minimumEffect"),
        (path + "?minimumEffect=1e300", 400, "minimumEffect"),
        (path + "?control=zzz", 400, "control"),
    ])
    func badRequestsAreProblems(target: String, status: Int, detail: String) throws {
        let service = try Service()
        let response = try service.get(target)
        #expect(response.status == status)
        #expect(response["Content-Type"] == "application/problem+json")
        let problem = try JSONParser().parse(response.text)
        #expect(problem["status"] == .integer(status))
        #expect(problem["detail"]?.stringValue?.contains(detail) == true, "\(response.text)")
    }

    /// The whole path: events POSTed to the running service (with every batch retried), aggregated by the observer
    /// the service installs, read back from the admin endpoint.
    @Test func eventsPostedOverHTTPReachTheResults() throws {
        let service = try Service()
        // The service checks each label against the install's assignment (docs/results.md, "Mislabelled events"):
        // each simulated install gets an install id that the demo experiment really assigns to its variant.
        var nextCandidate = 0
        var installIDs: [String: String] = [:]
        let events =
            (TestEvent.arm("control", exposed: 300, granted: 120)
            + TestEvent.arm("short-copy", exposed: 200, granted: 100)).map { event in
                var event = event
                if let known = installIDs[event.install] {
                    event.install = known
                } else {
                    while ResultsFixture.assignedVariant("i-\(nextCandidate)") != event.variant { nextCandidate += 1 }
                    installIDs[event.install] = "i-\(nextCandidate)"
                    event.install = "i-\(nextCandidate)"
                    nextCandidate += 1
                }
                return event
            }
        var accepted = 0
        for start in stride(from: 0, to: events.count, by: 400) {
            let body = EventsTests.batch(
                events[start..<min(start + 400, events.count)].map { event in
                    EventsTests.event(
                        event.id, install: event.install, type: event.type,
                        extra: #","experiment":"camera-prime-copy","variant":"\#(event.variant!)""#)
                })
            let response = try service.client.post("/v1/apps/demo/events", json: body)
            #expect(response.status == 202, "\(response.text)")
            accepted += try response.json()["accepted"] as? Int ?? -1
            // The client retries the batch (a lost 202): all duplicates, nothing counted twice.
            let retry = try service.client.post("/v1/apps/demo/events", json: body)
            #expect(try retry.json()["duplicates"] as? Int == min(400, events.count - start))
        }
        #expect(accepted == events.count)
        let json = try JSONParser().parse(try service.get(Self.path).text)
        #expect(json["variants"]?[0]?["funnel"]?["exposed"] == 300)
        #expect(json["variants"]?[0]?["funnel"]?["granted"] == 120)
        #expect(json["variants"]?[1]?["funnel"]?["exposed"] == 200)
        #expect(json["variants"]?[1]?["funnel"]?["granted"] == 100)
        #expect(json["sampleRatio"]?["mismatch"] == true)  // 300/200 on 50/50: chi-square 20, p ≈ 7.7e-6
        #expect(json["mislabelled"]?["events"] == 0)
    }
}
