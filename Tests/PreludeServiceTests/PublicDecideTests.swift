import Foundation
import Testing

@testable import PreludeService

/// `POST /v1/apps/{app}/decide`: several features at once, and refused bodies; each over both back-ends of
/// ``TestTransport`` (a socket, and the server's code in process), which must answer alike.
@Suite struct PublicDecideTests {
    let fixture = PublicFixture()

    @Test(arguments: TestTransport.Kind.allCases)
    func decidesSeveralFeaturesInOneRequest(transport: TestTransport.Kind) throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let response = try PublicClient(transport, server: service.server, port: service.port).post(
            "/v1/apps/demo/decide",
            json: #"""
                {"installId": "i-1", "platform": "ios", "os": "18.0", "locale": "ja",
                 "features": [{"feature": "camera", "status": "notDetermined"},
                              {"feature": "microphone", "status": "authorized"},
                              {"feature": "contacts", "status": "notDetermined", "osVersion": "17.0"}]}
                """#)
        #expect(response.status == 200)
        #expect(response["Content-Language"] == "ja")
        let json = try response.json()
        #expect(json["revision"] as? Int == 1)
        #expect(json["locale"] as? String == "ja")
        let decisions = try #require(json["decisions"] as? [[String: Any]])
        #expect(decisions.map { $0["feature"] as? String } == ["camera", "microphone", "contacts"])
        // Contacts: the entry's osVersion (17) wins over the top-level os, so no ContactAccessButton.
        #expect(decisions.map { $0["action"] as? String } == ["prime", "proceed", "prime"])
    }

    /// The header list is prepared once per locale and reused: every response must still carry its own locale's
    /// fields, in the order a fresh response would have them.
    @Test(arguments: TestTransport.Kind.allCases)
    func repeatedDecidesInSeveralLocalesKeepTheirHeaders(transport: TestTransport.Kind) throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = PublicClient(transport, server: service.server, port: service.port)
        var bodies: [String: [UInt8]] = [:]
        for locale in ["ja", "fr", "ja", "en", "fr", "ja"] {
            let response = try client.post(
                "/v1/apps/demo/decide",
                json: #"{"locale": "\#(locale)", "features": [{"feature": "camera", "status": "denied"}]}"#)
            #expect(response.status == 200)
            let fields = response.headers.map { $0.name.lowercased() }
                .filter { ["content-type", "cache-control", "content-language"].contains($0) }
            #expect(fields == ["content-type", "cache-control", "content-language"])
            #expect(response["Content-Type"] == "application/json")
            #expect(response["Cache-Control"] == "no-store")
            #expect(response["Content-Language"] == locale)
            #expect(try response.json()["locale"] as? String == locale)
            if let first = bodies[locale] { #expect(response.body == first) } else { bodies[locale] = response.body }
        }
        #expect(bodies.count == 3)
    }

    @Test(arguments: [
        ("{", 400, [""]),
        ("[1]", 400, [""]),
        (#"{"features": []}"#, 422, ["/features"]),
        (#"{"features": {}}"#, 422, ["/features"]),
        (#"{}"#, 422, ["/features"]),
        (
            #"{"os": 17, "platform": "android", "locale": "!", "installId": "", "extra": 1, "features": [{"feature": "camera", "status": "denied"}]}"#,
            422, ["/extra", "/installId", "/locale", "/os", "/platform"]
        ),
        (
            #"{"features": [{"feature": "xray", "status": "denied"}, {"feature": "camera", "status": "sleepy", "available": "yes"}]}"#,
            422, ["/features/0/feature", "/features/1/available", "/features/1/status"]
        ),
        (
            #"{"features": [{"feature": "camera", "status": "denied"}, {"feature": "camera", "status": "authorized"}]}"#,
            422, ["/features/1/feature"]
        ),
        (#"{"features": [{"feature": "reminders", "status": "denied"}]}"#, 422, ["/features/0/feature"]),
        (#"{"features": [{"feature": "camera", "status": "provisional"}]}"#, 422, ["/features/0/status"]),
        // The catalogue's states (docs/catalogue.md), each on a feature or an OS that cannot report it.
        (#"{"features": [{"feature": "camera", "status": "deniedGlobally"}]}"#, 422, ["/features/0/status"]),
        (#"{"features": [{"feature": "alarms", "status": "restricted"}]}"#, 422, ["/features/0/status"]),
        (
            #"{"features": [{"feature": "calendars", "status": "writeOnly", "osVersion": "16.7"}]}"#, 422,
            ["/features/0/status"]
        ),
        (
            #"{"features": [{"feature": "contacts", "status": "limited", "osVersion": "17.5"}]}"#, 422,
            ["/features/0/status"]
        ),
        (
            #"{"features": [{"feature": "alarms", "status": "notDetermined", "available": false}]}"#, 422,
            ["/features/0/available"]
        ),
        (
            #"{"features": [{"feature": "camera", "status": "notDetermined", "insufficientlyInUse": true}]}"#, 422,
            ["/features/0/insufficientlyInUse"]
        ),
        (
            #"{"features": [{"feature": "contacts", "status": "limited", "osVersion": "18.1", "preventsAutomaticLimitedAccessAlert": false}]}"#,
            422, ["/features/0/preventsAutomaticLimitedAccessAlert"]
        ),
    ])
    func refusedBodiesNameEveryProblem(body: String, status: Int, pointers: [String]) throws {
        let service = try fixture.startService()
        defer { service.stop() }
        for transport in TestTransport.Kind.allCases {
            let client = PublicClient(transport, server: service.server, port: service.port)
            let response = try client.post("/v1/apps/demo/decide", json: body)
            #expect(response.status == status, "\(transport): \(response.text)")
            #expect(response["Content-Type"] == "application/problem+json")
            #expect(try response.problemPointers().sorted() == pointers, "\(transport)")
        }
    }
}
