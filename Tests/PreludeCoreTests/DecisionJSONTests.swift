import Testing

@testable import PreludeCore

/// `Decision.writeJSON` must write exactly the bytes of `jsonValue.serializedBytes()`: the decide endpoint writes
/// the former, and the documented (and client-tested) form is the latter.
@Suite struct DecisionJSONTests {
    static let now = DecisionEngineTests.now

    /// Every decision the engine makes over features × strategies × styles × statuses × availability × histories.
    static func engineDecisions() -> [Decision] {
        let histories: [[CadenceKind: ScreenHistory]] = [
            [:],
            [.prime: ScreenHistory(shownCount: 1, lastShown: now.adding(seconds: -3_600), lastOutcome: .dismissed)],
            [.prime: ScreenHistory(shownCount: 9, lastShown: now.adding(seconds: -3_600))],
            [.prime: ScreenHistory(shownCount: 1, lastShown: now, lastOutcome: .continued)],
            [.settings: ScreenHistory(shownCount: 1, lastShown: now.adding(seconds: -0.25), lastOutcome: .dismissed)],
            [.settings: ScreenHistory(shownCount: 5, lastShown: now)],
            [.upgrade: ScreenHistory(shownCount: 1, lastShown: now.adding(seconds: -60))],
        ]
        var decisions: [Decision] = []
        for feature in Feature.allCases {
            for strategy in Strategy.allCases {
                for style in PrimingStyle.allCases {
                    var policy = DecisionEngineTests.makePolicy(
                        feature, strategy: strategy, style: style,
                        partial: [.limited: .limitedPicker, .provisional: .upgrade, .whenInUse: .upgrade])
                    if style == .twoButton { policy.variant = nil }
                    for status in AuthorizationStatus.allCases {
                        for available in [true, false] {
                            for (offset, history) in histories.enumerated() {
                                let state = ClientState(
                                    feature: feature, status: status, available: available,
                                    osVersion: offset == 2 ? nil : SemanticVersion(major: 18, minor: 1),
                                    history: history, trackingPromptShown: offset == 3)
                                if let decision = try? DecisionEngine.decide(policy: policy, state: state, now: now) {
                                    decisions.append(decision)
                                }
                            }
                        }
                    }
                }
            }
        }
        // The access paths: a launch-time request the policy does not allow, and a use case the picker serves.
        for (access, origin) in [(FeatureAccess(), RequestOrigin.launch), (FeatureAccess(useCase: .pick), .featureUse)]
        {
            var policy = DecisionEngineTests.makePolicy(.photos)
            policy.access = access
            let state = ClientState(feature: .photos, status: .denied, origin: origin)
            if let decision = try? DecisionEngine.decide(policy: policy, state: state, now: now) {
                decisions.append(decision)
            }
        }
        return decisions
    }

    @Test func engineDecisionsWriteTheirJSONValueBytes() {
        let decisions = Self.engineDecisions()
        // Every action and reason the engine can produce shows up, so every branch of writeJSON is exercised.
        #expect(Set(decisions.map(\.action)).count == DecisionAction.allCases.count)
        #expect(decisions.contains { $0.eligibleAt != nil && $0.settingsDelayMs == nil })
        for decision in decisions {
            var written: [UInt8] = []
            decision.writeJSON(to: &written)
            #expect(written == decision.jsonValue.serializedBytes(), "\(decision)")
        }
    }

    @Test(arguments: [
        Decision(feature: .camera, action: .proceed, reason: .authorized),
        Decision(
            feature: .photos, action: .prime, reason: .primeEligible, screen: .prime,
            copy: [.title: "Quote \" backslash \\ newline \n tab \t nul \u{0} del \u{7F}", .cancelLabel: "Später ✓"],
            style: .twoButton, variant: VariantAssignment(experiment: "a\"b", variant: "ü\u{1F}"),
            countsAgainst: .prime, eligibleAt: Instant(secondsSinceEpoch: 1_800_000_000.5), settingsDelayMs: -7,
            leaveScreenFirst: false),
        Decision(
            feature: .contacts, action: .wait, reason: .primeCadenceWaiting, screen: .settings, copy: [:],
            eligibleAt: Instant(secondsSinceEpoch: 9.5e15), settingsDelayMs: Int.min, leaveScreenFirst: true),
        Decision(
            feature: .tracking, action: .deniedScreen, reason: .trackingAskedOnce, screen: .denied,
            copy: [.message: "only the message", .caption: "not a field of this screen"],
            eligibleAt: Instant(secondsSinceEpoch: -12), settingsDelayMs: Int.max, events: AnalyticsPlan()),
        Decision(
            feature: .motion, action: .upgrade, reason: .partialUpgradeEligible,
            eligibleAt: Instant(secondsSinceEpoch: .infinity),
            events: AnalyticsPlan(onContinue: .upgradeAccepted, onDenied: .systemDenied)),
    ])
    func handBuiltDecisionsWriteTheirJSONValueBytes(decision: Decision) {
        var written: [UInt8] = Array("prefix".utf8)
        decision.writeJSON(to: &written)
        #expect(written == Array("prefix".utf8) + decision.jsonValue.serializedBytes())
    }

    @Test(arguments: [0, 7, -7, 10, 1_000_000_007, Int.max, Int.min, Int.min + 1])
    func integersAreWrittenAsStringSpellsThem(value: Int) {
        var written: [UInt8] = []
        JSONValue.writeInteger(value, to: &written)
        #expect(String(decoding: written, as: UTF8.self) == String(value))
        #expect(JSONValue.integer(value).serialized() == String(value))
    }
}
