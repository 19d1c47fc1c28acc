import Foundation
import PreludeClient
import PreludeCore
import Testing

@testable import PreludeService

/// A client pointed at an environment (a QA build on `staging`) against the real server over real sockets: it
/// fetches that environment's policy and its events count there; a production client beside it sees neither
/// (docs/change-management.md, "Environments").
@Suite struct ClientEnvironmentTests {
    let fixture = ClientFixture()

    @Test func aStagingClientFetchesStagingsPolicyAndSendsItsEventsThere() async throws {
        let service = try fixture.startService()
        defer { service.stop() }
        _ = try service.policyStore.createEnvironment(
            app: "demo", name: "staging", copyFrom: nil, author: "test", auditDetail: .null)
        let staged = try service.policyStore.commit(
            app: "demo", environment: "staging",
            document: ClientFixture.demoDocument(cameraTitle: "Staging: scan with the camera"), author: "test",
            action: "replace", message: nil, precondition: nil, auditDetail: .null)

        let staging = try fixture.makeClient(
            port: service.port, storage: "staging", bootstrap: false, installId: "install-qa", environment: "staging")
        #expect(await staging.refresh() == .updated(revision: staged.revision))
        let decision = try await staging.decide(feature: .camera, status: .notDetermined)
        #expect(decision.copy[.title] == "Staging: scan with the camera")
        let fetch = try #require(fixture.transport.requests.last)
        #expect(fetch.0.url.path == "/v1/apps/demo/environments/staging/policy/document")
        #expect(fetch.1 == 200)

        // Production, same server: its own revision and copy, not staging's.
        let production = try fixture.makeClient(port: service.port, storage: "production", bootstrap: false)
        #expect(await production.refresh() == .updated(revision: 1))
        let productionDecision = try await production.decide(feature: .camera, status: .notDetermined)
        #expect(productionDecision.copy[.title] != "Staging: scan with the camera")
        #expect(fixture.transport.requests.last?.0.url.path == "/v1/apps/demo/policy/document")

        // The staging client's events are stored as staging's, the production client's as production's.
        try await staging.record(.shown, for: decision)
        try await production.record(.shown, for: productionDecision)
        #expect(await staging.flush().accepted == 1)
        #expect(await production.flush().accepted == 1)
        let stored = try service.database.read { db in
            try db.query("SELECT install_id, environment FROM events ORDER BY install_id").map {
                "\(try $0.get(0, as: String.self)) \(try $0.get(1, as: String.self))"
            }
        }
        #expect(stored == ["install-1 production", "install-qa staging"])
        #expect(
            fixture.transport.requests.contains {
                $0.0.method == "POST" && $0.0.url.path == "/v1/apps/demo/environments/staging/events"
            })
    }

    @Test func anEnvironmentTheServerDoesNotHaveIsNoPolicyNotProductions() async throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = try fixture.makeClient(
            port: service.port, storage: "qa", bootstrap: false, environment: "qa")
        let result = await client.refresh()
        #expect(fixture.transport.requests.last?.1 == 404)
        #expect(result != .updated(revision: 1))
        await #expect(throws: PreludeClientError.noPolicy) {
            try await client.decide(feature: .camera, status: .notDetermined)
        }
    }
}
