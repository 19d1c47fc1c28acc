import Testing

@testable import PreludeCore

@Suite struct PolicyDocumentTests {
    @Test func demoRoundTripsThroughCanonicalJSON() throws {
        let document = try PolicyFixtures.demo()
        let canonical = document.jsonValue
        let (again, problems) = PolicyDocument.decode(canonical)
        #expect(problems.isEmpty)
        #expect(again == document)
        #expect(again.jsonValue.serialized(.pretty) == canonical.serialized(.pretty))
        // The canonical form of the demo file says the same thing as the file.
        #expect(canonical == (try JSONValue(parsing: try PolicyFixtures.demoText())))
    }

    @Test func canonicalTextRoundTripsThroughText() throws {
        let document = try PolicyFixtures.demo()
        let text = document.jsonValue.serialized(.pretty)
        let validation = PolicyValidator.validate(text: text)
        #expect(validation.isValid)
        #expect(validation.document == document)
    }

    @Test func programmaticDocumentRoundTrips() throws {
        let english = try #require(LocaleTag("en"))
        var copy = CopySet()
        copy[.prime, .title] = "Ready"
        let document = PolicyDocument(
            app: AppInfo(id: "x", name: "X", defaultLocale: english),
            defaults: FeatureOverride(
                cadence: [.prime: CadenceRuleOverride(minIntervalHours: 1.5, maxShows: 4)], settingsDelayMs: 300),
            features: [
                .contacts: FeaturePolicy(
                    feature: .contacts,
                    settings: FeatureOverride(
                        strategy: .prime, style: .twoButton, partial: [.limited: .contactAccessButton],
                        copy: [english: copy]),
                    targeting: [
                        TargetingRule(
                            name: "r",
                            when: TargetingCondition(
                                platforms: [.ios, .ipados], os: VersionRange(">=18"), appVersion: VersionRange("<2"),
                                locales: [english]),
                            set: FeatureOverride(strategy: .button)
                        )
                    ]
                )
            ],
            experiments: [
                Experiment(
                    key: "e", feature: .contacts, seed: "s", coverage: 0.5,
                    variants: [Variant(name: "a", weight: 100, set: FeatureOverride(style: .single))])
            ]
        )
        let (decoded, problems) = PolicyDocument.decode(document.jsonValue)
        #expect(problems.isEmpty)
        #expect(decoded == document)
        #expect(document.jsonValue["defaults"]?["cadence"]?["prime"]?["minIntervalHours"] == .double(1.5))
        #expect(
            document.jsonValue["features"]?["contacts"]?["targeting"]?[0]?["when"]?["platform"] == ["ios", "ipados"])
    }

    @Test func encodesFeaturesInCatalogueOrder() throws {
        let document = try PolicyFixtures.demo()
        let keys = document.jsonValue["features"]?.objectValue?.keys
        #expect(
            keys == [
                "camera", "microphone", "photos", "contacts", "locationWhenInUse", "notifications", "tracking",
                "bluetooth", "calendars", "health", "localNetwork", "alarms", "aiDataSharing",
            ])
    }

    @Test func layersOverridesFieldByField() {
        let english = LocaleTag("en")!
        var lower = CopySet()
        lower[.prime, .title] = "Old title"
        lower[.prime, .message] = "Kept message."
        var upper = CopySet()
        upper[.prime, .title] = "New title"
        let base = FeatureOverride(
            strategy: .prime, cadence: [.prime: CadenceRuleOverride(minIntervalHours: 10, backoff: 3)],
            copy: [english: lower])
        let top = FeatureOverride(
            style: .twoButton, cadence: [.prime: CadenceRuleOverride(backoff: 5)], copy: [english: upper])
        let merged = base.merging(top)
        #expect(merged.strategy == .prime)
        #expect(merged.style == .twoButton)
        #expect(merged.cadence[.prime] == CadenceRuleOverride(minIntervalHours: 10, backoff: 5))
        #expect(merged.copy[english]?[.prime, .title] == "New title")
        #expect(merged.copy[english]?[.prime, .message] == "Kept message.")
        #expect(merged.effectiveCadence.prime == CadenceRule(minIntervalHours: 10, backoff: 5, maxShows: 3))
        #expect(merged.effectiveCadence.settings == Cadence.builtIn.settings)
    }
}
