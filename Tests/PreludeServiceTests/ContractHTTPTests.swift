import Foundation
import Testing

@testable import PreludeService

/// The contract over real HTTP: what the admin API stores is printable text, every decision screen has words,
/// impossible states are 422 with a pointer, and problems name what was wrong.
@Suite struct ContractHTTPTests {
    @Test(arguments: [
        (#""name": "Demo""#, #""name": "Demo\u0000""#, "/app/name"),
        (#""Scan documents""#, #""Scan\u001Fdocuments""#, "/features/camera/copy/en/prime/title"),
        (#""Scan documents""#, #""Scan documents\uFFFF""#, "/features/camera/copy/en/prime/title"),
        (#""Record notes""#, #""Record notes\u2028\u0085""#, "/features/microphone/copy/en/prime/title"),
    ])
    func controlCharactersAreRefusedAndNothingIsStored(original: String, replacement: String, pointer: String) throws {
        let server = try AdminServer()
        let etag = try server.etag()  // the token's last_used_at is now set
        let before = try server.dump()
        let candidate = AdminServer.policyText.replacingOccurrences(of: original, with: replacement)
        #expect(candidate != AdminServer.policyText)
        let response = try server.send(
            "PUT", "/v1/admin/apps/demo/policy", headers: [("If-Match", etag)], body: candidate)
        #expect(response.status == 422)
        let errors = try #require(response.object["errors"] as? [[String: Any]])
        #expect(errors.map { $0["pointer"] as? String } == [pointer])
        #expect(errors.first?["code"] as? String == "text.forbiddenCharacter")
        let after = try server.dump()
        #expect(after == before, "\(Set(after).symmetricDifference(before))")
    }

    @Test func aLineFeedInACopyMessageIsStored() throws {
        let server = try AdminServer()
        let candidate = AdminServer.policyText.replacingOccurrences(
            of: #""{appName} records voice notes.""#, with: #""{appName} records voice notes.\n\nHold to record.""#)
        let response = try server.send(
            "PUT", "/v1/admin/apps/demo/policy", headers: [("If-Match", try server.etag())], body: candidate)
        #expect(response.status == 200)
    }

    @Test func anAuditMessageWithAControlCharacterIsRefused() throws {
        let server = try AdminServer()
        let etag = try server.etag()
        let before = try server.dump()
        let response = try server.send(
            "PUT", "/v1/admin/apps/demo/policy?message=ok%1B%5B31mevil", headers: [("If-Match", etag)],
            body: AdminServer.policyText.replacingOccurrences(of: "Scan documents", with: "Scan receipts"))
        #expect(response.status == 400, "\(response.body)")
        let errors = try #require(response.object["errors"] as? [[String: Any]])
        #expect(errors.first?["pointer"] as? String == "/query/message")
        #expect(errors.first?["code"] as? String == "text.forbiddenCharacter")
        #expect(try server.dump() == before)
    }

    @Test func aTokenNameWithAControlCharacterIsRefused() throws {
        let server = try AdminServer()
        let response = try server.send("POST", "/v1/admin/tokens", body: #"{"name": "ci\u0000", "scope": "read"}"#)
        #expect(response.status == 422 || response.status == 400)
        let errors = try #require(response.object["errors"] as? [[String: Any]])
        #expect(errors.first?["pointer"] as? String == "/name")
    }

    @Test func everyDecidedScreenHasWordsAndImpossibleStatesAre422() throws {
        let fixture = PublicFixture()
        let service = try fixture.startService()
        defer { service.stop() }
        let client = PublicClient(port: service.port)
        let response = try client.post(
            "/v1/apps/demo/decide",
            json: #"""
                {"platform": "ios", "os": "18.1", "locale": "en",
                 "features": [{"feature": "photos", "status": "notDetermined", "available": false},
                              {"feature": "tracking", "status": "notDetermined", "osVersion": "13.7"},
                              {"feature": "contacts", "status": "limited"}]}
                """#)
        #expect(response.status == 200)
        let decisions = try #require(try response.json()["decisions"] as? [[String: Any]])
        #expect(decisions.map { $0["action"] as? String } == ["unsupported", "unsupported", "contactAccessButton"])
        for decision in decisions {
            let copy = decision["copy"] as? [String: String] ?? [:]
            #expect(!copy.isEmpty, "\(decision)")
        }

        let impossible = try client.post(
            "/v1/apps/demo/decide",
            json: #"""
                {"platform": "ios", "os": "18.1",
                 "features": [{"feature": "contacts", "status": "notDetermined", "available": false},
                              {"feature": "camera", "status": "notDetermined", "osVersion": "11.4"}]}
                """#)
        #expect(impossible.status == 422)
        let errors = try #require(try impossible.json()["errors"] as? [[String: Any]])
        #expect(errors.map { $0["pointer"] as? String } == ["/features/0/available", "/features/1/osVersion"])
        #expect(errors.allSatisfy { $0["code"] as? String == "decision.impossible" })
    }

    @Test func anUnknownFeatureIsNamedInItsProblem() throws {
        let fixture = PublicFixture()
        let service = try fixture.startService()
        defer { service.stop() }
        let client = PublicClient(port: service.port)
        let decide = try client.post(
            "/v1/apps/demo/decide", json: #"{"features": [{"feature": "camra", "status": "denied"}]}"#)
        #expect(decide.status == 422)
        let decideErrors = try #require(try decide.json()["errors"] as? [[String: Any]])
        #expect(decideErrors.contains { ($0["detail"] as? String)?.contains("\"camra\"") == true })
        let events = try client.post(
            "/v1/apps/demo/events",
            json:
                #"{"installId": "i-1", "events": [{"id": "e-1", "type": "primeShown", "feature": "camra", "occurredAt": 1800000000}]}"#
        )
        #expect(events.status == 422)
        let eventErrors = try #require(try events.json()["errors"] as? [[String: Any]])
        #expect(eventErrors.contains { ($0["detail"] as? String)?.contains("\"camra\"") == true })
    }
}
