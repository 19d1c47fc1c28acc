import Foundation
import PreludeCore
import PreludeStore
import PreludeTestSupport
import Testing

@testable import PreludeService

/// OFREP (`/v1/apps/{app}/ofrep/v1/evaluate/flags[/{key}]`, docs/openfeature.md) over the real server on port 0:
/// every answer equals decide's for the same inputs (a differential over generated contexts), the specification's
/// error codes and statuses, and the bulk call's ETag / If-None-Match.
@Suite struct OFREPTests {
    let fixture = PublicFixture()
    static let base = "/v1/apps/demo/ofrep/v1/evaluate/flags"
    /// The decide clock of every differential run: both endpoints decide at exactly this instant.
    static let now: Int64 = 1_800_000_000

    func startService() throws -> PreludeService {
        try PreludeService.start(
            configuration: fixture.configuration(), logger: Logger(level: .error),
            clock: ServiceClock { Self.now * 1000 })
    }

    // MARK: - Generated inputs

    /// A random context: decide's top-level members, each present or not, now and then an invalid value.
    static func context(_ random: inout SplitMix64) -> [String: Any] {
        var context: [String: Any] = ["targetingKey": "ofrep-\(random.below(1000))"]
        func maybe(_ name: String, _ values: [Any]) {
            if random.chance(0.7) { context[name] = values[random.below(values.count)] }
        }
        maybe("platform", ["ios", "ipados", "iOS", "macos", "visionos", random.chance(0.05) ? "android" : "ios"])
        maybe("os", ["14.8", "15.0", "16.2", "17.0", "17.4", "18.0", "18.1", random.chance(0.05) ? "x" : "17.4"])
        maybe("appVersion", ["1.0.0", "2.3.0", "2.3.1"])
        maybe("locale", ["en", "fr", "ja", "zh-Hant-TW", "de-CH", "pt-BR", random.chance(0.05) ? "??" : "en"])
        return context
    }

    /// A random client state (without `feature`): any status (Apple's names too), history, availability.
    static func state(_ random: inout SplitMix64) -> [String: Any] {
        var state: [String: Any] = [:]
        let statuses =
            AuthorizationStatus.allCases.map(\.rawValue) + ["fullAccess", "authorizedAlways", "authorizedWhenInUse"]
        if random.chance(0.9) {
            state["status"] = random.chance(0.03) ? "bogus" : statuses[random.below(statuses.count)]
        }
        if random.chance(0.3) { state["available"] = random.chance(0.8) }
        if random.chance(0.3) { state["osVersion"] = ["14.8", "15.0", "17.0", "17.4", "18.0"][random.below(5)] }
        if random.chance(0.2) { state["trackingPromptShown"] = random.chance(0.5) }
        if random.chance(0.2) { state["origin"] = random.chance(0.5) ? "launch" : "featureUse" }
        if random.chance(0.6) {
            var history: [String: Any] = [:]
            for kind in CadenceKind.allCases where random.chance(0.5) {
                var entry: [String: Any] = ["shownCount": random.below(5)]
                if random.chance(0.8) { entry["lastShown"] = Int(now) - random.below(20 * 86_400) }
                if random.chance(0.7) {
                    entry["lastOutcome"] = ScreenOutcome.allCases[random.below(ScreenOutcome.allCases.count)].rawValue
                }
                history[kind.rawValue] = entry
            }
            state["history"] = history
        }
        return state
    }

    /// The decide body for `context` and `states` (OFREP's names mapped back: `targetingKey` is `installId`).
    static func decideBody(_ context: [String: Any], states: [[String: Any]]) -> [String: Any] {
        var body: [String: Any] = ["features": states]
        for (name, value) in context { body[name == "targetingKey" ? "installId" : name] = value }
        return body
    }

    static func text(_ object: Any) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// The object with keys sorted, for comparison by value.
    static func canonical(_ object: Any?) -> String { object.map { text($0) } ?? "nil" }

    // MARK: - Differential: OFREP = decide

    @Test func singleFlagEvaluationEqualsDecideOnGeneratedInputs() throws {
        let service = try startService()
        defer { service.stop() }
        let client = PublicClient(port: service.port)
        var random = SplitMix64(state: 0x0F2E_9001)
        var compared = 0
        var refused = 0
        var notFound = 0
        let configured = PublicFixture.demoDocument.orderedFeatures.map(\.feature)
        for _ in 0..<500 {
            let context = Self.context(&random)
            // Now and then a feature the demo app does not configure: decide refuses it, OFREP says FLAG_NOT_FOUND.
            let feature =
                random.chance(0.8)
                ? configured[random.below(configured.count)] : Feature.allCases[random.below(Feature.allCases.count)]
            let state = Self.state(&random)
            var flagState = state
            flagState["feature"] = feature.rawValue
            if flagState["status"] == nil { flagState["status"] = "notDetermined" }  // OFREP: no state = notDetermined
            let decide = try client.post(
                "/v1/apps/demo/decide", json: Self.text(Self.decideBody(context, states: [flagState])))
            var ofrepContext = context
            for (name, value) in state { ofrepContext[name] = value }
            let ofrep = try client.post("\(Self.base)/\(feature.rawValue)", json: Self.text(["context": ofrepContext]))
            let answer = try ofrep.json()
            let configured = PublicFixture.demoDocument.features[feature] != nil
            if !configured {
                #expect(decide.status == 422)
                #expect(ofrep.status == 404)
                #expect(answer["errorCode"] as? String == "FLAG_NOT_FOUND")
                #expect(answer["key"] as? String == feature.rawValue)
                notFound += 1
                continue
            }
            if decide.status == 200 {
                let decision = try #require((try decide.json()["decisions"] as? [Any])?.first as? [String: Any])
                #expect(ofrep.status == 200, "\(ofrepContext) \(ofrep.text)")
                #expect(Self.canonical(answer["value"]) == Self.canonical(decision), "\(ofrepContext)")
                #expect(answer["key"] as? String == feature.rawValue)
                let variant = (decision["variant"] as? [String: Any])?["variant"] as? String
                #expect(answer["variant"] as? String == variant ?? decision["action"] as? String)
                let reason = answer["reason"] as? String
                #expect((reason == "SPLIT") == (variant != nil))
                #expect(["SPLIT", "TARGETING_MATCH", "STATIC"].contains(reason))
                #expect(
                    (answer["metadata"] as? [String: Any])?["preludeReason"] as? String == decision["reason"] as? String
                )
                #expect(ofrep["Content-Language"] == decide["Content-Language"])
                compared += 1
            } else {
                #expect(decide.status == 422, "\(decide.text)")
                #expect(ofrep.status == 400, "\(ofrepContext) \(ofrep.text)")
                #expect(answer["errorCode"] as? String == "INVALID_CONTEXT")
                #expect(answer["key"] as? String == feature.rawValue)
                refused += 1
            }
        }
        // The generator reaches both sides: most inputs are decided, some refused.
        #expect(compared > 150)
        #expect(refused > 10)
        #expect(notFound > 10)
    }

    @Test func bulkEvaluationEqualsDecideFeatureByFeatureOnGeneratedInputs() throws {
        let service = try startService()
        defer { service.stop() }
        let client = PublicClient(port: service.port)
        let configured = PublicFixture.demoDocument.orderedFeatures.map(\.feature)
        var random = SplitMix64(state: 0x0F2E_B01C)
        var compared = 0
        for _ in 0..<60 {
            let context = Self.context(&random)
            var states: [String: [String: Any]] = [:]
            for feature in configured where random.chance(0.5) { states[feature.rawValue] = Self.state(&random) }
            var ofrepContext = context
            ofrepContext["features"] = states
            let ofrep = try client.post(Self.base, json: Self.text(["context": ofrepContext]))
            // Decide, one feature at a time, with the same context; a feature without a state is notDetermined.
            var answers: [(status: Int, decision: Any?)] = []
            for feature in configured {
                var state = states[feature.rawValue] ?? [:]
                state["feature"] = feature.rawValue
                if state["status"] == nil { state["status"] = "notDetermined" }
                let decide = try client.post(
                    "/v1/apps/demo/decide", json: Self.text(Self.decideBody(context, states: [state])))
                let impossible = try decide.json()["errors"].map { errors in
                    ((errors as? [[String: Any]]) ?? []).allSatisfy { $0["code"] as? String == "decision.impossible" }
                }
                answers.append(
                    (
                        decide.status == 200 ? 200 : impossible == true ? 1 : 422,
                        (try decide.json()["decisions"] as? [Any])?.first
                    ))
            }
            if answers.contains(where: { $0.status == 422 }) {
                #expect(ofrep.status == 400, "\(ofrepContext) \(ofrep.text)")
                #expect(try ofrep.json()["errorCode"] as? String == "INVALID_CONTEXT")
                continue
            }
            #expect(ofrep.status == 200, "\(ofrepContext) \(ofrep.text)")
            #expect(ofrep["ETag"] != nil)
            let flags = try #require(try ofrep.json()["flags"] as? [[String: Any]])
            #expect(flags.map { $0["key"] as? String } == configured.map(\.rawValue))
            for (flag, answer) in zip(flags, answers) {
                if answer.status == 200 {
                    #expect(Self.canonical(flag["value"]) == Self.canonical(answer.decision), "\(flag["key"] ?? "")")
                    compared += 1
                } else {
                    #expect(flag["errorCode"] as? String == "INVALID_CONTEXT")
                    #expect(flag["value"] == nil)
                }
            }
        }
        #expect(compared > 200)
    }

    // MARK: - The specification's errors

    @Test(arguments: [
        ("camera", "{", 400, "PARSE_ERROR"),
        ("camera", "[1]", 400, "PARSE_ERROR"),
        ("camera", "{}", 400, "PARSE_ERROR"),
        ("camera", #"{"context": 3}"#, 400, "PARSE_ERROR"),
        ("camera", #"{"context": {}}"#, 400, "TARGETING_KEY_MISSING"),
        ("camera", #"{"context": {"targetingKey": 7}}"#, 400, "INVALID_CONTEXT"),
        ("camera", #"{"context": {"targetingKey": "i", "status": "bogus"}}"#, 400, "INVALID_CONTEXT"),
        ("camera", #"{"context": {"targetingKey": "i", "os": "seventeen"}}"#, 400, "INVALID_CONTEXT"),
        ("camera", #"{"context": {"targetingKey": "i", "status": "provisional"}}"#, 400, "INVALID_CONTEXT"),
        ("reminders", #"{"context": {"targetingKey": "i"}}"#, 404, "FLAG_NOT_FOUND"),
        ("no-such-flag", #"{"context": {"targetingKey": "i"}}"#, 404, "FLAG_NOT_FOUND"),
    ])
    func singleFlagErrors(key: String, body: String, status: Int, code: String) throws {
        let service = try startService()
        defer { service.stop() }
        let response = try PublicClient(port: service.port).post("\(Self.base)/\(key)", json: body)
        #expect(response.status == status, "\(response.text)")
        #expect(response["Content-Type"] == "application/json")
        let json = try response.json()
        #expect(json["errorCode"] as? String == code)
        #expect(json["key"] as? String == key)
        #expect((json["errorDetails"] as? String)?.isEmpty == false)
    }

    /// A body declared as anything but UTF-8 JSON is 415 with the specification's general error body and
    /// `Accept-Post`, on both calls; a body without `Content-Type` is read as JSON (the protocol has no 415).
    @Test(arguments: [
        [("Content-Type", "text/plain")], [("Content-Type", "application/json; charset=latin1")],
        [("Content-Type", "application/x-www-form-urlencoded")],
    ])
    func aBodyDeclaredAsSomethingElseIsRefused(headers: [(String, String)]) throws {
        let service = try startService()
        defer { service.stop() }
        let client = PublicClient(port: service.port)
        let body = Array(#"{"context": {"targetingKey": "i"}}"#.utf8)
        for target in ["\(Self.base)/camera", Self.base] {
            let response = try client.send("POST", target, headers: headers, body: body)
            #expect(response.status == 415, "\(target) \(headers): \(response.text)")
            #expect(response["Accept-Post"] == "application/json")
            #expect(response["Content-Type"] == "application/json")
            let json = try response.json()
            #expect(json["errorCode"] == nil)
            #expect((json["errorDetails"] as? String)?.isEmpty == false)
        }
        for declared in [[("Content-Type", "application/json; charset=UTF-8")], []] {
            let answer = try client.send("POST", "\(Self.base)/camera", headers: declared, body: body)
            #expect(answer.status == 200, "\(declared): \(answer.text)")
        }
    }

    /// A provider whose base URL names an environment evaluates that environment's live policy; production's
    /// routes keep production's; an environment the app does not have is FLAG_NOT_FOUND.
    @Test func anEnvironmentsBaseURLEvaluatesThatEnvironmentsPolicy() throws {
        let service = try startService()
        defer { service.stop() }
        _ = try service.policyStore.createEnvironment(
            app: "demo", name: "staging", copyFrom: nil, author: "test", auditDetail: .null)
        _ = try service.policyStore.commit(
            app: "demo", environment: "staging",
            document: PublicFixture.demoDocument(cameraTitle: "Staging: scan with the camera"), author: "test",
            action: "replace", message: nil, precondition: nil, auditDetail: .null)
        let client = PublicClient(port: service.port)
        let body = #"{"context": {"targetingKey": "i-1", "status": "notDetermined", "locale": "en"}}"#
        func title(_ response: PublicClient.Response) throws -> String? {
            try JSONParser().parse(response.text)["value"]?["copy"]?["title"]?.stringValue
        }
        let staging = try client.post("/v1/apps/demo/environments/staging/ofrep/v1/evaluate/flags/camera", json: body)
        #expect(staging.status == 200, "\(staging.text)")
        #expect(try title(staging) == "Staging: scan with the camera", "\(staging.text)")
        let production = try client.post("\(Self.base)/camera", json: body)
        #expect(production.status == 200)
        #expect(try title(production) != nil)
        #expect(try title(production) != "Staging: scan with the camera")
        let bulk = try client.post(
            "/v1/apps/demo/environments/staging/ofrep/v1/evaluate/flags", json: #"{"context": {"targetingKey": "i-1"}}"#
        )
        #expect(bulk.status == 200)
        #expect(bulk.text.contains("Staging: scan with the camera"))
        let unknown = try client.post("/v1/apps/demo/environments/qa/ofrep/v1/evaluate/flags/camera", json: body)
        #expect(unknown.status == 404, "\(unknown.text)")
        #expect(try unknown.json()["errorCode"] as? String == "FLAG_NOT_FOUND")
    }

    @Test func errorDetailsNameTheContextMember() throws {
        let service = try startService()
        defer { service.stop() }
        let client = PublicClient(port: service.port)
        let single = try client.post(
            "\(Self.base)/camera",
            json: #"{"context": {"targetingKey": "i", "history": {"prime": {"shownCount": -1}}}}"#)
        #expect((try single.json()["errorDetails"] as? String)?.hasPrefix("context.history.prime.shownCount") == true)
        let bulk = try client.post(
            Self.base, json: #"{"context": {"targetingKey": "i", "features": {"photos": {"available": 1}}}}"#)
        #expect(bulk.status == 400)
        #expect((try bulk.json()["errorDetails"] as? String)?.hasPrefix("context.features.photos.available") == true)
        let unknown = try client.post(
            Self.base, json: #"{"context": {"targetingKey": "i", "features": {"reminders": {}}}}"#)
        #expect(unknown.status == 400)
        #expect(try unknown.json()["errorCode"] as? String == "INVALID_CONTEXT")
        #expect(try unknown.json()["key"] == nil)
        let topLevel = try client.post(Self.base, json: #"{"context": {"targetingKey": "i", "platform": "android"}}"#)
        #expect((try topLevel.json()["errorDetails"] as? String)?.hasPrefix("context.platform") == true)
    }

    @Test func otherContextAttributesAreIgnoredAndNoStateIsNotDetermined() throws {
        let service = try startService()
        defer { service.stop() }
        let client = PublicClient(port: service.port)
        let bare = try client.post("\(Self.base)/camera", json: #"{"context": {"targetingKey": "i-9"}}"#)
        let extra = try client.post(
            "\(Self.base)/camera", json: #"{"context": {"targetingKey": "i-9", "email": "a@b.c", "plan": 3}}"#)
        let explicit = try client.post(
            "\(Self.base)/camera", json: #"{"context": {"targetingKey": "i-9", "status": "notDetermined"}}"#)
        #expect(bare.status == 200)
        #expect(bare.body == extra.body)
        #expect(bare.body == explicit.body)
    }

    @Test func unknownAppIsFlagNotFound() throws {
        let service = try startService()
        defer { service.stop() }
        let client = PublicClient(port: service.port)
        let single = try client.post(
            "/v1/apps/nope/ofrep/v1/evaluate/flags/camera", json: #"{"context": {"targetingKey": "i"}}"#)
        #expect(single.status == 404)
        #expect(try single.json()["errorCode"] as? String == "FLAG_NOT_FOUND")
        let bulk = try client.post(
            "/v1/apps/nope/ofrep/v1/evaluate/flags", json: #"{"context": {"targetingKey": "i"}}"#)
        #expect(bulk.status == 404)
    }

    // MARK: - Bulk: ETag and If-None-Match

    @Test func bulkAnswersNotModifiedToItsOwnETagOnly() throws {
        let service = try startService()
        defer { service.stop() }
        let client = PublicClient(port: service.port)
        let body = #"{"context": {"targetingKey": "i-1", "os": "18.0", "features": {"camera": {"status": "denied"}}}}"#
        let first = try client.post(Self.base, json: body)
        #expect(first.status == 200)
        let etag = try #require(first["ETag"])
        let again = try client.post(Self.base, json: body, headers: [("If-None-Match", etag)])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(again["ETag"] == etag)
        // Another answer (a different state) has another tag: the old one no longer matches.
        let other = try client.post(
            Self.base,
            json:
                #"{"context": {"targetingKey": "i-1", "os": "18.0", "features": {"camera": {"status": "authorized"}}}}"#,
            headers: [("If-None-Match", etag)])
        #expect(other.status == 200)
        #expect(other["ETag"] != etag)
        let stale = try client.post(Self.base, json: body, headers: [("If-None-Match", "\"0000000000000000-1\"")])
        #expect(stale.status == 200)
        #expect(stale.body == first.body)
    }

    @Test(arguments: ["1771622898", "0", "2026-02-20T21:28:18Z"])
    func changeMetadataIsAccepted(value: String) throws {
        let service = try startService()
        defer { service.stop() }
        let response = try PublicClient(port: service.port).post(
            "\(Self.base)?flagConfigEtag=abc&flagConfigLastModified=\(value)",
            json: #"{"context": {"targetingKey": "i"}}"#)
        #expect(response.status == 200)
    }

    @Test(arguments: ["-1", "", "yesterday", "2026-13-01T00:00:00Z"])
    func malformedLastModifiedIsAParseError(value: String) throws {
        let service = try startService()
        defer { service.stop() }
        let response = try PublicClient(port: service.port).post(
            "\(Self.base)?flagConfigLastModified=\(value)", json: #"{"context": {"targetingKey": "i"}}"#)
        #expect(response.status == 400)
        #expect(try response.json()["errorCode"] as? String == "PARSE_ERROR")
    }
}
