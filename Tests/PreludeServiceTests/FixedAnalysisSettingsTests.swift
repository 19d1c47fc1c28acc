import PreludeCore
import PreludeStore
import PreludeStoreTestSupport
import Testing

@testable import PreludeService

/// The verdict uses only the analysis settings the policy fixed; a request asking other settings gets an
/// exploratory view without any verdict (docs/results.md, "Analysis settings fixed before the data").
///
/// The data: 470 of 1,000 granted against 400 of 1,000. With the fixed minimum effect of 2 points the always-valid
/// p-value is 0.14 (not significant at 0.05); a reader choosing 5 points would see p = 0.037 (< 0.05), and a reader
/// choosing alpha 0.2 would see p < alpha — the looks that must not produce a verdict.
@Suite struct FixedAnalysisSettingsTests {
    static let data =
        TestEvent.arm("control", exposed: 1000, granted: 400)
        + TestEvent.arm("short-copy", exposed: 1000, granted: 470)

    static func experiment(alpha: Double?, minimumEffect: Double?) -> JSONValue {
        var object = ResultsFixture.experiment([("control", 50), ("short-copy", 50)]).objectValue!
        if let alpha { object["alpha"] = .double(alpha) }
        if let minimumEffect { object["minimumEffect"] = .double(minimumEffect) }
        return .object(object)
    }

    @Test func theVerdictFollowsTheSettingsOfTheRevision() throws {
        let fixture = try ResultsFixture()
        try fixture.ingest(Self.data)
        let reader = ExperimentResultsReader(database: fixture.database)

        try fixture.publish(ResultsFixture.demoDocument(experiments: [Self.experiment(alpha: nil, minimumEffect: nil)]))
        let defaults = try reader.results(appID: ResultsFixture.app, experiment: ResultsFixture.experiment)
        #expect(defaults.report.variants[1].verdict == .notSignificant)
        #expect(defaults.definition.alpha == 0.05 && defaults.definition.minimumEffect == 0.02)
        #expect(!defaults.isExploratory)

        try fixture.publish(
            ResultsFixture.demoDocument(experiments: [Self.experiment(alpha: 0.05, minimumEffect: 0.05)]))
        let fixedWide = try reader.results(appID: ResultsFixture.app, experiment: ResultsFixture.experiment)
        #expect(fixedWide.report.variants[1].verdict == .better)
        #expect(fixedWide.encodeJSON()["analysis"]?["fixed"]?["minimumEffect"] == .double(0.05))
        #expect(fixedWide.encodeJSON()["analysis"]?["view"] == "fixed")

        try fixture.publish(
            ResultsFixture.demoDocument(experiments: [Self.experiment(alpha: 0.01, minimumEffect: 0.05)]))
        let strict = try reader.results(appID: ResultsFixture.app, experiment: ResultsFixture.experiment)
        #expect(strict.report.variants[1].verdict == .notSignificant)
        #expect(strict.report.settings.alpha == 0.01)
    }

    @Test func aQueryCannotChangeTheVerdict() throws {
        let service = try ResultsEndpointTests.Service()
        try ResultsFixture.ingest(Self.data, into: service.service.database)
        let path = ResultsEndpointTests.path

        let fixed = try JSONParser().parse(try service.get(path).text)
        #expect(fixed["analysis"]?["view"] == "fixed")
        #expect(fixed["analysis"]?["note"] == .null)
        #expect(fixed["variants"]?[1]?["verdict"] == "notSignificant")

        for query in ["?minimumEffect=0.05", "?alpha=0.2", "?alpha=0.2&minimumEffect=0.05"] {
            let response = try service.get(path + query)
            #expect(response.status == 200)
            let view = try JSONParser().parse(response.text)
            #expect(view["analysis"]?["view"] == "exploratory", "\(query)")
            #expect(view["analysis"]?["note"]?.stringValue?.hasPrefix("EXPLORATORY VIEW") == true)
            #expect(view["analysis"]?["fixed"]?["alpha"] == .double(0.05))
            for variant in view["variants"]?.arrayValue ?? [] { #expect(variant["verdict"] == .null, "\(query)") }
        }
        // The exploratory look would have been "significant": exactly what must not become a verdict.
        let wide = try JSONParser().parse(try service.get(path + "?minimumEffect=0.05").text)
        let p = try #require(wide["variants"]?[1]?["comparison"]?["sequentialPValue"]?.doubleValue)
        #expect(p < 0.05)
        // Asking for the fixed settings themselves is the fixed view.
        let same = try JSONParser().parse(try service.get(path + "?minimumEffect=0.02&alpha=0.05").text)
        #expect(same["analysis"]?["view"] == "fixed")
        #expect(same["variants"]?[1]?["verdict"] == "notSignificant")
    }

    @Test(arguments: ["?alpha=0", "?alpha=0.5", "?alpha=abc", "?alpha=nan"])
    func anUnusableAlphaIsAProblem(query: String) throws {
        let service = try ResultsEndpointTests.Service()
        let response = try service.get(ResultsEndpointTests.path + query)
        #expect(response.status == 400)
        #expect(response.text.contains("alpha"))
    }
}
