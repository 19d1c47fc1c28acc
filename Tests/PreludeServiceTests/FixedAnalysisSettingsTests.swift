import PreludeCore
import PreludeStore
import PreludeStoreTestSupport
import Testing

@testable import PreludeService

/// A query cannot change the verdict of the running service (the verdict from the revision's settings:
/// PreludeStoreTests/FixedAnalysisSettingsTests).
@Suite struct FixedAnalysisQueryTests {
    @Test func aQueryCannotChangeTheVerdict() throws {
        let service = try ResultsEndpointTests.Service()
        try ResultsFixture.ingest(ResultsFixture.fixedAnalysisData, into: service.service.database)
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
