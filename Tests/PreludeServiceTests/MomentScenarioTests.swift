import Foundation
import PreludeCore
import PreludeStore
import Testing

@testable import PreludeService

/// Issue 38's scenario over real HTTP: notifications are primed only after the app reported its second
/// `orderPlaced` — before it `wait` (`momentNotReached`), after it `prime` — through decide, OFREP and the resolved
/// policy's query alike; and a rule's condition on an attribute through the same three paths.
@Suite struct MomentScenarioTests {
    let fixture = PublicFixture()

    /// The demo policy with notifications asked after the second order, and a rule for engaged users (a segment).
    static func document() throws -> PolicyDocument {
        var json = PublicFixture.demoDocument.jsonValue
        json = json.mergePatch(
            try JSONValue(
                parsing: Array(
                    #"""
                    {"attributes": {"sessionCount": "number"},
                     "segments": {"engaged": {"sessionCount": {"$gte": 3}}},
                     "features": {"notifications": {
                        "ask": {"after": {"moment": "orderPlaced", "atLeast": 2}},
                        "targeting": [{"name": "engaged-direct", "when": {"condition": {"$inSegment": "engaged"}},
                                       "set": {"strategy": "direct"}}]}}}
                    """#.utf8)))
        let validation = PolicyValidator.validate(json)
        return try #require(validation.document, "\(validation.problems)")
    }

    func startService() throws -> (PreludeService, PublicClient) {
        let service = try PreludeService.start(
            configuration: fixture.configuration(), logger: Logger(level: .error),
            clock: ServiceClock { 1_800_000_000_000 })
        _ = try service.policyStore.commit(
            app: "demo", document: try Self.document(), author: "test", action: "replace", message: nil,
            precondition: nil, auditDetail: .null)
        return (service, PublicClient(port: service.port))
    }

    @Test func notificationsArePrimedOnlyAfterTheSecondOrder() throws {
        let (service, client) = try startService()
        defer { service.stop() }
        var decided: [String] = []
        var evaluated: [String] = []
        var resolved: [Bool] = []
        for count in 0...3 {
            let moments = count == 0 ? "{}" : #"{"orderPlaced": {"count": \#(count)}}"#
            let decide = try client.post(
                "/v1/apps/demo/decide",
                json: #"""
                    {"installId": "i-1", "platform": "ios", "os": "18.0", "moments": \#(moments),
                     "features": [{"feature": "notifications", "status": "notDetermined"}]}
                    """#)
            #expect(decide.status == 200, "\(decide.text)")
            let decision = try #require((try decide.json()["decisions"] as? [[String: Any]])?.first)
            decided.append("\(decision["action"] ?? "-")/\(decision["reason"] ?? "-")")
            if count < 2 { #expect(decision["eligibleAt"] == nil) }

            let ofrep = try client.post(
                "/v1/apps/demo/ofrep/v1/evaluate/flags/notifications",
                json: #"{"context": {"targetingKey": "i-1", "platform": "ios", "os": "18.0", "moments": \#(moments)}}"#)
            #expect(ofrep.status == 200, "\(ofrep.text)")
            let value = try #require(try ofrep.json()["value"] as? [String: Any])
            evaluated.append("\(value["action"] ?? "-")/\(value["reason"] ?? "-")")

            let query = count == 0 ? "" : "&moment.orderPlaced=\(count)"
            let policy = try client.get("/v1/apps/demo/policy?platform=ios&os=18.0&installId=i-1\(query)")
            #expect(policy.status == 200, "\(policy.text)")
            let features = try #require(try policy.json()["features"] as? [String: Any])
            let notifications = try #require(features["notifications"] as? [String: Any])
            resolved.append(notifications["momentReached"] as? Bool ?? true)
        }
        let expected = [
            "wait/momentNotReached", "wait/momentNotReached", "prime/primeEligible", "prime/primeEligible",
        ]
        #expect(decided == expected)
        #expect(evaluated == expected)
        #expect(resolved == [false, false, true, true])
    }

    @Test func aSegmentRuleReadsTheAttributeOnEveryPath() throws {
        let (service, client) = try startService()
        defer { service.stop() }
        for (sessions, action) in [(2, "prime"), (3, "systemPrompt")] {
            let decide = try client.post(
                "/v1/apps/demo/decide",
                json: #"""
                    {"installId": "i-2", "os": "18.0", "attributes": {"sessionCount": \#(sessions)},
                     "moments": {"orderPlaced": {"count": 2}},
                     "features": [{"feature": "notifications", "status": "notDetermined"}]}
                    """#)
            let decision = try #require((try decide.json()["decisions"] as? [[String: Any]])?.first)
            #expect(decision["action"] as? String == action, "\(decide.text)")

            let ofrep = try client.post(
                "/v1/apps/demo/ofrep/v1/evaluate/flags/notifications",
                json: #"""
                    {"context": {"targetingKey": "i-2", "os": "18.0", "sessionCount": \#(sessions),
                                 "moments": {"orderPlaced": {"count": 2}}}}
                    """#)
            #expect(try (ofrep.json()["value"] as? [String: Any])?["action"] as? String == action, "\(ofrep.text)")

            // Twice: the second answer comes from the plain-query memory and must be the same.
            for _ in 0..<2 {
                let policy = try client.get(
                    "/v1/apps/demo/policy?os=18.0&installId=i-2&attr.sessionCount=\(sessions)&moment.orderPlaced=2")
                let features = try #require(try policy.json()["features"] as? [String: Any])
                let notifications = try #require(features["notifications"] as? [String: Any])
                #expect(notifications["strategy"] as? String == (sessions >= 3 ? "direct" : "prime"))
            }
        }
    }

    @Test(arguments: [
        ("attr.1bad=3", "/query/attr.1bad"), ("attr.code=%22unterminated", "/query/attr.code"),
        ("attr.a=1&attr.a=2", "/query/attr.a"), ("moment.orderPlaced=-1", "/query/moment"),
    ])
    func badAttributeQueriesAreRefusedByName(query: String, pointer: String) throws {
        let (service, client) = try startService()
        defer { service.stop() }
        let response = try client.get("/v1/apps/demo/policy?\(query)")
        #expect(response.status == 400, "\(response.text)")
        #expect(try response.problemPointers().contains(pointer), "\(response.text)")
    }

    @Test func badAttributesInDecideAndOFREPAreRefused() throws {
        let (service, client) = try startService()
        defer { service.stop() }
        let decide = try client.post(
            "/v1/apps/demo/decide",
            json:
                #"{"attributes": {"x": [1]}, "moments": {"m": 3}, "features": [{"feature": "camera", "status": "denied"}]}"#
        )
        #expect(decide.status == 422)
        #expect(try decide.problemPointers() == ["/attributes", "/moments"])
        let ofrep = try client.post(
            "/v1/apps/demo/ofrep/v1/evaluate/flags/camera", json: #"{"context": {"targetingKey": "i", "tags": ["a"]}}"#)
        #expect(ofrep.status == 400)
        #expect(try ofrep.json()["errorCode"] as? String == "INVALID_CONTEXT")
    }
}
