import Testing

@testable import PreludeCore

@Suite struct PreviewCatalogueTests {
    private func document(_ patch: String = "{}") throws -> PolicyDocument {
        let validation = PolicyValidator.validate(try PolicyFixtures.minimal(patchedWith: patch))
        return try #require(validation.document, "\(validation.problems)")
    }

    private func actions(_ screens: [PreviewScreen], _ feature: Feature, _ locale: String, _ variant: String = "base")
        -> [DecisionAction]
    {
        screens.filter { $0.feature == feature && $0.locale.description == locale && $0.variant.id == variant }
            .map(\.action)
    }

    @Test func drawsEveryScreenTheEngineCanChooseForEachDemoFeatureInEveryLocale() throws {
        let demo = try PolicyFixtures.demo()
        let screens = PreviewCatalogue.screens(of: demo)
        let expected: [Feature: [DecisionAction]] = [
            .camera: [.prime, .openSettings, .deniedScreen, .restrictedNotice, .unsupported],
            .microphone: [.prime, .openSettings, .deniedScreen, .restrictedNotice, .unsupported],
            .photos: [.prime, .openSettings, .deniedScreen, .restrictedNotice, .unsupported, .limitedPicker],
            .contacts: [.prime, .contactAccessButton, .openSettings, .deniedScreen, .restrictedNotice],
            .locationWhenInUse: [
                .prime, .openSettings, .deniedScreen, .restrictedNotice, .locationServicesOff, .upgrade,
            ],
            .notifications: [.prime, .openSettings, .deniedScreen, .upgrade],
            .tracking: [.prime, .deniedScreen, .restrictedNotice, .unsupported],
            .bluetooth: [.prime, .openSettings, .deniedScreen, .restrictedNotice, .unsupported],
            .calendars: [.prime, .openSettings, .deniedScreen, .restrictedNotice, .upgrade],
            .localNetwork: [.prime, .openSettings, .deniedScreen, .unsupported],
            .alarms: [.prime, .openSettings, .deniedScreen, .unsupported],
            // HealthKit: no restricted status, supported since iOS 8; the read answer is never known.
            .health: [.prime, .openSettings, .deniedScreen, .unsupported],
            // An app-level consent: its screen, and the explanation once declined; no Settings page.
            .aiDataSharing: [.prime, .deniedScreen],
        ]
        #expect(Set(demo.features.keys) == Set(expected.keys))
        for (feature, actions) in expected {
            for locale in ["en", "fr", "ja", "zh-Hans", "zh-Hant"] {
                #expect(self.actions(screens, feature, locale) == actions, "\(feature) \(locale)")
            }
        }
        // The rules that switch to the system buttons add their screens.
        #expect(self.actions(screens, .locationWhenInUse, "en", "rule:location-button-ios15").contains(.locationButton))
        // Both camera experiment arms, in every locale.
        for variant in ["experiment:camera-prime-copy:control", "experiment:camera-prime-copy:short-copy"] {
            #expect(self.actions(screens, .camera, "ja", variant) == expected[.camera])
        }
        // Both photos arms: the picker arm draws no screen of ours on a recent OS (PhotosPicker is the system's),
        // only the priming screen it falls back to on an unknown OS.
        for variant in ["experiment:photos-ask-vs-picker:ask", "experiment:photos-ask-vs-picker:picker"] {
            #expect(self.actions(screens, .photos, "zh-Hant", variant).first == .prime, "\(variant)")
        }
        #expect(
            self.actions(screens, .photos, "fr", "experiment:photos-ask-vs-picker:picker") == [.prime, .unsupported])
        // The Location Services screen has its own words in every locale, never the app's Settings nudge.
        for locale in ["en", "fr", "ja", "zh-Hans", "zh-Hant"] {
            let off = try #require(screens.first { $0.id == "locationWhenInUse/\(locale)/base/locationServicesOff" })
            #expect(off.screen == .servicesOff && off.missing.isEmpty, "\(locale)")
        }
        // The rule that extends limited contacts with the bulk contact access picker draws it on the upgrade
        // screen, with the rule's own words, in every locale.
        for locale in ["en", "fr", "ja", "zh-Hans", "zh-Hant"] {
            let rule = "rule:contact-access-picker-ipad"
            #expect(
                self.actions(screens, .contacts, locale, rule)
                    == [.prime, .openSettings, .deniedScreen, .restrictedNotice, .contactAccessPicker], "\(locale)")
            let picker = try #require(screens.first { $0.id == "contacts/\(locale)/\(rule)/contactAccessPicker" })
            #expect(picker.screen == .upgrade && picker.missing.isEmpty, "\(locale)")
            #expect(
                picker.texts.first?.source?.description
                    == "/features/contacts/targeting/1/set/copy/\(locale)/upgrade/title")
        }
        // The calendars ask-less rule: EventKitUI's editor is the system's own, so only the priming screen it falls
        // back to on an unknown OS is drawn.
        #expect(self.actions(screens, .calendars, "ja", "rule:event-editor-ipad-ios17") == [.prime])
        #expect(Set(screens.map(\.id)).count == screens.count, "one screen per id")
    }

    @Test func wordsAreTheResolvedOnesWithTheirSource() throws {
        let demo = try PolicyFixtures.demo()
        let screens = PreviewCatalogue.screens(of: demo)
        let prime = try #require(screens.first { $0.id == "camera/fr/base/prime" })
        #expect(prime.texts.map(\.field) == [.title, .message, .continueLabel], "the single style has no second label")
        #expect(prime.texts[0].text == "Prendre des photos dans Prelude Demo")
        #expect(prime.texts[0].source?.description == "/features/camera/copy/fr/prime/title")
        #expect(prime.texts[2].source?.description == "/defaults/copy/fr/prime/continueLabel")
        let short = try #require(screens.first { $0.id == "camera/en/experiment:camera-prime-copy:short-copy/prime" })
        #expect(short.texts[1].text == "Prelude Demo uses the camera to scan your documents.")
        #expect(short.texts[1].source?.description == "/experiments/0/variants/1/set/copy/en/prime/message")
        // Every text matches what the resolver gives a real client of that locale and arm.
        let resolved = try #require(
            PolicyResolver.resolve(.camera, in: demo, context: ClientContext(locale: "fr", installId: "x")))
        #expect(resolved.copy[.prime, .title] == prime.texts[0].text)
    }

    @Test func fallsBackAlongTheLocaleChainAndPointsAtTheFallback() throws {
        let document = try document(#"{"features": {"microphone": {"copy": {"de": {"prime": {"title": "Notizen"}}}}}}"#)
        let screens = PreviewCatalogue.screens(of: document)
        let prime = try #require(screens.first { $0.id == "microphone/de/base/prime" })
        #expect(prime.texts.map(\.text) == ["Notizen", "Test App records voice notes.", "Continue"])
        #expect(prime.texts[1].source?.description == "/features/microphone/copy/en/prime/message")
        #expect(PreviewCatalogue.locales(of: document).map(\.description) == ["en", "de"])
    }

    @Test func attachesLintFindingsToTheTextsAndScreensTheyConcern() throws {
        let document = try document(
            #"{"features": {"microphone": {"style": "twoButton", "copy": {"en": {"prime": {"continueLabel": "Allow", "cancelLabel": "Not Now"}}}}}}"#
        )
        let screens = PreviewCatalogue.screens(of: document)
        let prime = try #require(screens.first { $0.id == "microphone/en/base/prime" })
        #expect(prime.style == .twoButton)
        #expect(prime.texts.map(\.field) == [.title, .message, .continueLabel, .cancelLabel])
        #expect(prime.findings.map(\.ruleId) == ["PA-1"])
        #expect(prime.texts[2].findings.map(\.ruleId) == ["PA-2"])
        #expect(prime.texts[3].findings.map(\.ruleId) == ["PA-3"])
        let settings = try #require(screens.first { $0.id == "microphone/en/base/openSettings" })
        #expect(settings.allFindings.isEmpty)
    }

    @Test func previewsOnlyRulesThatChangeScreensAndOnlyWhereTheirLocaleMatches() throws {
        let document = try document(
            #"""
            {"features": {"microphone": {"targeting": [
              {"name": "old-app", "when": {"appVersion": "<2.0.0"}, "set": {"cadence": {"prime": {"maxShows": 1}}}},
              {"name": "french", "when": {"locales": ["fr"]}, "set": {"copy": {"fr": {"prime": {"title": "Notes vocales"}}}}},
              {"name": "direct", "when": {"platform": ["ios"]}, "set": {"strategy": "direct"}}
            ], "copy": {"fr": {"prime": {"message": "Test App enregistre des notes."}}}}}}
            """#)
        let variants = PreviewCatalogue.variants(of: try #require(document.features[.microphone]), in: document)
        #expect(variants.map(\.id) == ["base", "rule:french", "rule:direct", "experiment:mic:a", "experiment:mic:b"])
        let screens = PreviewCatalogue.screens(of: document)
        #expect(actions(screens, .microphone, "en", "rule:french").isEmpty, "the rule only reaches French clients")
        let french = try #require(screens.first { $0.id == "microphone/fr/rule:french/prime" })
        #expect(french.texts[0].text == "Notes vocales")
        #expect(french.texts[0].source?.description == "/features/microphone/targeting/1/set/copy/fr/prime/title")
        // A direct strategy asks with the system alert: no priming screen to draw.
        #expect(
            actions(screens, .microphone, "en", "rule:direct")
                == [.openSettings, .deniedScreen, .restrictedNotice, .unsupported])
    }

    @Test func marksFieldsNoLocaleHas() throws {
        // Validation refuses such a document; the catalogue still draws it, with the gaps shown.
        var document = try document()
        document.defaults.copy[try #require(LocaleTag("en"))]?.texts[CopyKey(.restricted, .title)] = nil
        document.defaults.copy[try #require(LocaleTag("en"))]?.texts[CopyKey(.restricted, .message)] = nil
        let screens = PreviewCatalogue.screens(of: document)
        let restricted = try #require(screens.first { $0.id == "microphone/en/base/restrictedNotice" })
        #expect(restricted.texts.isEmpty)
        #expect(restricted.missing == [.title, .message])
    }

    @Test func isDeterministic() throws {
        let demo = try PolicyFixtures.demo()
        #expect(PreviewCatalogue.screens(of: demo) == PreviewCatalogue.screens(of: demo))
    }
}
