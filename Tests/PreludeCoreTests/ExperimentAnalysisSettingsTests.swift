import PreludeCore
import Testing

/// `alpha` and `minimumEffect` are part of an experiment's definition: decoded, validated, written back only when
/// named, and defaulted for revisions written before they existed.
@Suite struct ExperimentAnalysisSettingsTests {
    static func document(experiment: String) throws -> PolicyDocument {
        let json = try PolicyFixtures.minimal(patchedWith: "{\"experiments\": [\(experiment)]}")
        let decoded = PolicyDocument.decode(json)
        #expect(decoded.problems.isEmpty, "\(decoded.problems)")
        return decoded.document
    }

    @Test func namedSettingsAreDecodedAndWrittenBack() throws {
        let document = try Self.document(
            experiment: """
                {"key": "mic", "feature": "microphone", "alpha": 0.01, "minimumEffect": 0.05,
                 "variants": [{"name": "a", "weight": 50}, {"name": "b", "weight": 50}]}
                """)
        let experiment = try #require(document.experiments.first)
        #expect(experiment.alpha == 0.01 && experiment.minimumEffect == 0.05)
        #expect(experiment.analysisAlpha == 0.01 && experiment.analysisMinimumEffect == 0.05)
        #expect(experiment.jsonValue["alpha"] == .number(0.01))
        #expect(experiment.jsonValue["minimumEffect"] == .number(0.05))
        #expect(PolicyValidator.validate(document).isEmpty)
    }

    /// A revision stored before the settings existed keeps its bytes (no member added) and analyses with the
    /// documented defaults, 0.05 and 0.02.
    @Test func anOlderExperimentGetsTheDocumentedDefaultsAndKeepsItsShape() throws {
        let document = try Self.document(
            experiment: """
                {"key": "mic", "feature": "microphone", "variants": [{"name": "a", "weight": 50}, {"name": "b", "weight": 50}]}
                """)
        let experiment = try #require(document.experiments.first)
        #expect(experiment.alpha == nil && experiment.minimumEffect == nil)
        #expect(experiment.analysisAlpha == 0.05 && experiment.analysisMinimumEffect == 0.02)
        #expect(experiment.jsonValue["alpha"] == nil && experiment.jsonValue["minimumEffect"] == nil)
    }

    @Test(arguments: [0.0001, 0.01, 0.05, 0.2])
    func acceptsAlphaInRange(alpha: Double) { #expect(Experiment.isValidAlpha(alpha)) }

    @Test(arguments: [0, 0.00009, 0.21, 0.5, 1, -0.05, Double.nan, Double.infinity])
    func refusesAlphaOutOfRange(alpha: Double) { #expect(!Experiment.isValidAlpha(alpha)) }
}
