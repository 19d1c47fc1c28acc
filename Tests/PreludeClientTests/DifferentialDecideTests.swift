import Foundation
import PreludeClient
import PreludeCore
import PreludeHTTP
import PreludeStorage
import PreludeStore
import PreludeTestSupport
import Synchronization
import Testing

@testable import PreludeService

/// For every generated client state, the client's offline answer equals the server's `POST /decide` body byte
/// for byte: the server's real routes (in-process, with its clock pinned to the instant the client decides at)
/// against an ``OfflineDecider`` built from the server's own `/policy/document` bytes and ETag.
@Suite struct DifferentialDecideTests {
    /// The server side: the public routes over a database holding `policyText` as app `demo`, clock pinned.
    final class Server {
        let router: Router
        /// The server's clock, set before each request.
        final class PinnedClock: Sendable {
            let seconds = Mutex<Double>(0)
        }
        let now = PinnedClock()
        let directory: String

        init(policyText: String) throws {
            directory = (FileManager.default.temporaryDirectory.path as NSString)
                .appendingPathComponent("prelude-diff-\(UUID().uuidString)")
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let database = try Database(path: directory + "/prelude.sqlite", readerCount: 1)
            _ = try Migrator(
                migrations: try MigrationCatalog.load(directory: ClientFixture.repositoryRoot + "/migrations")
            )
            .migrate(database)
            _ = try DemoSeeder.seedIfEmpty(database, documentText: policyText, sourcePath: "differential.json")
            let store = PolicyStore(database: database)
            try store.loadAll()
            var router = Router()
            let clock = now
            PublicRoutes.register(
                on: &router, store: store, events: EventIngestor(database: database),
                clock: ServiceClock { Int64((clock.seconds.withLock { $0 } * 1000).rounded()) })
            self.router = router
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        /// The live document and its revision, as the client fetches them (`/policy/document` and its ETag).
        func document() throws -> (PolicyDocument, Int) {
            let fetched = try handle(.get, "/v1/apps/demo/policy/document")
            let etag = try #require(fetched.headers["ETag"])
            let document = try #require(PolicyValidator.validate(bytes: fetched.body).document)
            return (document, try #require(Int(etag.dropFirst(2).prefix { $0.isNumber })))
        }

        func handle(_ method: HTTPMethod, _ path: String, body: [UInt8] = [], headers: [(String, String)] = [])
            throws -> HTTPResponse
        {
            guard case .found(let route, let parameters) = router.match(method: method, path: path) else {
                throw HTTPTestFailure(description: "no route for \(path)")
            }
            var fields = HTTPHeaders()
            for (name, value) in headers { fields.add(name, value) }
            let request = HTTPRequest(
                method: method, path: path, headers: fields, body: body, pathParameters: parameters)
            do {
                return try route.handler(request)
            } catch let problem as ProblemDetails {
                // The body: the problems' pointers, space-separated (what the one-door test compares).
                return HTTPResponse(
                    status: problem.status, body: Array(problem.errors.map(\.pointer).joined(separator: " ").utf8))
            }
        }
    }

    struct HTTPTestFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// The policies compared: the demo, one configuring every feature with targeting, experiments (strategy,
    /// cadence, settings variants, partial coverage) and partial grants, a strict one (short cadences, caps), one
    /// with conditions, and one with rollouts that have an audience (running and completed).
    static let policies: [(String, String)] = [
        ("demo", ClientFixture.demoPolicyText), ("every-feature", PolicyVariants.everyFeature),
        ("strict", PolicyVariants.strict), ("conditioned", PolicyVariants.conditioned),
        ("rollouts", PolicyVariants.rollouts),
    ]

    @Test(arguments: [0, 1, 2, 3, 4])
    func offlineDecisionsEqualTheServersByteForByte(_ index: Int) throws {
        let (name, text) = Self.policies[index]
        #expect(PolicyValidator.validate(text: text).problems.map(\.description) == [], "policy \(name)")
        let server = try Server(policyText: text)

        // The client's copy is what the server serves, as the client fetches it.
        let (document, revision) = try server.document()

        var random = SplitMix64(state: 0x5EED_0000 + UInt64(index))
        var compared = 0
        var refused = 0
        var waited = 0
        var inRollout = 0
        let features = document.orderedFeatures.map(\.feature)
        for _ in 0..<3_000 {
            let (context, contextJSON, headers) = Self.randomContext(&random)
            var states: [ClientState] = []
            var order = features
            for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, random.below(i + 1)) }
            for feature in order.prefix(1 + random.below(4)) {
                states.append(Self.randomState(feature, &random))
            }
            let now = 1_800_000_000 + Double(random.below(90 * 86400)) + Double(random.below(1000)) / 1000
            server.now.seconds.withLock { $0 = now }
            let body = Array(
                "{\(contextJSON)\"features\":[\(states.map(Self.json).joined(separator: ","))]}".utf8)
            let answer = try server.handle(
                .post, "/v1/apps/demo/decide", body: body, headers: [("Content-Type", "application/json")] + headers)

            let decider = OfflineDecider(document: document, revision: revision, context: context)
            let offline: [UInt8]?
            do {
                offline = try decider.responseBody(states, now: Instant(secondsSinceEpoch: now))
            } catch {
                offline = nil
            }
            if answer.status == .ok {
                #expect(
                    offline == answer.body,
                    "\(name): \(String(decoding: body, as: UTF8.self)) at \(now)\nserver \(String(decoding: answer.body, as: UTF8.self))\nclient \(offline.map { String(decoding: $0, as: UTF8.self) } ?? "threw")"
                )
                compared += states.count
                if String(decoding: answer.body, as: UTF8.self).contains("momentNotReached") { waited += 1 }
                if String(decoding: answer.body, as: UTF8.self).contains("\"reminders-direct\"") { inRollout += 1 }
            } else {
                // A state no device can report: the server refuses the request, the client throws.
                #expect(answer.status == .unprocessableContent, "\(name): \(String(decoding: body, as: UTF8.self))")
                #expect(offline == nil, "\(name): the client decided what the server refused")
                refused += 1
            }
        }
        #expect(compared > 3_000)
        #expect(refused > 100)
        // Ask rules hold some clients back: the demo's notifications-moment arm, and the conditioned policy's rules.
        if name == "demo" || name == "conditioned" || name == "rollouts" {
            #expect(waited > 10, "\(name): \(waited) answers waited for a moment")
        }
        if name == "rollouts" { #expect(inRollout > 10, "\(inRollout) answers enrolled in the running rollout") }
    }

    /// The contract once: for the same policy, states and instant, `POST /decide`, both OFREP endpoints and the
    /// client's ``OfflineDecider`` give the same decisions and refuse the same states (decide with the same
    /// pointers, OFREP with INVALID_CONTEXT naming the same error): all four call the core's one decide function.
    @Test(arguments: [0, 1, 2, 3, 4])
    func decideOFREPAndTheOfflineDeciderAgreeOnDecisionsAndErrors(_ index: Int) throws {
        let (name, text) = Self.policies[index]
        let server = try Server(policyText: text)
        let (document, revision) = try server.document()
        var random = SplitMix64(state: 0x0F2E_0000 + UInt64(index))
        var refused = 0
        var decided = 0
        let features = document.orderedFeatures.map(\.feature)
        for _ in 0..<400 {
            let (context, contextJSON, headers) = Self.randomContext(&random)
            var order = features
            for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, random.below(i + 1)) }
            let states = order.prefix(1 + random.below(4)).map { Self.randomState($0, &random) }
            let now = 1_800_000_000 + Double(random.below(90 * 86400))
            server.now.seconds.withLock { $0 = now }
            let offline = OfflineDecider(document: document, revision: revision, context: context)
                .decisions(states, now: Instant(secondsSinceEpoch: now))
            let failures = offline.compactMap { result -> DecideContract.Failure? in
                if case .failure(let failure) = result { return failure }
                return nil
            }
            let json = ("Content-Type", "application/json")
            let decideBody = "{\(contextJSON)\"features\":[\(states.map(Self.json).joined(separator: ","))]}"
            let answer = try server.handle(
                .post, "/v1/apps/demo/decide", body: Array(decideBody.utf8), headers: [json] + headers)
            if failures.isEmpty {
                #expect(answer.status == .ok, "\(name): \(decideBody)")
                decided += states.count
            } else {
                #expect(answer.status == .unprocessableContent, "\(name): \(decideBody)")
                #expect(
                    String(decoding: answer.body, as: UTF8.self)
                        == failures.map(\.pointer.description).joined(separator: " "), "\(name): \(decideBody)")
                refused += 1
            }

            // OFREP: decide's context under OFREP's names (targetingKey, attributes as context members).
            guard case .object(var decide) = try JSONValue(parsing: Array(decideBody.utf8)),
                let install = decide["installId"]
            else { continue }
            var ofrepContext = JSONObject()
            ofrepContext["targetingKey"] = install
            for name in ["platform", "os", "appVersion", "locale", "moments"] { ofrepContext[name] = decide[name] }
            for (name, value) in decide["attributes"]?.objectValue ?? JSONObject() { ofrepContext[name] = value }
            decide["features"] = nil
            var byFeature = JSONObject()
            for state in states {
                var members = try #require(JSONValue(parsing: Array(Self.json(state).utf8)).objectValue)
                members["feature"] = nil
                byFeature[state.feature.rawValue] = .object(members)
            }
            var bulkContext = ofrepContext
            bulkContext["features"] = .object(byFeature)
            let bulk = try server.handle(
                .post, "/v1/apps/demo/ofrep/v1/evaluate/flags",
                body: JSONValue.object(JSONObject([("context", .object(bulkContext))])).serializedBytes(),
                headers: [json] + headers)
            #expect(bulk.status == .ok, "\(name): \(decideBody)")
            let flags = try JSONValue(parsing: bulk.body).objectValue?["flags"]?.arrayValue ?? []
            for (state, result) in zip(states, offline) {
                let flag = flags.first { $0.objectValue?["key"]?.stringValue == state.feature.rawValue }
                Self.expectSame(flag, result, "\(name) bulk: \(decideBody)")
            }
            // One flag: the first state's members in the context itself.
            var singleContext = ofrepContext
            for (member, value) in byFeature[states[0].feature.rawValue]?.objectValue ?? JSONObject() {
                singleContext[member] = value
            }
            let single = try server.handle(
                .post, "/v1/apps/demo/ofrep/v1/evaluate/flags/\(states[0].feature.rawValue)",
                body: JSONValue.object(JSONObject([("context", .object(singleContext))])).serializedBytes(),
                headers: [json] + headers)
            #expect(single.status == (offline[0].isSuccess ? .ok : .badRequest), "\(name): \(decideBody)")
            Self.expectSame(try JSONValue(parsing: single.body), offline[0], "\(name) single: \(decideBody)")
        }
        #expect(decided > 300)
        #expect(refused > 20)
    }

    /// An OFREP evaluation says what the one decide function said: the decision as its value, or INVALID_CONTEXT
    /// naming the error.
    static func expectSame(
        _ evaluation: JSONValue?, _ result: Result<Decision, DecideContract.Failure>, _ comment: String
    ) {
        let object = evaluation?.objectValue
        switch result {
        case .success(let decision):
            #expect(object?["value"] == (try? JSONValue(parsing: decision.jsonValue.serializedBytes())), "\(comment)")
        case .failure(let failure):
            #expect(object?["errorCode"]?.stringValue == "INVALID_CONTEXT", "\(comment)")
            #expect(object?["errorDetails"]?.stringValue?.hasSuffix(failure.error.description) == true, "\(comment)")
        }
    }

    static func randomContext(_ random: inout SplitMix64) -> (ClientContext, String, [(String, String)]) {
        var context = ClientContext()
        var json = ""
        var headers: [(String, String)] = []
        func pick<T>(_ options: [T]) -> T { options[random.below(options.count)] }
        if let platform = pick([Platform.ios, .ios, .ipados, .macos, nil]) {
            context.platform = platform
            json += "\"platform\":\"\(platform.rawValue)\","
        }
        if let os = pick(["13.0", "14.0", "15.2", "16.4", "17.0", "17.4", "18.0", "18.1", nil]) {
            context.osVersion = SemanticVersion(os)
            json += "\"os\":\"\(os)\","
        }
        if let app = pick(["1.0.0", "1.9.9", "2.0.0", "2.3.0", nil]) {
            context.appVersion = SemanticVersion(app)
            json += "\"appVersion\":\"\(app)\","
        }
        if let locale = pick(["en", "fr", "fr-CA", "ja", "zh-Hant-TW", "zh-Hans", "de", nil, nil]) {
            context.locale = locale
            json += "\"locale\":\"\(locale)\","
        } else if let accept = pick(["fr-CA,fr;q=0.9,en;q=0.5", "ja", "de-DE, zh-Hant;q=0.8", nil]) {
            context.acceptLanguage = accept
            headers.append(("Accept-Language", accept))
        }
        if random.chance(0.85) {
            let install = "install-\(random.below(100_000))"
            context.installId = install
            json += "\"installId\":\"\(install)\","
        }
        // Attributes and moments (issue 38): what the conditioned policy reads, and others it does not.
        var attributes: [String] = []
        func attribute(_ name: String, _ value: AttributeValue, _ text: String) {
            guard random.chance(0.6) else { return }
            try! context.attributes.set(name, to: value)
            attributes.append("\"\(name)\":\(text)")
        }
        let sessions = random.below(12)
        attribute("sessionCount", .integer(sessions), "\(sessions)")
        let plan = pick(["free", "pro", "team", "Pro"])
        attribute("plan", .string(plan), "\"\(plan)\"")
        let beta = random.chance(0.5)
        attribute("beta", .bool(beta), "\(beta)")
        let build = pick(["1.9.0", "2.0.0-beta.1", "2.0.0-alpha", "2.5.1", "3.0.0"])
        attribute("build", .string(build), "\"\(build)\"")
        let launches = random.below(6)
        attribute("prelude.launchCount", .integer(launches), "\(launches)")
        attribute("unrelated", .number(0.5), "0.5")
        if !attributes.isEmpty { json += "\"attributes\":{\(attributes.joined(separator: ","))}," }
        var moments: [String] = []
        for name in ["noteRecorded", "orderPlaced", "other"] where random.chance(0.5) {
            let count = random.below(4)
            context.moments[name] = MomentRecord(count: count)
            moments.append("\"\(name)\":{\"count\":\(count)}")
        }
        if !moments.isEmpty { json += "\"moments\":{\(moments.joined(separator: ","))}," }
        return (context, json, headers)
    }

    static func randomState(_ feature: Feature, _ random: inout SplitMix64) -> ClientState {
        let statuses = AuthorizationStatus.allCases
        var state = ClientState(feature: feature, status: statuses[random.below(statuses.count)])
        if random.chance(0.6) {
            let capabilities = feature.capabilities
            let valid = statuses.filter { capabilities.statuses[$0] != nil }
            state.status = valid[random.below(valid.count)]
        }
        // Only features the catalogue says may be missing can report `available: false` (others are refused).
        let missing = random.chance(0.1)
        state.available = !(missing && feature.capabilities.mayBeUnavailable)
        if random.chance(0.3) {
            state.osVersion = SemanticVersion(["12.0", "14.0", "15.0", "17.0", "18.0", "18.2"][random.below(6)])
        }
        for kind in CadenceKind.allCases where random.chance(0.5) {
            let count = random.below(6)
            let lastShown: Instant? =
                count == 0 || random.chance(0.1)
                ? nil : Instant(secondsSinceEpoch: Double(1_800_000_000 - 30 * 86400 + random.below(100 * 86400)))
            let outcome = random.chance(0.2) ? nil : ScreenOutcome.allCases[random.below(3)]
            state.history[kind] = ScreenHistory(shownCount: count, lastShown: lastShown, lastOutcome: outcome)
        }
        state.trackingPromptShown = random.chance(0.3)
        // The catalogue's diagnostics, where they belong (elsewhere both sides refuse them: CatalogueDecisionTests).
        if feature == .locationWhenInUse || feature == .locationAlways {
            state.insufficientlyInUse = random.chance(0.3)
        }
        if feature == .photos && random.chance(0.6) { state.preventsAutomaticLimitedAccessAlert = random.chance(0.5) }
        return state
    }

    static func json(_ state: ClientState) -> String {
        var members = ["\"feature\":\"\(state.feature.rawValue)\"", "\"status\":\"\(state.status.rawValue)\""]
        members.append("\"available\":\(state.available)")
        if let os = state.osVersion { members.append("\"osVersion\":\"\(os)\"") }
        if !state.history.isEmpty {
            let kinds = state.history.sorted { $0.key.rawValue < $1.key.rawValue }.map { kind, history in
                var fields = ["\"shownCount\":\(history.shownCount)"]
                if let last = history.lastShown { fields.append("\"lastShown\":\(Int(last.secondsSinceEpoch))") }
                if let outcome = history.lastOutcome { fields.append("\"lastOutcome\":\"\(outcome.rawValue)\"") }
                return "\"\(kind.rawValue)\":{\(fields.joined(separator: ","))}"
            }
            members.append("\"history\":{\(kinds.joined(separator: ","))}")
        }
        members.append("\"trackingPromptShown\":\(state.trackingPromptShown)")
        if state.insufficientlyInUse { members.append("\"insufficientlyInUse\":true") }
        if let prevents = state.preventsAutomaticLimitedAccessAlert {
            members.append("\"preventsAutomaticLimitedAccessAlert\":\(prevents)")
        }
        return "{\(members.joined(separator: ","))}"
    }
}

extension Result {
    /// Whether this is a success.
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
