import Testing

@testable import PreludeCore

/// An experiment's audience (`condition`, issue 38): only installs matching it are enrolled; validated, linted,
/// keyed and served like targeting conditions.
@Suite struct ExperimentAudienceTests {
    static let audience = """
        {"segments": {"engaged": {"sessionCount": {"$gte": 3}}},
         "experiments": [{"key": "mic", "feature": "microphone", "condition": {"$inSegment": "engaged"},
                          "variants": [{"name": "direct", "weight": 100, "set": {"strategy": "direct"}}]}]}
        """

    static func context(sessions: Int?, install: String = "install-1") throws -> ClientContext {
        var context = try ConditionPolicyTests.context(sessions.map { ["sessionCount": .integer($0)] } ?? [:])
        context.installId = install
        return context
    }

    @Test func onlyInstallsInTheAudienceAreEnrolled() throws {
        let validation = try ConditionPolicyTests.document(Self.audience)
        let document = try #require(validation.document, "\(validation.problems)")
        let engaged = try Self.context(sessions: 3)
        let casual = try Self.context(sessions: 2)
        let silent = try Self.context(sessions: nil)

        let inside = try #require(PolicyResolver.resolve(.microphone, in: document, context: engaged))
        #expect(inside.variant == VariantAssignment(experiment: "mic", variant: "direct"))
        #expect(inside.strategy == .direct)
        for outsider in [casual, silent] {
            let outside = try #require(PolicyResolver.resolve(.microphone, in: document, context: outsider))
            #expect(outside.variant == nil)
            #expect(outside.strategy == .prime, "the feature's own settings")
        }
        // The resolved policy's assignments say the same.
        #expect(PolicyResolver.resolve(document, context: engaged).experiments.first?.variant == "direct")
        #expect(PolicyResolver.resolve(document, context: casual).experiments.first?.variant == nil)
    }

    @Test func withoutAnAudienceEveryInstallIsEnrolledAndTheBytesAreUnchanged() throws {
        let document = try #require(PolicyValidator.validate(try PolicyFixtures.minimal()).document)
        #expect(document.experiments[0].condition == nil)
        #expect(document.jsonValue["experiments"]?[0]?["condition"] == nil)
        #expect(!document.hasServerOnlyMembers)
        let resolved = PolicyResolver.resolve(.microphone, in: document, context: try Self.context(sessions: nil))
        #expect(resolved?.variant != nil)
    }

    @Test func theAudienceRoundTripsAndKeysTheAttributesItReads() throws {
        let document = try #require(try ConditionPolicyTests.document(Self.audience).document)
        let again = PolicyValidator.validate(document.jsonValue)
        #expect(again.problems.isEmpty)
        #expect(again.document == document)
        #expect(document.jsonValue["experiments"]?[0]?["condition"] == ["$inSegment": "engaged"])

        let shape = ResolutionKeyShape(document)
        #expect(shape.attributesRead == ["sessionCount"])
        let inside = ResolutionKey(context: try Self.context(sessions: 4), shape: shape)
        let outside = ResolutionKey(context: try Self.context(sessions: 1), shape: shape)
        #expect(inside.variants == [0])
        #expect(outside.variants == [-1], "an install outside the audience draws no variant")
        #expect(inside != outside)
    }

    @Test func audienceProblemsAreNamedByPointer() throws {
        let validation = try ConditionPolicyTests.document(
            """
            {"segments": {"engaged": {"sessionCount": {"$gte": 3}}},
             "experiments": [{"key": "mic", "feature": "microphone",
                              "condition": {"$or": [{"$inSegment": "engagd"}, {"n": {"$in": 3}}], "m": {"$gtee": 1}},
                              "variants": [{"name": "a", "weight": 100}]}]}
            """)
        #expect(validation.document == nil)
        let pointers = validation.problems.filter { $0.code == .invalidCondition }.map(\.pointer.description).sorted()
        #expect(
            pointers == [
                "/experiments/0/condition/$or/0/$inSegment", "/experiments/0/condition/$or/1/n/$in",
                "/experiments/0/condition/m/$gtee",
            ])
        let unknown = validation.problems.first { $0.pointer.description.hasSuffix("$inSegment") }
        #expect(unknown?.message.contains("engaged") == true, "the closest segment name")
    }

    @Test func anAudienceUsesItsSegmentAndIsLintedForUndeclaredAttributes() throws {
        let validation = PolicyValidator.validate(
            try PolicyFixtures.minimal(
                patchedWith: """
                    {"attributes": {"sessionCount": "number"},
                     "segments": {"engaged": {"sessionCount": {"$gte": 3}}},
                     "experiments": [{"key": "mic", "feature": "microphone",
                                      "condition": {"$inSegment": "engaged", "plna": "pro"},
                                      "variants": [{"name": "a", "weight": 100}]}]}
                    """))
        let document = try #require(validation.document, "\(validation.problems)")
        let findings = CopyLinter.lint(document).filter { $0.ruleId.hasPrefix("CN-") }
        #expect(findings.map { "\($0.ruleId) \($0.pointer)" } == ["CN-2 /experiments/0/condition"])
        #expect(findings.first?.message.contains("plna") == true)
    }

    @Test func clientsBeforeAudiencesRefuseTheServedDocument() throws {
        // Without segments, the client form gains an empty `segments`, which clients before 0.3.0 refuse (they
        // would skip the experiment's unknown `condition` and enrol everyone).
        let bare = try #require(
            try ConditionPolicyTests.document(
                """
                {"experiments": [{"key": "mic", "feature": "microphone", "condition": {"plan": "pro"},
                                  "variants": [{"name": "a", "weight": 100}]}]}
                """
            ).document)
        #expect(bare.hasServerOnlyMembers)
        #expect(bare.jsonValue["segments"] == nil)
        #expect(bare.clientJSONValue["segments"] == .object(JSONObject()))
        let served = PolicyValidator.validate(bare.clientJSONValue, unknownMembers: .skippedInExperiments)
        #expect(served.document?.experiments == bare.experiments)

        // With segments, the document already is one they refuse: the client form is the canonical one.
        let segmented = try #require(try ConditionPolicyTests.document(Self.audience).document)
        #expect(!segmented.hasServerOnlyMembers)
        #expect(segmented.clientJSONValue == segmented.jsonValue)
    }

    @Test func thePreviewShowsEveryArmWhateverTheAudience() throws {
        let document = try #require(try ConditionPolicyTests.document(Self.audience).document)
        let preview = PreviewCatalogue.screens(of: document).filter { $0.feature == .microphone }
        let arm = preview.first { $0.variant.id == "experiment:mic:direct" }
        #expect(arm?.variant.label == "mic: direct · segment engaged")
    }
}
