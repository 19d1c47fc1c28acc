import Foundation
import Testing

@testable import PreludeService

/// `region` and `ageRange` travel like the OS version (docs/catalogue.md): the policy query and decide read them,
/// the demo's rules and tracking's iOS 27.2 re-ask depend on them, and a malformed one is a problem naming it.
@Suite struct RegionAndAgeRangeTests {
    let fixture = PublicFixture()

    @Test func decideReadsTheStorefrontForTrackingsSystemReask() throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = PublicClient(.live, server: service.server, port: service.port)
        func reason(_ region: String) throws -> String? {
            let response = try client.post(
                "/v1/apps/demo/decide",
                json: #"{"os": "27.2", "region": "\#(region)", "features": [{"feature": "tracking", "#
                    + #""status": "notDetermined", "trackingPromptShown": true}]}"#)
            #expect(response.status == 200, "\(response.text)")
            return (try response.json()["decisions"] as? [[String: Any]])?.first?["reason"] as? String
        }
        #expect(try reason("fra") == "systemReask")
        #expect(try reason("USA") == "trackingAskedOnce")
    }

    @Test func theResolvedPolicyAppliesTheAgeBandRule() throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = PublicClient(.live, server: service.server, port: service.port)
        let minor = try client.get("/v1/apps/demo/policy?os=18.0&ageRange=13-15&region=DEU")
        #expect(minor.status == 200, "\(minor.text)")
        #expect(minor.text.contains("no-tracking-prompt-below-18"))
        let adult = try client.get("/v1/apps/demo/policy?os=18.0&ageRange=18%2B")
        #expect(adult.status == 200, "\(adult.text)")
        #expect(!adult.text.contains("no-tracking-prompt-below-18"))
    }

    @Test func malformedValuesAreProblemsNamingTheirField() throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = PublicClient(.live, server: service.server, port: service.port)
        let query = try client.get("/v1/apps/demo/policy?region=FR&ageRange=18")
        #expect(query.status == 400)
        #expect(query.text.contains("/query/region") && query.text.contains("/query/ageRange"))
        let decide = try client.post(
            "/v1/apps/demo/decide",
            json: #"{"region": "France", "ageRange": "adult", "features": [{"feature": "camera", "status": "denied"}]}"#
        )
        #expect(decide.status == 422)
        #expect(decide.text.contains("/region") && decide.text.contains("/ageRange"))
    }
}
