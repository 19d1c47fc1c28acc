import Testing

@testable import PreludeCore

/// Conditions inside a policy: `when.condition`, segments and `$inSegment`, `ask` rules, what is refused on a write,
/// and what resolution and the engine make of them.
@Suite struct ConditionPolicyTests {
    static func document(_ patch: String) throws -> PolicyValidation {
        PolicyValidator.validate(try PolicyFixtures.minimal(patchedWith: patch))
    }

    static func context(_ attributes: [String: AttributeValue] = [:], moments: [String: Int] = [:]) throws
        -> ClientContext
    {
        var values = ClientAttributes()
        for (name, value) in attributes { try values.set(name, to: value) }
        return ClientContext(
            platform: .ios, osVersion: SemanticVersion("18.0"), locale: "en", installId: "install-1",
            attributes: values, moments: moments.mapValues { MomentRecord(count: $0) })
    }

    static let segmented = """
        {"segments": {
            "engaged": {"sessionCount": {"$gte": 3}},
            "payingEngaged": {"$and": [{"$inSegment": "engaged"}, {"plan": {"$in": ["pro", "team"]}}]}
         },
         "features": {"microphone": {"targeting": [
            {"name": "paying", "when": {"condition": {"$inSegment": "payingEngaged"}}, "set": {"style": "twoButton",
             "copy": {"en": {"prime": {"cancelLabel": "Not Now"}}}}}
         ]}}}
        """

    @Test func aRuleMatchesThroughNestedSegments() throws {
        let validation = try Self.document(Self.segmented)
        let document = try #require(validation.document, "\(validation.problems)")
        let paying = try Self.context(["sessionCount": .integer(4), "plan": .string("pro")])
        let casual = try Self.context(["sessionCount": .integer(2), "plan": .string("pro")])
        #expect(PolicyResolver.resolve(.microphone, in: document, context: paying)?.appliedRules == ["paying"])
        #expect(PolicyResolver.resolve(.microphone, in: document, context: casual)?.appliedRules == [])
        #expect(document.attributesRead == ["sessionCount", "plan"])
    }

    @Test func theCanonicalFormKeepsSegmentsAndConditions() throws {
        let document = try #require(try Self.document(Self.segmented).document)
        let again = PolicyValidator.validate(document.jsonValue)
        #expect(again.problems.isEmpty)
        #expect(again.document == document)
        #expect(document.jsonValue["segments"]?["engaged"] == ["sessionCount": ["$gte": 3]])
    }

    @Test func unknownSegmentsOperatorsAndPatternsAreRefusedWithPointers() throws {
        let validation = try Self.document(
            """
            {"segments": {"engaged": {"sessionCount": {"$gtee": 3}}},
             "features": {"microphone": {"targeting": [
                {"name": "a", "when": {"condition": {"$inSegment": "engagd"}}, "set": {}},
                {"name": "b", "when": {"condition": {"ua": {"$regex": "(a)\\\\1"}}}, "set": {}},
                {"name": "c", "when": {"condition": {"n": {"$in": 3}}}, "set": {}}
             ]}}}
            """)
        let problems = validation.problems.filter { $0.code == .invalidCondition }.map(\.pointer.description).sorted()
        #expect(
            problems == [
                "/features/microphone/targeting/0/when/condition/$inSegment",
                "/features/microphone/targeting/1/when/condition/ua/$regex",
                "/features/microphone/targeting/2/when/condition/n/$in",
                "/segments/engaged/sessionCount/$gtee",
            ])
        #expect(
            validation.problems.first { $0.pointer.description.hasSuffix("$inSegment") }?.message.contains("engaged")
                == true)
    }

    @Test func segmentCyclesAreRefused() throws {
        let validation = try Self.document(
            """
            {"segments": {
                "a": {"$inSegment": "b"}, "b": {"$or": [{"$inSegment": "c"}]}, "c": {"$inSegment": "a"},
                "fine": {"x": 1}, "self": {"$not": {"$inSegment": "self"}}
            }}
            """)
        let cycles = validation.problems.filter { $0.code == .segmentCycle }.map(\.pointer.description).sorted()
        #expect(cycles == ["/segments/a", "/segments/b", "/segments/c", "/segments/self"])
        #expect(!validation.problems.contains { $0.code == .invalidCondition })
    }

    @Test func declaredAttributesRoundTripAndRefuseReservedNames() throws {
        let good = try Self.document(#"{"attributes": {"sessionCount": "number", "plan": "string"}}"#)
        #expect(good.problems.isEmpty)
        #expect(good.document?.attributes == ["sessionCount": .number, "plan": .string])
        let bad = try Self.document(#"{"attributes": {"prelude.launchCount": "number", "x": "colour"}}"#)
        #expect(
            bad.problems.map(\.pointer.description).sorted() == ["/attributes/prelude.launchCount", "/attributes/x"])
    }

    static let orderedTwice = """
        {"features": {"microphone": {"ask": {"after": {"moment": "orderPlaced", "atLeast": 2}}}}}
        """

    @Test func beforeTheMomentTheEngineWaitsWithoutAnInstant() throws {
        let document = try #require(try Self.document(Self.orderedTwice).document)
        let state = ClientState(feature: .microphone, status: .notDetermined, osVersion: SemanticVersion("18.0"))
        let now = Instant(secondsSinceEpoch: 1_800_000_000)
        var decisions: [DecisionAction] = []
        for count in [0, 1, 2, 3] {
            let resolved = try #require(
                PolicyResolver.resolve(
                    .microphone, in: document, context: try Self.context(moments: ["orderPlaced": count])))
            let decision = try DecisionEngine.decide(policy: resolved, state: state, now: now)
            decisions.append(decision.action)
            if count < 2 {
                #expect(decision.reason == .momentNotReached)
                #expect(decision.eligibleAt == nil)
                #expect(decision.screen == nil)
            }
        }
        #expect(decisions == [.wait, .wait, .prime, .prime])
    }

    @Test func theMomentGatesOnlyAsking() throws {
        let document = try #require(try Self.document(Self.orderedTwice).document)
        let resolved = try #require(PolicyResolver.resolve(.microphone, in: document, context: try Self.context()))
        let now = Instant(secondsSinceEpoch: 1_800_000_000)
        for status in [AuthorizationStatus.authorized, .denied, .restricted] {
            let decision = try DecisionEngine.decide(
                policy: resolved, state: ClientState(feature: .microphone, status: status), now: now)
            #expect(decision.reason != .momentNotReached)
        }
    }

    @Test func anAskConditionReadsFactsAndAVariantCanUndoIt() throws {
        let validation = try Self.document(
            """
            {"features": {"microphone": {"ask": {"condition": {"prelude.launchCount": {"$gte": 3}}}}},
             "experiments": [{"key": "mic", "feature": "microphone", "variants": [
                {"name": "a", "weight": 50}, {"name": "b", "weight": 50, "set": {"ask": "anytime"}}]}]}
            """)
        let document = try #require(validation.document, "\(validation.problems)")
        var reachedByVariant: [String: Set<Bool>] = [:]
        for index in 0..<200 {
            var context = try Self.context(["prelude.launchCount": .integer(1)])
            context.installId = "install-\(index)"
            let resolved = try #require(PolicyResolver.resolve(.microphone, in: document, context: context))
            reachedByVariant[resolved.variant?.variant ?? "-", default: []].insert(resolved.momentReached)
        }
        #expect(reachedByVariant == ["a": [false], "b": [true]])
    }

    @Test func resolutionKeysSeeOnlyTheAttributesRead() throws {
        let document = try #require(try Self.document(Self.segmented).document)
        let shape = ResolutionKeyShape(document)
        #expect(shape.attributesRead == ["plan", "sessionCount"])
        let a = ResolutionKey(
            context: try Self.context(["sessionCount": .integer(4), "other": .bool(true)]), shape: shape)
        let b = ResolutionKey(
            context: try Self.context(["sessionCount": .integer(4), "other": .bool(false)]), shape: shape)
        let c = ResolutionKey(context: try Self.context(["sessionCount": .integer(5)]), shape: shape)
        #expect(a.variants == b.variants)
        #expect(a.attributes == b.attributes)
        #expect(a.attributes != c.attributes)
    }

    @Test func attributesRefuseBadNamesValuesAndTheSixtyFifth() throws {
        var attributes = ClientAttributes()
        #expect(throws: AttributeError.invalidName("1abc")) { try attributes.set("1abc", to: .bool(true)) }
        #expect(throws: AttributeError.invalidName("a-b")) { try attributes.set("a-b", to: .bool(true)) }
        #expect(throws: AttributeError.invalidValue("n")) { try attributes.set("n", to: .number(.infinity)) }
        for index in 0..<64 { try attributes.set("a\(index)", to: .integer(index)) }
        #expect(throws: AttributeError.tooMany) { try attributes.set("one.more", to: .bool(true)) }
        try attributes.set("a0", to: .string("replaced"))
        #expect(attributes["a0"] == .string("replaced"))
        #expect(attributes.count == 64)
    }

    @Test func momentsAreConditionValues() throws {
        let (condition, problems) = Condition.compile(["prelude.moment.photoSaved.count": ["$gte": 1]])
        #expect(problems.isEmpty)
        #expect(condition.matches(try Self.context(moments: ["photoSaved": 1])))
        #expect(!condition.matches(try Self.context(moments: ["photoSaved": 0])))
        #expect(!condition.matches(try Self.context()))
    }
}

@Suite struct ConditionLintTests {
    @Test func unusedSegmentsAndUndeclaredAttributesAreWarned() throws {
        let validation = PolicyValidator.validate(
            try PolicyFixtures.minimal(
                patchedWith: """
                    {"attributes": {"sessionCount": "number"},
                     "segments": {"engaged": {"sessionCount": {"$gte": 3}}, "unused": {"plan": "pro"}},
                     "features": {"microphone": {
                        "ask": {"condition": {"prelude.launchCount": {"$gte": 2}, "sesionCount": 1}},
                        "targeting": [{"name": "a", "when": {"condition": {"$inSegment": "engaged"}}, "set": {}}]}}}
                    """))
        let document = try #require(validation.document, "\(validation.problems)")
        let findings = CopyLinter.lint(document).filter { $0.ruleId.hasPrefix("CN-") }
        #expect(
            findings.map { "\($0.ruleId) \($0.pointer)" } == [
                "CN-2 /features/microphone/ask/condition", "CN-1 /segments/unused", "CN-2 /segments/unused",
            ])
        #expect(findings.first?.message.contains("sesionCount") == true)
    }
}

@Suite struct ConditionPreviewTests {
    @Test func thePreviewNamesTheSegmentThatChoseARulesScreens() throws {
        let document = try #require(try ConditionPolicyTests.document(ConditionPolicyTests.segmented).document)
        let labels = Set(
            PreviewCatalogue.screens(of: document).filter { $0.feature == .microphone }.map(\.variant.label))
        #expect(labels.contains("rule paying · segment payingEngaged"), "\(labels.sorted())")
        let (condition, _) = Condition.compile(["sessionCount": ["$gte": 3]])
        #expect(PreviewVariant.describe(condition) == #"when {"sessionCount":{"$gte":3}}"#)
    }
}
