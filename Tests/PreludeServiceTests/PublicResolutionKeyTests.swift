import PreludeCore
import PreludeHTTP
import Testing

@testable import PreludeService

/// The resolution key decides which clients share a prepared response: it must separate every pair of clients
/// whose resolved bytes differ, and only those.
@Suite struct PublicResolutionKeyTests {
    static let snapshot = ServedPolicy(
        appID: "demo", revision: 1, document: PublicFixture.demoDocument,
        prepared: ServedPolicy.PreparedDocument(PublicFixture.demoDocument), createdAt: 0, author: "t", message: nil,
        resolvedCacheCapacity: 4)

    static func context(
        os: String? = "17.4", app: String? = nil, locale: String? = "fr", acceptLanguage: String? = nil,
        install: String? = nil
    ) -> ClientContext {
        ClientContext(
            platform: .ios, osVersion: os.flatMap(SemanticVersion.init), appVersion: app.flatMap(SemanticVersion.init),
            locale: locale, acceptLanguage: acceptLanguage, installId: install)
    }

    static func key(_ context: ClientContext) -> ResolutionKey { snapshot.resolutionKey(for: context) }

    @Test func theDemoDocumentsShape() {
        let shape = Self.snapshot.keyShape
        #expect(shape.usesOSVersion)  // contacts and location rules look at the OS
        #expect(!shape.usesAppVersion)
        #expect(!shape.usesPreferredLocale)
        // camera-prime-copy, photos-ask-vs-picker, notifications-moment
        #expect(shape.experiments.count == 3)
        // notifications-moment's second arm asks after the first pinned note: the key reads that count only.
        #expect(shape.attributesRead == ["prelude.moment.notePinned.count"])
    }

    @Test func installsWithTheSameVariantShareAKeyAndTheSameBytes() throws {
        let experiment = PublicFixture.demoDocument.experiments[0]
        var byVariant: [String: String] = [:]
        for n in 0..<200 {
            let install = "install-\(n)"
            let variant = PolicyResolver.assign(experiment, context: ClientContext(installId: install))!.name
            if byVariant[variant] == nil { byVariant[variant] = install }
        }
        let control = try #require(byVariant["control"])
        let short = try #require(byVariant["short-copy"])
        // The same arm in every experiment of the demo (camera-prime-copy and photos-ask-vs-picker).
        func arms(_ install: String) -> [String?] {
            PublicFixture.demoDocument.experiments.map {
                PolicyResolver.assign($0, context: ClientContext(installId: install))?.name
            }
        }
        let other = (0..<2_000).map { "other-\($0)" }.first { arms($0) == arms(control) }!
        #expect(Self.key(Self.context(install: control)) == Self.key(Self.context(install: other)))
        #expect(Self.key(Self.context(install: control)) != Self.key(Self.context(install: short)))
        #expect(Self.key(Self.context(install: nil)) != Self.key(Self.context(install: control)))
        // Equal keys really mean equal bytes.
        func bytes(_ context: ClientContext) -> [UInt8] {
            ResolvedPolicyResponse.body(1, PolicyResolver.resolve(PublicFixture.demoDocument, context: context))
        }
        #expect(bytes(Self.context(install: control)) == bytes(Self.context(install: other)))
        #expect(bytes(Self.context(install: control)) != bytes(Self.context(install: short)))
    }

    @Test func precomputedRangesDrawWhatTheCoreDraws() {
        let experiments = [
            Experiment(
                key: "k", feature: .camera, coverage: 0.6,
                variants: [
                    Variant(name: "a", weight: 20), Variant(name: "b", weight: 30), Variant(name: "c", weight: 50),
                ]),
            Experiment(key: "paused", feature: .photos, variants: [Variant(name: "a", weight: 0)]),
            PublicFixture.demoDocument.experiments[0],
        ]
        for experiment in experiments {
            let inputs = ResolutionKeyShape.ExperimentInputs(
                seed: experiment.hashSeed, weights: experiment.variants.map(\.weight), coverage: experiment.coverage)
            for n in 0..<500 {
                let install = "install-\(n)"
                #expect(
                    inputs.variant(for: install)
                        == Bucketing.assign(
                            seed: experiment.hashSeed, installId: install, weights: experiment.variants.map(\.weight),
                            coverage: experiment.coverage))
            }
        }
    }

    @Test func unusedInputsDoNotSplitTheCacheButUsedOnesDo() {
        // No rule looks at the app version: one key for every app version.
        #expect(Self.key(Self.context(app: "1.0")) == Self.key(Self.context(app: "2.3.0")))
        // The served locale is in the key, whatever chose it.
        #expect(Self.key(Self.context(locale: "fr-CA")) == Self.key(Self.context(locale: nil, acceptLanguage: "fr-FR")))
        #expect(Self.key(Self.context(locale: "fr")) != Self.key(Self.context(locale: "ja")))
        // The OS version matters here (buttons, rules).
        #expect(Self.key(Self.context(os: "17.4")) != Self.key(Self.context(os: "18.0")))
    }

    @Test func theCacheIsBoundedAndEvictsTheLeastRecentlyUsed() {
        let cache = LRUCache<Int, String>(capacity: 3)
        for n in 1...3 { cache.insert("\(n)", for: n) }
        #expect(cache.value(for: 1) == "1")  // 1 is now the most recent; 2 the least
        cache.insert("4", for: 4)
        #expect(cache.count == 3)
        #expect(cache.value(for: 2) == nil)
        #expect(cache.value(for: 1) == "1")
        #expect(cache.value(for: 3) == "3")
        #expect(cache.value(for: 4) == "4")
        cache.insert("four", for: 4)  // replacing keeps the count
        #expect(cache.count == 3)
        #expect(cache.value(for: 4) == "four")
        for n in 5...100 { cache.insert("\(n)", for: n) }
        #expect(cache.count == 3)
        #expect(cache.value(for: 100) == "100")
        #expect(cache.value(for: 97) == nil)
    }

    @Test func theResolvedCacheStaysBoundedUnderManyDistinctClients() throws {
        let fixture = PublicFixture()
        let service = try fixture.startService { $0.resolvedCacheCapacity = 8 }
        defer { service.stop() }
        let client = PublicClient(port: service.port)
        for minor in 0..<20 {
            #expect(try client.get("/v1/apps/demo/policy?platform=ios&os=17.\(minor)").status == 200)
        }
        #expect(service.policyStore.snapshot(app: "demo")?.resolvedResponseCount == 8)
    }
}
