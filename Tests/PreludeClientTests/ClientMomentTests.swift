import Foundation
import PreludeClient
import PreludeCore
import Testing

/// The Swift client's half of issue 38: `moment(_:)` and `set(attribute:to:)` change what it decides offline, the
/// facts it keeps itself (`prelude.*`) count launches and survive a relaunch, and the moment ledger is bounded.
@Suite struct ClientMomentTests {
    static let policy = """
        {"features": {"notifications": {"ask": {"after": {"moment": "orderPlaced", "atLeast": 2}}},
                      "camera": {"ask": {"condition": {"$or": [{"prelude.launchCount": {"$gte": 2}},
                                                               {"plan": "pro"}]}}}}}
        """

    static func configuration(_ fixture: ClientFixture) throws -> PreludeClientConfiguration {
        var configuration = fixture.configuration(
            port: try ClientFixture.closedPort(), bootstrap: false,
            context: ClientContext(platform: .ios, osVersion: SemanticVersion("18.0"), locale: "en", installId: "i-1"))
        configuration.bootstrapPolicy = try bootstrap()
        return configuration
    }

    static func bootstrap() throws -> Data {
        let json = try JSONValue(parsing: Array(ClientFixture.demoPolicyText.utf8))
            .mergePatch(try JSONValue(parsing: Array(policy.utf8)))
        return Data(json.serializedBytes())
    }

    @Test func notificationsArePrimedOnlyAfterTheSecondOrder() async throws {
        let fixture = ClientFixture()
        let client = try PreludeClient(configuration: try Self.configuration(fixture))
        var actions: [String] = []
        for _ in 0..<3 {
            let decision = try await client.decide(feature: .notifications, status: .notDetermined)
            actions.append("\(decision.action.rawValue)/\(decision.reason.rawValue)")
            try await client.moment("orderPlaced")
        }
        #expect(actions == ["wait/momentNotReached", "wait/momentNotReached", "prime/primeEligible"])
        #expect(await client.clientFacts.momentRecords["orderPlaced"]?.count == 3)
    }

    @Test func factsCountLaunchesAcrossRelaunchesAndAttributesChangeDecisions() async throws {
        let fixture = ClientFixture()
        let configuration = try Self.configuration(fixture)
        let first = try PreludeClient(configuration: configuration)
        #expect(try await first.decide(feature: .camera, status: .notDetermined).reason == .momentNotReached)
        try await first.set(attribute: "plan", to: .string("pro"))
        #expect(try await first.decide(feature: .camera, status: .notDetermined).action == .prime)
        try await first.set(attribute: "plan", to: nil)
        #expect(try await first.decide(feature: .camera, status: .notDetermined).reason == .momentNotReached)
        await #expect(throws: AttributeError.invalidName("1plan")) {
            try await first.set(attribute: "1plan", to: .bool(true))
        }
        // A second launch of the same install: prelude.launchCount is 2.
        let second = try PreludeClient(configuration: configuration)
        #expect(await second.clientFacts.launchCount == 2)
        #expect(try await second.decide(feature: .camera, status: .notDetermined).action == .prime)
    }

    @Test func theMomentLedgerIsBounded() throws {
        var facts = ClientFacts()
        for index in 0..<40 {
            try facts.recordMoment("m\(index)", at: Instant(secondsSinceEpoch: Double(1_800_000_000 + index)))
        }
        try facts.recordMoment("m39", at: Instant(secondsSinceEpoch: 1_900_000_000))
        #expect(facts.momentRecords.count == MomentRecord.maximumCount)
        #expect(facts.momentRecords["m0"] == nil)
        #expect(facts.momentRecords["m39"]?.count == 2)
        #expect(throws: AttributeError.invalidName("bad name")) {
            try facts.recordMoment("bad name", at: Instant(secondsSinceEpoch: 0))
        }
    }
}
