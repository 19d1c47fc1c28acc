import PreludeTestSupport
import Testing

@testable import PreludeCore

/// The contract vectors (Tests/ContractVectors) replayed offline through the core's resolver and engine — what
/// a client library does on the device — with the vectors' ledger and event rules checked step by step.
@Suite struct ContractVectorEngineTests {
    static let vectors: [ContractVector] = (try? ContractVector.all()) ?? []

    @Test func vectorsAreThere() throws {
        _ = try ContractVector.all()
        #expect(Self.vectors.count >= 10)
    }

    @Test(arguments: vectors.map(\.name))
    func vectorReplaysThroughTheEngine(name: String) throws {
        let vector = try #require(Self.vectors.first { $0.name == name })
        let text = try String(contentsOfFile: ContractVector.repositoryRoot + "/" + vector.policy, encoding: .utf8)
        let document = try #require(PolicyValidator.validate(text: text).document)
        let context = ClientContext(
            platform: vector.context["platform"]?.stringValue.flatMap(Platform.init(rawValue:)),
            osVersion: vector.context["os"]?.stringValue.flatMap(SemanticVersion.init),
            appVersion: vector.context["appVersion"]?.stringValue.flatMap(SemanticVersion.init),
            locale: vector.context["locale"]?.stringValue, installId: vector.context["installId"]?.stringValue,
            region: vector.context["region"]?.stringValue.flatMap(StorefrontRegion.init))
        var ledger = ContractLedger()
        for (index, step) in vector.steps.enumerated() {
            let (decoded, problems) = ClientState.decode(step.state)
            var state = try #require(decoded, "step \(index): \(problems)")
            if state.osVersion == nil, context.platform?.usesIOSVersions ?? true { state.osVersion = context.osVersion }
            let feature = state.feature
            #expect(ledger.mismatches(step.state).isEmpty, "step \(index): \(ledger.mismatches(step.state))")
            let policy = try #require(PolicyResolver.resolve(feature, in: document, context: context))
            let decision = try DecisionEngine.decide(
                policy: policy, state: state, now: Instant(secondsSinceEpoch: step.at)
            ).jsonValue
            let mismatches = ContractVector.mismatches(decision, expect: step.expect)
            #expect(mismatches.isEmpty, "step \(index): \(mismatches)")
            #expect(
                ContractVector.events(plan: decision["events"], user: step.user) == step.events, "step \(index)")
            ledger.record(decision: decision, feature: feature.rawValue, at: step.at, user: step.user)
        }
    }
}
