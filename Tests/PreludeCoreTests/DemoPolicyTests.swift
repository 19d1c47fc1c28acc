import Testing

@testable import PreludeCore

@Suite struct DemoPolicyTests {
    @Test func validatesClean() throws {
        let validation = PolicyValidator.validate(text: try PolicyFixtures.demoText())
        #expect(validation.problems.map(\.description) == [])
    }

    /// Issue 35: a newcomer's first edit must not answer findings about things they did not touch. The demo says
    /// what photos and contacts access is for (PA-9); the two infos left are what it demonstrates on purpose: the
    /// picker arm's priming fallback below iOS 14 (vector photos-picker-arm) and the seeds' primed when-in-use
    /// location flow.
    @Test func lintsWithOnlyTheTwoInfosItDemonstrates() throws {
        let findings = CopyLinter.lint(try PolicyFixtures.demo())
        #expect(
            findings.map { "\($0.ruleId) \($0.pointer)" }.sorted() == [
                "OS-1 /experiments/1/variants/1/set/strategy", "PA-10 /features/locationWhenInUse",
            ], "\(findings)")
    }

    @Test func hasThirteenFeaturesFiveLanguagesAndThreeExperiments() throws {
        let document = try PolicyFixtures.demo()
        #expect(document.app.id == "demo")
        #expect(document.app.name == "Prelude Demo")
        #expect(
            Set(document.features.keys) == [
                .camera, .photos, .contacts, .locationWhenInUse, .microphone, .notifications, .tracking,
                .bluetooth, .calendars, .localNetwork, .alarms, .health, .aiDataSharing,
            ])
        #expect(Set(document.availableLocales.map(\.description)) == ["en", "fr", "ja", "zh-Hans", "zh-Hant"])
        #expect(
            document.experiments.map(\.key) == ["camera-prime-copy", "photos-ask-vs-picker", "notifications-moment"])
        #expect(document.experiments[0].variants.map(\.weight) == [50, 50])
        // Ask less: the picker arm presents PhotosPicker instead of asking (docs/catalogue.md).
        #expect(document.experiments[1].variants.map(\.name) == ["ask", "picker"])
        #expect(document.experiments[1].variants.map(\.set.strategy) == [nil, .permissionless])
        #expect(document.features[.tracking]?.settings.cadence.isEmpty == true)
        // Never prime tracking for a declared age below 18 (docs/catalogue.md, "Declared Age Range").
        let minors = try #require(document.features[.tracking]?.targeting.first)
        #expect(minors.when.ageRange == AgeCondition("<18"))
        #expect(minors.set.cadence[.prime]?.maxShows == 0)
        // The app-level consent asks on a two-button screen of its own (AC-1).
        #expect(document.features[.aiDataSharing]?.settings.style == .twoButton)
        // The moment as an arm (issue 38): at first use, or after the first pinned note.
        #expect(document.experiments[2].variants.map(\.name) == ["at-first-use", "after-first-pin"])
        #expect(document.experiments[2].variants.map(\.set.ask) == [nil, .after(moment: "notePinned", atLeast: 1)])
    }

    /// Every language has every text English has, for every feature and variant: nothing falls back to English.
    @Test(arguments: ["fr", "ja", "zh-Hans", "zh-Hant"])
    func translatesEveryText(locale: String) throws {
        let document = try PolicyFixtures.demo()
        let english = try #require(LocaleTag("en"))
        let tag = try #require(LocaleTag(locale))
        for policy in document.orderedFeatures {
            var layers = [document.defaults.merging(policy.settings)]
            layers += policy.targeting.map { layers[0].merging($0.set) }
            if let experiment = document.experiment(for: policy.feature) {
                layers += experiment.variants.map { layers[0].merging($0.set) }
            }
            for merged in layers {
                let englishKeys = Set(merged.copy[english]?.texts.keys ?? [:].keys)
                let localKeys = Set(merged.copy[tag]?.texts.keys ?? [:].keys)
                #expect(
                    englishKeys == localKeys,
                    "\(policy.feature) \(locale): \(englishKeys.symmetricDifference(localKeys))")
            }
        }
    }

    @Test(arguments: ["en", "fr", "ja", "zh-Hans", "zh-Hant"])
    func messagesEndWithTheLocaleFullStop(locale: String) throws {
        let document = try PolicyFixtures.demo()
        let tag = try #require(LocaleTag(locale))
        let stop: Character = locale.hasPrefix("en") || locale.hasPrefix("fr") ? "." : "。"
        for policy in document.orderedFeatures {
            for (key, text) in policy.settings.copy[tag]?.texts ?? [:]
            where key.field == .message || key.field == .caption {
                #expect(text.last == stop, "\(policy.feature) \(locale) \(key): \(text)")
            }
        }
    }

    @Test func usesASingleContinueActionOnEveryPrimingScreen() throws {
        let document = try PolicyFixtures.demo()
        #expect(document.defaults.style == .single)
        // An app-level consent is no priming screen: it grants on its own screen and must offer a decline (AC-1).
        for policy in document.orderedFeatures where policy.feature.capabilities.kind == .osPermission {
            #expect(policy.settings.style == nil || policy.settings.style == .single)
            for (_, set) in document.defaults.merging(policy.settings).copy {
                #expect(set[.prime, .cancelLabel] == nil)
                #expect(set[.prime, .continueLabel]?.localizedLowercase.contains("allow") == false)
            }
        }
    }
}
