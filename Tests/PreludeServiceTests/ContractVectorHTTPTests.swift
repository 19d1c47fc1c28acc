import Foundation
import PreludeCore
import PreludeStore
import PreludeTestSupport
import Synchronization
import Testing

@testable import PreludeService

/// The contract vectors (Tests/ContractVectors) replayed against the real server over HTTP: each step asks
/// `POST /decide` at the step's time (the decide clock is injected), compares the decision, posts the events
/// the decision's plan names for the person's actions, and checks the server stored every one.
@Suite struct ContractVectorHTTPTests {
    let fixture = PublicFixture()

    /// The decide endpoint's clock, moved by the test.
    final class StepClock: Sendable {
        private let seconds = Mutex<Double>(0)
        var now: Double { seconds.withLock { $0 } }
        func set(_ value: Double) { seconds.withLock { $0 = value } }
    }

    @Test func everyVectorReplaysOverHTTP() throws {
        let vectors = try ContractVector.all()
        #expect(vectors.count >= 10)
        let clock = StepClock()
        let service = try PreludeService.start(
            configuration: fixture.configuration(), logger: Logger(level: .error),
            clock: ServiceClock { Int64((clock.now * 1000).rounded()) })
        defer { service.stop() }
        let http = PublicClient(port: service.port)
        var posted = 0
        for vector in vectors {
            #expect(vector.policy == "config/demo-policy.json", "\(vector.name): the server fixture serves the demo")
            var ledger = ContractLedger()
            for (index, step) in vector.steps.enumerated() {
                let label = "\(vector.name) step \(index)"
                let feature = try #require(step.state["feature"]?.stringValue)
                #expect(ledger.mismatches(step.state).isEmpty, "\(label): \(ledger.mismatches(step.state))")
                clock.set(step.at)
                var body = vector.context
                body["features"] = [step.state]
                let response = try http.post("/v1/apps/demo/decide", json: JSONValue.object(body).serialized())
                #expect(response.status == 200, "\(label): \(response.text)")
                let decision = try #require(try JSONValue(parsing: response.text)["decisions"]?[0])
                let mismatches = ContractVector.mismatches(decision, expect: step.expect)
                #expect(mismatches.isEmpty, "\(label): \(mismatches)")
                let events = ContractVector.events(plan: decision["events"], user: step.user)
                #expect(events == step.events, "\(label)")
                if !events.isEmpty {
                    let accepted = try post(
                        events, vector: vector, step: index, feature: feature, decision: decision, http: http)
                    #expect(accepted == events.count, "\(label)")
                    posted += events.count
                }
                ledger.record(decision: decision, feature: feature, at: step.at, user: step.user)
            }
        }
        // Every event a vector names is stored once: the events table holds exactly what the vectors posted.
        let stored = try service.database.read {
            try $0.scalar("SELECT count(*) FROM events WHERE install_id LIKE 'cv-%'", as: Int64.self)
        }
        #expect(stored == Int64(posted))
    }

    /// Posts one step's events, tagged with the decision's variant; returns how many the server accepted.
    private func post(
        _ types: [String], vector: ContractVector, step: Int, feature: String, decision: JSONValue, http: PublicClient
    ) throws -> Int {
        let occurredAt = Int64(Date().timeIntervalSince1970 * 1000)
        let events: [JSONValue] = types.enumerated().map { offset, type in
            var event = JSONObject()
            event["id"] = .string("\(vector.name)-\(step)-\(offset)")
            event["installId"] = vector.context["installId"] ?? "cv-unknown"
            event["type"] = .string(type)
            event["feature"] = .string(feature)
            if let variant = decision["variant"] {
                event["experiment"] = variant["experiment"]
                event["variant"] = variant["variant"]
            }
            event["occurredAt"] = .integer(Int(occurredAt))
            return .object(event)
        }
        let batch: JSONValue = ["events": .array(events)]
        let response = try http.post("/v1/apps/demo/events", json: batch.serialized())
        #expect(response.status == 202, "\(response.text)")
        return try JSONValue(parsing: response.text)["accepted"]?.intValue ?? -1
    }
}
