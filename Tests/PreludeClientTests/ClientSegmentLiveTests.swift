import Foundation
import PreludeClient
import PreludeCore
import Testing

@testable import PreludeService

/// The device segment from the client to the results (docs/client.md, "Breakdowns"): clients on given OS versions
/// and languages send their events to the real server, and the experiment's results JSON breaks the arms down by
/// both.
@Suite struct ClientSegmentLiveTests {
    let fixture = ClientFixture()
    static let token = "segment-test-token-0123456789abcdefghijklmnopqrstuvwxyz"

    @Test func aClientsOSAndLocaleShowAsSegmentsOfTheResults() async throws {
        let service = try fixture.startService(adminToken: Self.token)
        defer { service.stop() }
        // Three installs: iOS 18 in Canadian French, iOS 17 in US English, and one that sends no segment.
        let devices: [(install: String, facts: DeviceFacts?)] = [
            (
                "install-fr",
                DeviceFacts(
                    systemVersion: "18.2.1", isPad: false, shortVersion: nil, preferredLanguages: ["fr-CA", "en-CA"])
            ),
            (
                "install-us",
                DeviceFacts(systemVersion: "17.4", isPad: false, shortVersion: nil, preferredLanguages: ["en_US"])
            ),
            ("install-old", nil),
        ]
        var variants: [String: String] = [:]
        for device in devices {
            var configuration = fixture.configuration(
                port: service.port, storage: device.install,
                context: ClientContext(
                    platform: .ios, osVersion: SemanticVersion("17.4"), locale: "en", installId: device.install))
            if let facts = device.facts { configuration.segment = facts.segment }
            let client = try PreludeClient(configuration: configuration)
            #expect(await client.refresh() == .updated(revision: 1))
            let decision = try await client.decide(feature: .camera, status: .notDetermined)
            let event = try #require(try await client.record(.shown, for: decision))
            let variant: String = try #require(event.variant)
            variants[device.install] = variant
            let flushed = await client.flush()
            #expect(flushed.accepted == 1 && flushed.failure == nil, "\(flushed)")
        }
        let sent = fixture.transport.requests.map(\.0).filter { $0.url.path.hasSuffix("/events") }
        #expect(sent.map { $0.headers["Prelude-OS-Major"] } == ["18", "17", nil])
        #expect(sent.map { $0.headers["Prelude-Locale"] } == ["fr-CA", "en-US", nil])

        let response = try await fixture.transport.send(
            TransportRequest(
                method: "GET",
                url: URL(
                    string: "http://127.0.0.1:\(service.port)/v1/admin/apps/demo/experiments/camera-prime-copy/results")!,
                headers: ["Authorization": "Bearer \(Self.token)", "Accept": "application/json"]))
        #expect(response.status == 200)
        let results = try JSONValue(parsing: [UInt8](response.body))
        let segments = try #require(results["segments"])
        #expect(segments["exploratory"] == .bool(true))
        func exposed(_ dimension: String, _ value: String, _ install: String) -> Int? {
            guard case .array(let list)? = segments[dimension],
                let segment = list.first(where: { $0["value"] == .string(value) }),
                case .array(let arms)? = segment["variants"],
                let arm = arms.first(where: { $0["name"] == .string(variants[install] ?? "") })
            else { return nil }
            return arm["funnel"]?["exposed"]?.intValue
        }
        #expect(exposed("osMajor", "18", "install-fr") == 1)
        #expect(exposed("osMajor", "17", "install-us") == 1)
        #expect(exposed("osMajor", "unknown", "install-old") == 1)
        #expect(exposed("locale", "fr-CA", "install-fr") == 1)
        #expect(exposed("locale", "en-US", "install-us") == 1)
        #expect(exposed("locale", "unknown", "install-old") == 1)
    }
}
