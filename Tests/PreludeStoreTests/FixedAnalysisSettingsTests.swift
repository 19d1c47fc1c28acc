import PreludeCore
import PreludeStore
import PreludeStoreTestSupport
import Testing

/// The verdict uses only the analysis settings the policy fixed; a request asking other settings gets an
/// exploratory view without any verdict (docs/results.md, "Analysis settings fixed before the data").
///
/// The data: 470 of 1,000 granted against 400 of 1,000. With the fixed minimum effect of 2 points the always-valid
/// p-value is 0.14 (not significant at 0.05); a reader choosing 5 points would see p = 0.037 (< 0.05), and a reader
/// choosing alpha 0.2 would see p < alpha — the looks that must not produce a verdict.
@Suite struct FixedAnalysisSettingsTests {
    @Test func theVerdictFollowsTheSettingsOfTheRevision() throws {
        let fixture = try ResultsFixture(onTheLane: true)
        try fixture.ingest(ResultsFixture.fixedAnalysisData)
        let reader = ExperimentResultsReader(database: fixture.database)

        try fixture.publish(
            ResultsFixture.demoDocument(experiments: [
                ResultsFixture.fixedAnalysisExperiment(alpha: nil, minimumEffect: nil)
            ]))
        let defaults = try reader.results(appID: ResultsFixture.app, experiment: ResultsFixture.experiment)
        #expect(defaults.report.variants[1].verdict == .notSignificant)
        #expect(defaults.definition.alpha == 0.05 && defaults.definition.minimumEffect == 0.02)
        #expect(!defaults.isExploratory)

        try fixture.publish(
            ResultsFixture.demoDocument(experiments: [
                ResultsFixture.fixedAnalysisExperiment(alpha: 0.05, minimumEffect: 0.05)
            ]))
        let fixedWide = try reader.results(appID: ResultsFixture.app, experiment: ResultsFixture.experiment)
        #expect(fixedWide.report.variants[1].verdict == .better)
        #expect(fixedWide.encodeJSON()["analysis"]?["fixed"]?["minimumEffect"] == .double(0.05))
        #expect(fixedWide.encodeJSON()["analysis"]?["view"] == "fixed")

        try fixture.publish(
            ResultsFixture.demoDocument(experiments: [
                ResultsFixture.fixedAnalysisExperiment(alpha: 0.01, minimumEffect: 0.05)
            ]))
        let strict = try reader.results(appID: ResultsFixture.app, experiment: ResultsFixture.experiment)
        #expect(strict.report.variants[1].verdict == .notSignificant)
        #expect(strict.report.settings.alpha == 0.01)
    }
}
