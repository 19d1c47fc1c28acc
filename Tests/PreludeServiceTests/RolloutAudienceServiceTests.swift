import Foundation
import PreludeCore
import PreludeStore
import Testing

@testable import PreludeService

/// A rollout's audience over real HTTP (issue 38, docs/rollouts.md "Audience"): only installs in the segment enter
/// the rollout's percentage — through decide, OFREP and the resolved policy alike — and completion leaves the change
/// as a targeting rule for the audience, not a change for everyone. Bad audiences are refused by pointer.
@Suite struct RolloutAudienceServiceTests {
    typealias Service = RolloutLiveTests.Service
    static let key = "mic-engaged"
    static let newTitle = "Talk to us"

    /// The demo policy with a declared attribute, a segment and a rule of its own on the microphone (iOS 18 on),
    /// which the rollout's audience rule must follow.
    static func document() throws -> PolicyDocument {
        let json = PublicFixture.demoDocument.jsonValue.mergePatch(
            try JSONValue(
                parsing: Array(
                    #"""
                    {"attributes": {"sessionCount": "number"},
                     "segments": {"engaged": {"sessionCount": {"$gte": 3}}},
                     "features": {"microphone": {"targeting": [
                        {"name": "ios18-title", "when": {"os": ">=18"},
                         "set": {"copy": {"en": {"prime": {"title": "Speak your notes"}}}}}]}}}
                    """#.utf8)))
        let validation = PolicyValidator.validate(json)
        return try #require(validation.document, "\(validation.problems)")
    }

    static func commit(_ service: Service) throws {
        _ = try service.service.policyStore.commit(
            app: "demo", document: try document(), author: "test", action: "replace", message: nil,
            precondition: nil, auditDetail: .null)
    }

    /// The microphone's prime title and experiment variant for `install` with `sessions` (nil: none sent), read
    /// from decide, OFREP and the resolved policy; the three must agree.
    static func served(_ service: Service, install: String, sessions: Int?) throws -> (title: String?, variant: String?)
    {
        let client = service.client
        let attributes = sessions.map { #""attributes": {"sessionCount": \#($0)},"# } ?? ""
        let decide = try client.post(
            "/v1/apps/demo/decide",
            json: #"""
                {"installId": "\#(install)", "platform": "ios", "os": "18.0", "locale": "en", \#(attributes)
                 "features": [{"feature": "microphone", "status": "notDetermined"}]}
                """#)
        #expect(decide.status == 200, "\(decide.text)")
        let decision = try #require((try decide.json()["decisions"] as? [[String: Any]])?.first)
        let title = (decision["copy"] as? [String: Any])?["title"] as? String
        let variant = (decision["variant"] as? [String: Any])?["variant"] as? String

        let context = sessions.map { #", "sessionCount": \#($0)"# } ?? ""
        let ofrep = try client.post(
            "/v1/apps/demo/ofrep/v1/evaluate/flags/microphone",
            json:
                #"{"context": {"targetingKey": "\#(install)", "platform": "ios", "os": "18.0", "locale": "en"\#(context)}}"#
        )
        #expect(ofrep.status == 200, "\(ofrep.text)")
        let value = try #require(try ofrep.json()["value"] as? [String: Any])
        #expect((value["copy"] as? [String: Any])?["title"] as? String == title, "OFREP = decide: \(ofrep.text)")
        #expect(try ofrep.json()["variant"] as? String == (variant ?? "prime"), "\(ofrep.text)")

        // Twice: the second answer comes from the plain-query memory.
        for _ in 0..<2 {
            let query = sessions.map { "&attr.sessionCount=\($0)" } ?? ""
            let policy = try client.get(
                "/v1/apps/demo/policy?platform=ios&os=18.0&locale=en&installId=\(install)\(query)")
            #expect(policy.status == 200, "\(policy.text)")
            let body = try policy.json()
            let microphone = (body["features"] as? [String: Any])?["microphone"] as? [String: Any]
            let copy = (microphone?["copy"] as? [String: Any])?["prime"] as? [String: Any]
            #expect(copy?["title"] as? String == title, "policy = decide: \(policy.text)")
            #expect((microphone?["variant"] as? [String: Any])?["variant"] as? String == variant, "\(policy.text)")
        }
        return (title, variant)
    }

    @Test func onlyTheAudienceEntersTheRolloutAndKeepsTheChangeOnCompletion() throws {
        let service = try Service()
        try Self.commit(service)
        let before = try Self.served(service, install: "x", sessions: 5)
        #expect(before.title == "Speak your notes" && before.variant == nil)

        let created = try service.admin(
            "POST", "/v1/admin/apps/demo/rollouts",
            json: #"""
                {"feature": "microphone", "key": "\#(Self.key)", "condition": {"$inSegment": "engaged"},
                 "set": {"copy": {"en": {"prime": {"title": "\#(Self.newTitle)"}}}},
                 "steps": [{"percent": 50}, {"percent": 100}], "start": true}
                """#)
        #expect(created.status == 201, "\(created.text)")
        let rollout = try JSONParser().parse(created.text)
        #expect(rollout["condition"] == ["$inSegment": "engaged"])
        #expect(rollout["forecast"]?["baseline"]?["audienceShare"] == .null, "no share is measured or assumed")
        let id = try #require(rollout["id"]?.intValue)
        let experiment = try #require(try RolloutLiveTests.liveExperiment(service, key: Self.key))
        #expect(experiment["condition"] == ["$inSegment": "engaged"], "\(experiment)")

        // Step 1 (50 %: weights [50, 50], coverage 1): audience installs split between the arms; the others are in
        // neither, whatever their bucket.
        let newArm = RolloutLiveTests.installs(3, key: Self.key, arm: 1, coverage: 1, prefix: "n")
        let control = RolloutLiveTests.installs(3, key: Self.key, arm: 0, coverage: 1, prefix: "c")
        for install in newArm {
            #expect(try Self.served(service, install: install, sessions: 3) == (Self.newTitle, "rollout"))
            #expect(try Self.served(service, install: install, sessions: 2) == ("Speak your notes", nil))
            #expect(try Self.served(service, install: install, sessions: nil) == ("Speak your notes", nil))
        }
        for install in control {
            #expect(try Self.served(service, install: install, sessions: 4) == ("Speak your notes", "control"))
            #expect(try Self.served(service, install: install, sessions: 1) == ("Speak your notes", nil))
        }

        // The page speaks of the audience's installs.
        let page = try service.client.send(
            "GET", "/v1/admin/apps/demo/rollouts/\(id)",
            headers: [("Authorization", "Bearer \(RolloutLiveTests.secret)"), ("Accept", "text/html")])
        #expect(page.text.contains("50 % of installs in segment engaged get the change"), "\(page.text.prefix(3000))")

        // Completion: a rule for the audience after the feature's own rule, no change for everyone.
        let done = try service.adminJSON("POST", "/v1/admin/apps/demo/rollouts/\(id)/complete")
        #expect(done["status"] == "completed", "\(done)")
        let policy = try service.adminJSON("GET", "/v1/admin/apps/demo/policy")
        #expect(try RolloutLiveTests.liveExperiment(service, key: Self.key) == nil)
        let microphone = try #require(policy["features"]?["microphone"])
        #expect(microphone["copy"]?["en"]?["prime"]?["title"] == "Record voice notes", "the feature itself unchanged")
        #expect(
            microphone["targeting"] == [
                [
                    "name": "ios18-title", "when": ["os": ">=18"],
                    "set": ["copy": ["en": ["prime": ["title": "Speak your notes"]]]],
                ],
                [
                    "name": "mic-engaged-audience", "when": ["condition": ["$inSegment": "engaged"]],
                    "set": ["copy": ["en": ["prime": ["title": .string(Self.newTitle)]]]],
                ],
            ], "\(microphone)")
        for install in newArm + control {
            #expect(try Self.served(service, install: install, sessions: 3) == (Self.newTitle, nil))
            #expect(try Self.served(service, install: install, sessions: 0) == ("Speak your notes", nil))
        }
        let audit = try service.adminJSON("GET", "/v1/admin/audit?action=rollout.complete")
        #expect(audit["entries"]?[0]?["detail"]?["rule"] == "mic-engaged-audience", "\(audit)")
    }

    @Test func anOldRolloutWithoutAnAudienceStillMergesIntoTheFeature() throws {
        let service = try Service()
        try Self.commit(service)
        let created = try service.adminJSON(
            "POST", "/v1/admin/apps/demo/rollouts",
            json: #"""
                {"feature": "microphone", "key": "mic-all", "set": {"copy": {"en": {"prime": {"title": "Talk to us"}}}},
                 "steps": [{"percent": 50}, {"percent": 100}], "start": true}
                """#)
        #expect(created["condition"] == .null)
        #expect(try RolloutLiveTests.liveExperiment(service, key: "mic-all")?["condition"] == nil)
        let id = try #require(created["id"]?.intValue)
        #expect(try service.adminJSON("POST", "/v1/admin/apps/demo/rollouts/\(id)/complete")["status"] == "completed")
        let microphone = try service.adminJSON("GET", "/v1/admin/apps/demo/policy")["features"]?["microphone"]
        #expect(microphone?["copy"]?["en"]?["prime"]?["title"] == "Talk to us")
        #expect(microphone?["targeting"]?.arrayValue?.count == 1, "only the feature's own rule")
    }

    /// On an environment that requires approvals the reviewers see the audience in the plan they approve, and
    /// applying it starts the rollout with it.
    @Test func anApprovedPlanCarriesItsAudience() throws {
        let service = try Service()
        try Self.commit(service)
        func send(_ method: String, _ target: String, token: String) throws -> PublicClient.Response {
            try service.client.send(method, target, headers: [("Authorization", "Bearer \(token)")], body: [])
        }
        func token(_ body: String) throws -> String {
            try #require(try service.adminJSON("POST", "/v1/admin/tokens", json: body)["token"]?.stringValue)
        }
        let alice = try token(#"{"name": "alice", "scope": "write"}"#)
        let bob = try token(#"{"name": "bob", "scope": "read", "approve": true}"#)
        let gated = try service.admin(
            "PATCH", "/v1/admin/apps/demo/environments/production", json: #"{"requiredApprovals": 1}"#)
        #expect(gated.status == 200, "\(gated.text)")
        let created = try service.client.send(
            "POST", "/v1/admin/apps/demo/rollouts",
            headers: [("Authorization", "Bearer \(alice)"), ("Content-Type", "application/json")],
            body: Array(
                #"""
                {"feature": "microphone", "key": "\#(Self.key)", "condition": {"$inSegment": "engaged"},
                 "set": {"strategy": "direct"}, "steps": [{"percent": 50}, {"percent": 100}], "start": true}
                """#.utf8))
        #expect(created.status == 202, "\(created.text)")
        let request = try #require(try JSONParser().parse(created.text)["changeRequest"]?["id"]?.intValue)
        let base = "/v1/admin/apps/demo/environments/production/change-requests/\(request)"
        let document = try JSONParser().parse(try send("GET", base + "/document", token: alice).text)
        #expect(document["condition"] == ["$inSegment": "engaged"], "\(document)")
        #expect(try send("POST", base + "/approve", token: bob).status == 200)
        #expect(try send("POST", base + "/apply", token: alice).status == 200)
        let experiment = try RolloutLiveTests.liveExperiment(service, key: Self.key)
        #expect(experiment?["condition"] == ["$inSegment": "engaged"], "\(experiment as Any)")
    }

    @Test(arguments: [
        (#"{"$inSegment": "engagd"}"#, "/condition/$inSegment"),
        (#"{"sessionCount": {"$gtee": 3}}"#, "/condition/sessionCount/$gtee"),
        (#"{"$or": [{"$inSegment": "engaged"}, {"plan": {"$in": "pro"}}]}"#, "/condition/$or/1/plan/$in"),
        (#""engaged""#, "/condition"),
    ])
    func badAudiencesAreRefusedByPointerAndChangeNothing(condition: String, pointer: String) throws {
        let service = try Service()
        try Self.commit(service)
        let revisions = try service.adminJSON("GET", "/v1/admin/apps/demo/revisions")
        let baseline = #", "installsPerHour": 100, "grantRate": 0.5, "denialRate": 0.2"#
        for (path, extra) in [
            ("/v1/admin/apps/demo/rollouts", ""), ("/v1/admin/apps/demo/rollouts/simulate", baseline),
        ] {
            let response = try service.admin(
                "POST", path,
                json: #"""
                    {"feature": "microphone", "condition": \#(condition), "set": {}, "steps": [{"percent": 50}],
                     "start": true\#(extra)}
                    """#)
            #expect(response.status == 422, "\(path): \(response.text)")
            #expect(response["Content-Type"] == "application/problem+json")
            let problem = try JSONParser().parse(response.text)
            #expect(
                problem["errors"]?.arrayValue?.contains { $0["pointer"]?.stringValue == pointer } == true,
                "\(response.text)")
        }
        #expect(try service.adminJSON("GET", "/v1/admin/apps/demo/rollouts")["rollouts"] == [])
        #expect(try service.adminJSON("GET", "/v1/admin/apps/demo/revisions") == revisions, "nothing published")
    }

    @Test func theForecastSaysTheAudienceShareIsNotMeasured() throws {
        let service = try Service()
        try Self.commit(service)
        let body = #"""
            {"feature": "microphone", "condition": {"$inSegment": "engaged"}, "steps": [{"percent": 50}],
             "grantRate": 0.5, "denialRate": 0.2
            """#
        let estimated = try service.adminJSON(
            "POST", "/v1/admin/apps/demo/rollouts/simulate", json: body + #", "installsPerHour": 400}"#)
        #expect(estimated["baseline"]?["audienceShare"] == .null)
        #expect(estimated["baseline"]?["audience"]?.stringValue?.contains("audience's own traffic") == true)
        #expect(estimated["baseline"]?["installsPerHour"]?.doubleValue == 400, "the request's figure, not scaled")
        let missing = try service.adminJSON("POST", "/v1/admin/apps/demo/rollouts/simulate", json: body + "}")
        #expect(missing["baseline"]?["audience"]?.stringValue?.contains("not measured") == true, "\(missing)")
    }
}
