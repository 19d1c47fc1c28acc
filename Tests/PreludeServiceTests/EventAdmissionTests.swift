import Foundation
import PreludeCore
import PreludeHTTP
import PreludeStorage
import Synchronization
import Testing

@testable import PreludeService

/// What keeps anyone from growing the database without bound: experiments checked against the live policy, and
/// the ingestion budget per install and per client address.
@Suite struct EventAdmissionTests {
    let fixture = PublicFixture()

    private func count(_ service: PreludeService, _ table: String) throws -> Int64 {
        try service.database.read { try $0.scalar("SELECT count(*) FROM \(table)", as: Int64.self) } ?? -1
    }

    private static func tagged(_ id: String, experiment: String, variant: String, feature: String = "camera")
        -> String
    {
        EventsTests.event(id, feature: feature, extra: #","experiment":"\#(experiment)","variant":"\#(variant)""#)
    }

    @Test func eventsNamingAnExperimentOrVariantTheLivePolicyLacksAreRefusedWhole() throws {
        let service = try fixture.startService()
        defer { service.stop() }
        let client = PublicClient(port: service.port)
        let body = EventsTests.batch([
            EventsTests.event("plain"),
            Self.tagged("ok", experiment: "camera-prime-copy", variant: "control"),
            Self.tagged("bad-key", experiment: "made-up-\(UUID().uuidString)", variant: "control"),
            Self.tagged("bad-variant", experiment: "camera-prime-copy", variant: "other"),
            Self.tagged("bad-feature", experiment: "camera-prime-copy", variant: "control", feature: "photos"),
        ])
        let refused = try client.post("/v1/apps/demo/events", json: body)
        #expect(refused.status == 422)
        #expect(refused["Content-Type"] == "application/problem+json")
        #expect(try refused.problemPointers() == ["/events/2/experiment", "/events/3/variant", "/events/4/feature"])
        // The whole batch is refused: nothing stored, no aggregate row created.
        #expect(try count(service, "events") == 0)
        #expect(try count(service, "experiment_funnel_counts") == 0)
        #expect(try count(service, "experiment_install_steps") == 0)

        // The same batch without the bad events is stored.
        let good = EventsTests.batch([
            EventsTests.event("plain"), Self.tagged("ok", experiment: "camera-prime-copy", variant: "control"),
        ])
        #expect(try client.post("/v1/apps/demo/events", json: good).status == 202)
        #expect(try count(service, "experiment_funnel_counts") == 1)
    }

    @Test func anExperimentRemovedFromTheLiveRevisionIsRefused() throws {
        let service = try fixture.startService()
        defer { service.stop() }
        var document = PublicFixture.demoDocument
        document.experiments = []
        try service.policyStore.commit(
            app: "demo", document: document, author: "test", action: "policy.replace", message: nil, precondition: nil,
            auditDetail: .null)
        let client = PublicClient(port: service.port)
        let refused = try client.post(
            "/v1/apps/demo/events",
            json: EventsTests.batch([Self.tagged("old", experiment: "camera-prime-copy", variant: "control")]))
        #expect(refused.status == 422)
        #expect(try refused.problemPointers() == ["/events/0/experiment"])
        #expect(try count(service, "events") == 0)
    }

    @Test func overBudgetBatchesGet429WithRetryAfterAndNothingIsStored() throws {
        let service = try fixture.startService { configuration in
            configuration.eventsPerInstallPerSecond = 0.5
            configuration.eventsPerInstallBurst = 500
        }
        defer { service.stop() }
        let client = PublicClient(port: service.port)
        func batch(_ prefix: String, install: String, count: Int) -> String {
            EventsTests.batch((0..<count).map { EventsTests.event("\(prefix)-\($0)", install: install) })
        }
        #expect(try client.post("/v1/apps/demo/events", json: batch("a", install: "i-1", count: 400)).status == 202)
        let refused = try client.post("/v1/apps/demo/events", json: batch("b", install: "i-1", count: 200))
        #expect(refused.status == 429)
        #expect(refused["Content-Type"] == "application/problem+json")
        #expect(try refused.json()["type"] as? String == IngestionBudget.problemType)
        // 100 events left, 200 wanted: 100 more come back in 200 s at 0.5 per second.
        #expect(refused["Retry-After"] == "200")
        #expect(try count(service, "events") == 400)
        // Another install has its own budget; a batch within what is left passes.
        #expect(try client.post("/v1/apps/demo/events", json: batch("c", install: "i-2", count: 300)).status == 202)
        #expect(try client.post("/v1/apps/demo/events", json: batch("d", install: "i-1", count: 100)).status == 202)
        let metrics = String(decoding: try client.get("/metrics").body, as: UTF8.self)
        #expect(metrics.contains(#"prelude_events_budget_refusals_total{budget="install"} 1"#))
        #expect(metrics.contains(#"prelude_events_budget_refusals_total{budget="address"} 0"#))
    }

    @Test func theAddressBudgetFollowsTrustedProxiesOnly() throws {
        let service = try fixture.startService { configuration in
            configuration.eventsPerAddressPerSecond = 1
            configuration.eventsPerAddressBurst = 500
            configuration.trustedProxies = try! TrustedProxies(parsing: "127.0.0.0/8")
        }
        defer { service.stop() }
        func send(_ prefix: String, from client: String) throws -> PublicClient.Response {
            let body = EventsTests.batch((0..<300).map { EventsTests.event("\(prefix)-\($0)", install: prefix) })
            return try PublicClient(port: service.port).post(
                "/v1/apps/demo/events", json: body, headers: [("X-Forwarded-For", "\(client), 127.0.0.5")])
        }
        #expect(try send("a", from: "203.0.113.1").status == 202)
        #expect(try send("b", from: "203.0.113.1").status == 429)
        #expect(try send("c", from: "203.0.113.2").status == 202)
        #expect(try count(service, "events") == 600)
    }

    // MARK: - Pure parts

    @Test func tokenBucketsSpendRefillAndNeverGoBelowWhatIsLeft() {
        var table = TokenBucketTable<String>(rate: 10, burst: 100)
        #expect(table.wait("a", cost: 100, now: 0) == 0)
        table.spend("a", cost: 100, now: 0)
        #expect(table.wait("a", cost: 1, now: 0) == 0.1)
        #expect(table.wait("a", cost: 50, now: 2) == 3)  // 20 back after 2 s, 30 more in 3 s
        #expect(table.wait("a", cost: 50, now: 5) == 0)
        #expect(table.wait("a", cost: 101, now: 1000) == .infinity)  // beyond the burst: never
        #expect(table.wait("b", cost: 100, now: 0) == 0)  // keys are independent
        #expect(table.wait("a", cost: 1, now: -10) > 0)  // a clock going backwards refills nothing
    }

    @Test func tokenBucketsKeepMemoryBounded() {
        var table = TokenBucketTable<Int>(rate: 1, burst: 10, capacity: 100)
        for key in 0..<10_000 { table.spend(key, cost: 5, now: Double(key) / 1000) }
        #expect(table.count <= 100)
        // The most recent keys are kept (their spending is remembered).
        #expect(table.wait(9_999, cost: 10, now: 10) > 0)
        // Idle keys are evicted first: after everything refilled, one new key clears the rest out at the next pass.
        for key in 20_000..<20_100 { table.spend(key, cost: 1, now: 100_000) }
        #expect(table.count <= 100)
    }

    @Test(
        arguments: [
            // (trusted, peer, X-Forwarded-For, client)
            ("", "198.51.100.7:5000", ["203.0.113.1"], "198.51.100.7"),
            ("10.0.0.0/8", "198.51.100.7:5000", ["203.0.113.1"], "198.51.100.7"),
            ("10.0.0.0/8", "10.0.0.2:5000", ["203.0.113.1"], "203.0.113.1"),
            ("10.0.0.0/8", "10.0.0.2:5000", ["1.2.3.4, 203.0.113.1, 10.0.0.3"], "203.0.113.1"),
            ("10.0.0.0/8", "10.0.0.2:5000", ["1.2.3.4", "203.0.113.1"], "203.0.113.1"),
            ("10.0.0.0/8", "10.0.0.2:5000", [], "10.0.0.2"),
            ("10.0.0.0/8", "10.0.0.2:5000", ["10.0.0.9, 10.0.0.3"], "10.0.0.9"),
            ("10.0.0.0/8", "10.0.0.2:5000", ["garbage, 10.0.0.3"], "10.0.0.3"),
            ("::1, fd00::/8", "::1:443", ["2001:db8::1"], "2001:db8::1"),
            ("fd00::/8", "fd12::1:443", ["2001:DB8:0::1"], "2001:db8::1"),
            ("10.0.0.0/8", "::ffff:10.0.0.2:443", ["203.0.113.9"], "203.0.113.9"),
        ] as [(String, String, [String], String)])
    func clientAddressIsTheRightmostUntrustedHop(trusted: String, peer: String, forwarded: [String], client: String)
        throws
    {
        let proxies = try TrustedProxies(parsing: trusted)
        #expect(proxies.clientAddress(remoteAddress: peer, forwardedFor: forwarded) == client)
    }

    @Test(arguments: ["10.0.0.0/33", "10.0.0.0/", "nonsense", "10.0.0/8", "::1/129", "1.2.3.4/8/1"])
    func trustedProxiesRefuseWhatIsNotANetwork(text: String) {
        #expect(throws: TrustedProxies.ParseError.self) { try TrustedProxies(parsing: text) }
    }

    @Test func budgetSettingsComeFromFileEnvironmentAndFlags() throws {
        let defaults = try ServiceConfiguration.resolve(fileText: nil, environment: [:], flags: [:])
        #expect(defaults.eventsPerInstallPerSecond == 20)
        #expect(defaults.eventsPerInstallBurst == 2_000)
        #expect(defaults.eventsPerAddressPerSecond == 200_000)
        #expect(defaults.eventsPerAddressBurst == 1_000_000)
        #expect(defaults.trustedProxies.networks.isEmpty)
        let configured = try ServiceConfiguration.resolve(
            fileText: #"{"eventsPerInstallPerSecond": 2.5, "trustedProxies": "10.0.0.0/8"}"#,
            environment: [
                "PRELUDE_EVENTS_PER_ADDRESS_BURST": "5000", "PRELUDE_TRUSTED_PROXIES": "10.0.0.0/8,fd00::/8",
            ],
            flags: [.eventsPerAddressPerSecond: "0", .eventsPerInstallBurst: "600"])
        #expect(configured.eventsPerInstallPerSecond == 2.5)
        #expect(configured.eventsPerInstallBurst == 600)
        #expect(configured.eventsPerAddressPerSecond == 0)
        #expect(configured.eventsPerAddressBurst == 5000)
        #expect(configured.trustedProxies.description == "10.0.0.0/8,fd00::/8")
        for (setting, bad) in [
            (ConfigurationSetting.eventsPerInstallBurst, "499"), (.eventsPerAddressPerSecond, "-1"),
            (.trustedProxies, "10.0.0.0/40"),
        ] {
            #expect(throws: ConfigurationError.self) {
                try ServiceConfiguration.resolve(fileText: nil, environment: [:], flags: [setting: bad])
            }
        }
    }
}
