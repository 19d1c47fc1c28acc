import PreludeCore
import Testing

/// What clients receive and how they read it (docs/policy.md, "What clients receive"): the client document leaves
/// out the analysis settings only the server reads, so a client release that refuses unknown members (0.1.0) keeps
/// accepting it; and since 0.2.0 a client skips unknown members of experiments and variants.
@Suite struct ClientCompatibilityTests {
    static let twoArms = #"[{"name": "a", "weight": 50}, {"name": "b", "weight": 50}]"#

    static func document(experiment: String) throws -> PolicyDocument {
        let json = try PolicyFixtures.minimal(patchedWith: "{\"experiments\": [\(experiment)]}")
        let validation = PolicyValidator.validate(json)
        #expect(validation.problems.isEmpty, "\(validation.problems)")
        return try #require(validation.document)
    }

    @Test func theClientDocumentIsTheDocumentWithoutItsAnalysisSettings() throws {
        let named = try Self.document(
            experiment: #"{"key": "mic", "feature": "microphone", "alpha": 0.01, "minimumEffect": 0.05, "variants": "#
                + Self.twoArms + "}")
        let unnamed = try Self.document(
            experiment: #"{"key": "mic", "feature": "microphone", "variants": "# + Self.twoArms + "}")
        #expect(named.hasServerOnlyMembers && !unnamed.hasServerOnlyMembers)
        // The stored (admin) form keeps them; the client form is byte for byte the document that never named them.
        #expect(named.jsonValue["experiments"]?[0]?["alpha"] == .number(0.01))
        #expect(named.jsonValue["experiments"]?[0]?["minimumEffect"] == .number(0.05))
        #expect(named.clientJSONValue.serializedBytes() == unnamed.jsonValue.serializedBytes())
        #expect(unnamed.clientJSONValue.serializedBytes() == unnamed.jsonValue.serializedBytes())
        // Nothing else is left out: the client form decodes to the same assignment inputs.
        let client = try #require(PolicyValidator.validate(named.clientJSONValue).document)
        #expect(client.experiments.map(\.variants) == named.experiments.map(\.variants))
        #expect(client.experiments.map(\.coverage) == named.experiments.map(\.coverage))
        #expect(client.experiments.map(\.hashSeed) == named.experiments.map(\.hashSeed))
    }

    /// The server refuses what it does not know (a typo is an error); a client skips it inside experiments.
    @Test func aClientSkipsUnknownMembersOfExperimentsAndVariantsOnly() throws {
        let future = try PolicyFixtures.minimal(
            patchedWith: #"{"experiments": [{"key": "mic", "feature": "microphone", "holdoutDays": 7, "variants": "#
                + #"[{"name": "a", "weight": 50, "note": "control"}, {"name": "b", "weight": 50}]}]}"#)
        let strict = PolicyValidator.validate(future)
        #expect(
            Set(strict.problems.filter { $0.code == .unknownMember }.map(\.pointer.description)) == [
                "/experiments/0/holdoutDays", "/experiments/0/variants/0/note",
            ])
        let lenient = PolicyValidator.validate(future, unknownMembers: .skippedInExperiments)
        #expect(lenient.problems.isEmpty, "\(lenient.problems)")
        #expect(lenient.document?.experiments.first?.variants.map(\.name) == ["a", "b"])
        // Bytes, as the client reads a fetched body.
        let bytes = future.serializedBytes()
        #expect(PolicyValidator.validate(bytes: bytes, unknownMembers: .skippedInExperiments).isValid)

        // Outside experiments, and inside a variant's `set` (which changes what the screen does), unknown members
        // stay problems for clients too.
        for patch in [
            #"{"futureRoot": 1}"#, #"{"app": {"futureApp": 1}}"#,
            #"{"experiments": [{"key": "mic", "feature": "microphone", "variants": [{"name": "a", "weight": 100, "set": {"futureSetting": 1}}]}]}"#,
        ] {
            let json = try PolicyFixtures.minimal(patchedWith: patch)
            let problems = PolicyValidator.validate(json, unknownMembers: .skippedInExperiments).problems
            #expect(problems.contains { $0.code == .unknownMember }, "\(patch)")
        }
    }
}
