import Testing

@testable import PreludeCore

/// A rollout's audience (issue 38, docs/rollouts.md "Audience"): validated like a rule's condition, and on
/// completion a targeting rule placed after the feature's other rules and before the rollout's carve-outs, so the
/// audience keeps what the new arm showed it and everyone else keeps what they had.
@Suite struct RolloutAudienceTests {
    static let audience: JSONValue = ["$inSegment": "engaged"]
    static let change: JSONValue = ["copy": ["en": ["prime": ["title": "Talk to us"]]]]

    /// The policy without the rollout: a segment, and a rule that sets the same title on iOS 18 and later.
    static func base() throws -> JSONValue {
        try PolicyFixtures.minimal(
            patchedWith: """
                {"segments": {"engaged": {"sessionCount": {"$gte": 3}}},
                 "experiments": null,
                 "features": {"microphone": {"targeting": [
                    {"name": "ios18-title", "when": {"os": ">=18"},
                     "set": {"copy": {"en": {"prime": {"title": "Speak up"}}}}}]}}}
                """)
    }

    /// The rollout served with every audience install in the new arm (coverage 1, weights [0, 100]).
    static func running() throws -> PolicyDocument {
        let json = try base().mergePatch(
            [
                "experiments": [
                    [
                        "key": "mic-audience", "feature": "microphone", "coverage": 1, "condition": audience,
                        "variants": [
                            ["name": "control", "weight": 0], ["name": "rollout", "weight": 100, "set": change],
                        ],
                    ]
                ]
            ])
        let validation = PolicyValidator.validate(json)
        return try #require(validation.document, "\(validation.problems)")
    }

    /// The policy after completion: the base with the audience rule in its place.
    static func completed(rules transform: ([JSONValue]) -> [JSONValue] = { $0 }) throws -> PolicyDocument {
        var json = try base()
        let rules = json["features"]?["microphone"]?["targeting"]?.arrayValue ?? []
        let rule = RolloutAudience.completionRule(experimentKey: "mic-audience", audience: audience, change: change)
        let ordered = transform(
            RolloutAudience.ordered(rules, experimentKey: "mic-audience", audienceRule: rule, keepRules: []))
        json = json.mergePatch(["features": ["microphone": ["targeting": .array(ordered)]]])
        let validation = PolicyValidator.validate(json)
        return try #require(validation.document, "\(validation.problems)")
    }

    static func contexts() throws -> [ClientContext] {
        var contexts: [ClientContext] = []
        for sessions in [nil, 0, 2, 3, 7] as [Int?] {
            for os in ["17.4", "18.0"] {
                var context = try ConditionPolicyTests.context(sessions.map { ["sessionCount": .integer($0)] } ?? [:])
                context.osVersion = SemanticVersion(os)
                context.installId = "install-\(sessions ?? -1)-\(os)"
                contexts.append(context)
            }
        }
        return contexts
    }

    @Test func completionGivesTheAudienceWhatTheNewArmGaveItAndNobodyElse() throws {
        let base = try #require(PolicyValidator.validate(try Self.base()).document)
        let running = try Self.running()
        let completed = try Self.completed()
        var insiders = 0
        for context in try Self.contexts() {
            let during = try #require(PolicyResolver.resolve(.microphone, in: running, context: context))
            let after = try #require(PolicyResolver.resolve(.microphone, in: completed, context: context))
            let without = try #require(PolicyResolver.resolve(.microphone, in: base, context: context))
            if during.variant?.variant == "rollout" {
                insiders += 1
                #expect(after.copy == during.copy, "\(context.attributes)")
                #expect(after.copy[.prime, .title] == "Talk to us", "the new arm's title wins over ios18-title too")
                #expect(after.appliedRules.last == "mic-audience-audience")
            } else {
                #expect(during.variant == nil, "outside the audience: not enrolled")
                #expect(after.copy == without.copy, "\(context.attributes)")
                #expect(!after.appliedRules.contains("mic-audience-audience"))
            }
        }
        #expect(insiders == 4, "sessionCount 3 and 7 on both OS versions")

        // Put first, the audience rule would lose to the feature's own iOS 18 rule: what the order guards.
        let misordered = try Self.completed { rules in Array(rules.reversed()) }
        var engaged = try ConditionPolicyTests.context(["sessionCount": .integer(5)])
        engaged.osVersion = SemanticVersion("18.0")
        #expect(
            PolicyResolver.resolve(.microphone, in: misordered, context: engaged)?.copy[.prime, .title] == "Speak up")
    }

    @Test func theRolloutsOwnRulesAreReplacedInTheirPlace() {
        func rule(_ name: String) -> JSONValue { ["name": .string(name), "set": ["strategy": "prime"]] }
        let ordered = RolloutAudience.ordered(
            [rule("a"), rule("k-audience"), rule("k-keep-de"), rule("b"), rule("other-keep-de")],
            experimentKey: "k", audienceRule: rule("k-audience"), keepRules: [rule("k-keep-fr")])
        #expect(
            ordered.compactMap { $0["name"]?.stringValue } == [
                "a", "b", "other-keep-de", "k-audience", "k-keep-fr",
            ])
        let withoutAudience = RolloutAudience.ordered(
            [rule("a"), rule("k-audience")], experimentKey: "k", audienceRule: nil, keepRules: [])
        #expect(withoutAudience.compactMap { $0["name"]?.stringValue } == ["a"])
    }

    /// CN-1 counts the rollout's audience as a use of its segment, running (the experiment's condition) and
    /// completed (the rule's); CN-2 finds its undeclared attribute in either.
    @Test func theAudienceUsesItsSegmentForTheLinter() throws {
        let findings = { (document: PolicyDocument) in
            CopyLinter.lint(document).filter { $0.ruleId.hasPrefix("CN-") }.map { "\($0.ruleId) \($0.pointer)" }
        }
        #expect(try findings(Self.running()) == ["CN-2 /segments/engaged"])
        #expect(try findings(Self.completed()) == ["CN-2 /segments/engaged"])
        let unused = try #require(PolicyValidator.validate(try Self.base()).document)
        #expect(findings(unused).contains("CN-1 /segments/engaged"), "\(findings(unused))")
    }

    @Test func aCarveOutIsLimitedToTheAudience() {
        let keep: JSONValue = [
            "name": "k-keep-de", "when": ["locales": ["de"]],
            "set": ["copy": ["de": ["prime": ["title": "Alt"]]]],
        ]
        #expect(RolloutAudience.scoped(keep, to: nil) == keep)
        let scoped = RolloutAudience.scoped(keep, to: Self.audience)
        #expect(scoped["when"] == ["locales": ["de"], "condition": ["$inSegment": "engaged"]])
        #expect(scoped["set"] == keep["set"] && scoped["name"] == keep["name"])
    }

    @Test func audienceProblemsAreNamedByPointerRelativeToTheCondition() throws {
        let segments = try #require(PolicyValidator.validate(try Self.base()).document).segmentsByName
        #expect(RolloutAudience.problems(Self.audience, segments: segments).isEmpty)
        let problems = RolloutAudience.problems(
            ["$or": [["$inSegment": "engagd"], ["n": ["$gtee": 1]]]], segments: segments)
        #expect(problems.map(\.pointer.description).sorted() == ["/$or/0/$inSegment", "/$or/1/n/$gtee"])
        #expect(problems.allSatisfy { $0.code == .invalidCondition })
        #expect(problems.first { $0.pointer.description.hasSuffix("$inSegment") }?.message.contains("engaged") == true)
        #expect(RolloutAudience.problems("engaged", segments: segments).map(\.code) == [.typeMismatch])
    }

    @Test func thePreviewNamesTheAudienceThatChoseTheScreen() throws {
        let running = PreviewCatalogue.screens(of: try Self.running()).filter { $0.feature == .microphone }
        #expect(
            running.contains { $0.variant.label == "mic-audience: rollout · segment engaged" },
            "\(Set(running.map(\.variant.label)))")
        let completed = PreviewCatalogue.screens(of: try Self.completed()).filter { $0.feature == .microphone }
        #expect(
            completed.contains { $0.variant.label == "rule mic-audience-audience · segment engaged" },
            "\(Set(completed.map(\.variant.label)))")
    }
}
