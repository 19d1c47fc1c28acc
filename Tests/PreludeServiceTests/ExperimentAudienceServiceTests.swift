import Foundation
import PreludeCore
import PreludeStore
import Testing

@testable import PreludeService

/// An experiment's audience over real HTTP (issue 38): an install outside the segment is not enrolled — the
/// feature's own settings and no variant — through decide, OFREP and the resolved policy's query (twice: the second
/// answer comes from the plain-query memory, which must not hand an outsider an insider's variant).
@Suite struct ExperimentAudienceServiceTests {
    let fixture = PublicFixture()

    /// The demo policy with its notifications experiment replaced by one for engaged users only, all of them
    /// asked directly.
    static func document() throws -> PolicyDocument {
        var json = PublicFixture.demoDocument.jsonValue
        let experiments = (json["experiments"]?.arrayValue ?? []).filter {
            $0["feature"]?.stringValue != "notifications"
        }
        let audience = try JSONValue(
            parsing: Array(
                #"""
                {"key": "engaged-direct", "feature": "notifications", "condition": {"$inSegment": "engaged"},
                 "variants": [{"name": "direct", "weight": 100, "set": {"strategy": "direct"}}]}
                """#.utf8))
        json = json.mergePatch(
            try JSONValue(
                parsing: Array(
                    #"""
                    {"attributes": {"sessionCount": "number"},
                     "segments": {"engaged": {"sessionCount": {"$gte": 3}}},
                     "features": {"notifications": {"ask": null}}}
                    """#.utf8)))
        json = json.mergePatch(["experiments": .array(experiments + [audience])])
        let validation = PolicyValidator.validate(json)
        return try #require(validation.document, "\(validation.problems)")
    }

    @Test func onlyTheAudienceIsEnrolledOnEveryPath() throws {
        let service = try PreludeService.start(
            configuration: fixture.configuration(), logger: Logger(level: .error),
            clock: ServiceClock { 1_800_000_000_000 })
        defer { service.stop() }
        _ = try service.policyStore.commit(
            app: "demo", document: try Self.document(), author: "test", action: "replace", message: nil,
            precondition: nil, auditDetail: .null)
        let client = PublicClient(port: service.port)

        for (sessions, action, variant) in [(2, "prime", nil), (3, "systemPrompt", "direct"), (nil, "prime", nil)] {
            let attributes = sessions.map { #""attributes": {"sessionCount": \#($0)},"# } ?? ""
            let decide = try client.post(
                "/v1/apps/demo/decide",
                json: #"""
                    {"installId": "i-\#(sessions ?? 0)", "platform": "ios", "os": "18.0", \#(attributes)
                     "features": [{"feature": "notifications", "status": "notDetermined"}]}
                    """#)
            #expect(decide.status == 200, "\(decide.text)")
            let decision = try #require((try decide.json()["decisions"] as? [[String: Any]])?.first)
            #expect(decision["action"] as? String == action, "\(sessions as Any): \(decide.text)")
            #expect((decision["variant"] as? [String: Any])?["variant"] as? String == variant, "\(decide.text)")

            let context = sessions.map { #", "sessionCount": \#($0)"# } ?? ""
            let ofrep = try client.post(
                "/v1/apps/demo/ofrep/v1/evaluate/flags/notifications",
                json:
                    #"{"context": {"targetingKey": "i-\#(sessions ?? 0)", "platform": "ios", "os": "18.0"\#(context)}}"#
            )
            #expect(ofrep.status == 200, "\(ofrep.text)")
            #expect(try (ofrep.json()["value"] as? [String: Any])?["action"] as? String == action, "\(ofrep.text)")

            // Two installs with the same query: the second is served from the plain-query memory.
            for install in ["a", "b"] {
                let query = sessions.map { "&attr.sessionCount=\($0)" } ?? ""
                let policy = try client.get("/v1/apps/demo/policy?platform=ios&os=18.0&installId=\(install)\(query)")
                #expect(policy.status == 200, "\(policy.text)")
                let body = try policy.json()
                let features = try #require(body["features"] as? [String: Any])
                let notifications = try #require(features["notifications"] as? [String: Any])
                #expect(notifications["strategy"] as? String == (variant == nil ? "prime" : "direct"))
                let assigned = (body["experiments"] as? [[String: Any]])?.first {
                    $0["key"] as? String == "engaged-direct"
                }
                #expect(assigned?["variant"] as? String == variant, "\(policy.text)")
            }
        }
    }
}
