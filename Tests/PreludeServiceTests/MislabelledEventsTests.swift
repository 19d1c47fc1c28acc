import Foundation
import PreludeCore
import PreludeStore
import PreludeStoreTestSupport
import PreludeTestSupport
import Testing

@testable import PreludeService

/// Issue 17 through the running service (the check and the counts: PreludeStoreTests/MislabelledEventsTests).
@Suite("Mislabelled events, served")
struct MislabelledEventsServiceTests {
    /// Through the running service: the events endpoint's aggregator checks against the live policy.
    @Test func theServiceChecksLabelsAgainstItsLivePolicy() throws {
        let server = try AdminServer(demoPolicyPath: ResultsFixture.repositoryRoot + "/config/demo-policy.json")
        let install = "8C1F0A2E"
        let wrong = ResultsFixture.otherVariant(ResultsFixture.assignedVariant(install))
        let body = """
            {"events": [{"id": "e-1", "installId": "\(install)", "type": "primeShown", "feature": "camera",
              "experiment": "\(ResultsFixture.experiment)", "variant": "\(wrong)", "occurredAt": "2026-11-22T12:30:00Z"}]}
            """
        let posted = try server.send("POST", "/v1/apps/demo/events", token: nil, body: body, port: server.service.port)
        #expect(posted.status == 202, "\(posted.body)")
        let results = try server.send("GET", "/v1/admin/apps/demo/experiments/\(ResultsFixture.experiment)/results")
        #expect(results.status == 200, "\(results.body)")
        let mislabelled = try #require(results.object["mislabelled"] as? [String: Any])
        #expect(mislabelled["events"] as? Int == 1)
    }
}
