import Testing

@testable import PreludeCore

/// A decision is never a screen without words: for every feature, strategy, style and partial action, a document
/// holding exactly the texts the validator asks for gives every screen the engine can choose its texts, for every
/// state a device can report.
@Suite("Every screen the engine chooses has copy")
struct ScreenCopyCoverageTests {
    static let now = Instant(secondsSinceEpoch: 1_800_000_000)

    /// The fields a client needs to draw `screen` (the optional second labels aside).
    static func requiredFields(_ screen: CopyScreen, style: PrimingStyle?) -> [CopyField] {
        switch screen {
        case .prime:
            style == .twoButton
                ? [.title, .message, .continueLabel, .cancelLabel] : [.title, .message, .continueLabel]
        case .settings: [.title, .message, .openLabel, .cancelLabel]
        case .denied, .restricted, .unsupported, .servicesOff: [.title, .message]
        case .upgrade: [.title, .message, .continueLabel]
        case .button: [.caption]
        }
    }

    /// Every combination of partial actions the feature allows, one action per partial status.
    static func partialCombinations(_ capabilities: FeatureCapabilities) -> [[String: String]] {
        var combinations: [[String: String]] = [[:]]
        for status in capabilities.partialStatuses {
            combinations = combinations.flatMap { partial in
                capabilities.partialActions(for: status).map { action in
                    partial.merging([status.rawValue: action.rawValue]) { _, new in new }
                }
            }
        }
        return combinations
    }

    /// A document for one configuration with exactly the texts `copy.missing` asks for, validated.
    static func completedDocument(
        _ feature: Feature, strategy: Strategy, style: PrimingStyle, partial: [String: String], minimumOS: String?
    ) throws -> PolicyDocument {
        var app = JSONObject([("id", "coverage"), ("name", "Coverage")])
        if let minimumOS { app["minimumOS"] = .string(minimumOS) }
        var body = JSONObject([("strategy", .string(strategy.rawValue)), ("style", .string(style.rawValue))])
        if !partial.isEmpty {
            body["partial"] = .object(
                JSONObject(partial.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
        }
        func document(_ copy: JSONObject) -> JSONValue {
            var entry = body
            if !copy.isEmpty { entry["copy"] = .object(JSONObject([("en", .object(copy))])) }
            return .object(
                JSONObject([
                    ("schemaVersion", 1), ("app", .object(app)),
                    ("features", .object(JSONObject([(feature.rawValue, .object(entry))]))),
                ]))
        }
        var copy = JSONObject()
        let first = PolicyValidator.validate(document(copy))
        for problem in first.problems {
            try #require(problem.code == .missingCopy, "\(problem)")
            let tokens = problem.pointer.tokens
            let screen = tokens[tokens.count - 2]
            let field = tokens[tokens.count - 1]
            var texts = copy[screen]?.objectValue ?? JSONObject()
            texts[field] = .string("\(screen) \(field).")
            copy[screen] = .object(texts)
        }
        let completed = PolicyValidator.validate(document(copy))
        try #require(completed.problems.isEmpty, "\(completed.problems.map(\.description))")
        return try #require(completed.document)
    }

    @Test(arguments: Feature.allCases)
    func everyChosenScreenHasItsTexts(feature: Feature) throws {
        let capabilities = feature.capabilities
        let histories: [[CadenceKind: ScreenHistory]] = [
            [:],
            [.prime: ScreenHistory(shownCount: 1, lastShown: Self.now, lastOutcome: .leftWithoutContinuing)],
            [
                .settings: ScreenHistory(shownCount: 1, lastShown: Self.now, lastOutcome: .dismissed),
                .upgrade: ScreenHistory(shownCount: 1, lastShown: Self.now, lastOutcome: .dismissed),
            ],
        ]
        var screensSeen: Set<CopyScreen> = []
        for strategy in capabilities.strategies {
            for style in PrimingStyle.allCases {
                for partial in Self.partialCombinations(capabilities) {
                    for minimumOS in [nil, "15.0"] {
                        let document = try Self.completedDocument(
                            feature, strategy: strategy, style: style, partial: partial, minimumOS: minimumOS)
                        let lowest = document.app.effectiveMinimumOS
                        let versions: [SemanticVersion?] = [
                            nil, lowest, SemanticVersion(major: 14), SemanticVersion(major: 18, minor: 1),
                        ]
                        for os in versions {
                            let context = ClientContext(platform: .ios, osVersion: os)
                            let policy = try #require(PolicyResolver.resolve(feature, in: document, context: context))
                            for status in capabilities.statuses.keys {
                                for available in [true, false] {
                                    for history in histories {
                                        for trackingPromptShown in [false, true]
                                        where trackingPromptShown == false || capabilities.promptRecordedByClient {
                                            let state = ClientState(
                                                feature: feature, status: status, available: available, osVersion: os,
                                                history: history, trackingPromptShown: trackingPromptShown)
                                            guard
                                                let decision = try? DecisionEngine.decide(
                                                    policy: policy, state: state, now: Self.now)
                                            else { continue }
                                            let needsScreen: Set<DecisionAction> = [
                                                .proceed, .wait, .systemPrompt, .permissionless,
                                            ]
                                            #expect(
                                                needsScreen.contains(decision.action) == (decision.screen == nil),
                                                "\(decision)")
                                            guard let screen = decision.screen else { continue }
                                            screensSeen.insert(screen)
                                            for field in Self.requiredFields(screen, style: decision.style) {
                                                #expect(
                                                    decision.copy[field]?.isEmpty == false,
                                                    "\(feature) \(status) available=\(available) os=\(os.map(\.description) ?? "nil") \(strategy) \(partial): \(decision.action) \(screen) has no \(field)"
                                                )
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        // The sweep reaches the screens that matter for this feature.
        #expect(screensSeen.contains(.prime) && screensSeen.contains(.denied))
        #expect(
            screensSeen.contains(.unsupported)
                == (capabilities.mayBeUnavailable || capabilities.introduced > AppInfo.defaultMinimumOS))
    }
}
