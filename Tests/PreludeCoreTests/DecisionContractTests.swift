import Testing

@testable import PreludeCore

/// What a client developer reads in docs/decisions.md and docs/policy.md is what the engine, resolver and validator
/// do: unavailable features and old OS versions have words, contacts has its own picker, tracking's cadence is
/// visible and settable, and a button below its OS says so.
@Suite struct DecisionContractTests {
    static let now = Instant(secondsSinceEpoch: 1_800_000_000)

    static func decide(
        _ document: PolicyDocument, _ feature: Feature, _ status: AuthorizationStatus, os: String?,
        available: Bool = true, history: [CadenceKind: ScreenHistory] = [:]
    ) throws -> Decision {
        let version = os.flatMap(SemanticVersion.init)
        let context = ClientContext(platform: .ios, osVersion: version, locale: "en")
        let policy = try #require(PolicyResolver.resolve(feature, in: document, context: context))
        let state = ClientState(
            feature: feature, status: status, available: available, osVersion: version, history: history)
        return try DecisionEngine.decide(policy: policy, state: state, now: now)
    }

    // MARK: A screen always has words

    @Test func photosWithoutALibraryHasItsMessage() throws {
        let decision = try Self.decide(try PolicyFixtures.demo(), .photos, .notDetermined, os: "18.1", available: false)
        #expect(decision.action == .unsupported)
        #expect(decision.copy[.title]?.isEmpty == false)
        #expect(decision.copy[.message]?.isEmpty == false)
    }

    @Test func trackingBeforeIOS14HasItsMessage() throws {
        let decision = try Self.decide(try PolicyFixtures.demo(), .tracking, .notDetermined, os: "13.7")
        #expect(decision.action == .unsupported)
        #expect(decision.reason == .osTooOld)
        #expect(decision.copy[.title]?.isEmpty == false)
        #expect(decision.copy[.message]?.isEmpty == false)
    }

    @Test func theCatalogueSaysWhichFeaturesMayBeMissing() {
        let missing = Feature.allCases.filter { $0.capabilities.mayBeUnavailable }
        #expect(missing == [.camera, .microphone, .photos, .bluetooth, .motion, .speech, .health])
    }

    @Test func unsupportedCopyIsRequiredWhereTheEngineCanShowIt() throws {
        // Photos may have no library source: unsupported copy is required.
        let photos =
            #"{"features": {"photos": {"copy": {"en": {"prime": {"title": "Photos", "message": "Pick photos."}, "settings": {"title": "Photos off", "message": "Open Settings."}}}}}, "defaults": {"copy": {"en": {"unsupported": null}}}, "experiments": null}"#
        let validation = PolicyValidator.validate(try PolicyFixtures.minimal(patchedWith: photos))
        let pointers = validation.problems.filter { $0.code == .missingCopy }.map(\.pointer.description)
        #expect(pointers.contains("/features/photos/copy/en/unsupported/title"))
        #expect(pointers.contains("/features/photos/copy/en/unsupported/message"))
    }

    @Test func trackingNeedsUnsupportedCopyUnlessTheAppTargetsIOS14() throws {
        let tracking =
            #"{"features": {"tracking": {"copy": {"en": {"prime": {"title": "Ads", "message": "Ads fit you."}}}}, "microphone": {"copy": {"en": {"unsupported": {"title": "No microphone", "message": "This device has none."}}}}}, "defaults": {"copy": {"en": {"unsupported": null}}}}"#
        let below = PolicyValidator.validate(try PolicyFixtures.minimal(patchedWith: tracking))
        #expect(
            below.problems.filter { $0.pointer.description.hasPrefix("/features/tracking/copy/en/unsupported") }
                .map(\.code) == [.missingCopy, .missingCopy])
        let targeting14 = try PolicyFixtures.minimal(patchedWith: tracking)
            .mergePatch(try JSONValue(parsing: #"{"app": {"minimumOS": "14.0"}}"#))
        let valid = PolicyValidator.validate(targeting14)
        #expect(!valid.problems.contains { $0.pointer.description.hasPrefix("/features/tracking") })
        #expect(valid.document?.app.minimumOS == SemanticVersion(major: 14))
    }

    @Test func minimumOSMustBeAVersion() throws {
        let validation = PolicyValidator.validate(
            try PolicyFixtures.minimal(patchedWith: #"{"app": {"minimumOS": "fifteen"}}"#))
        #expect(validation.problems.map(\.pointer.description) == ["/app/minimumOS"])
        #expect(validation.problems.first?.code == .invalidVersion)
    }

    @Test func anOSBelowTheAppsMinimumIsRefused() throws {
        let document = try #require(
            PolicyValidator.validate(
                try PolicyFixtures.minimal(patchedWith: #"{"app": {"minimumOS": "15.0"}}"#)
            ).document)
        #expect(throws: DecisionError.osBelowMinimum(os: SemanticVersion("14.8")!, minimum: SemanticVersion("15.0")!)) {
            try Self.decide(document, .microphone, .notDetermined, os: "14.8")
        }
        #expect(try Self.decide(document, .microphone, .notDetermined, os: "15.0").action == .prime)
        // The default floor is iOS 12.
        let plain = try PolicyFixtures.minimal()
        let defaultFloor = try #require(PolicyValidator.validate(plain).document)
        #expect(throws: DecisionError.self) { try Self.decide(defaultFloor, .microphone, .authorized, os: "11.4") }
    }

    @Test func aFeatureEveryDeviceHasCannotBeUnavailable() throws {
        let document = try PolicyFixtures.demo()
        #expect(throws: DecisionError.alwaysAvailable(.contacts)) {
            try Self.decide(document, .contacts, .notDetermined, os: "18.1", available: false)
        }
    }

    @Test func limitedPickerAndPartialButtonNeedTheirScreensCopy() throws {
        let patch =
            #"{"features": {"photos": {"partial": {"limited": "limitedPicker"}}, "contacts": {"partial": {"limited": "contactAccessButton"}}}}"#
        let validation = PolicyValidator.validate(try PolicyFixtures.minimal(patchedWith: patch))
        let pointers = Set(validation.problems.filter { $0.code == .missingCopy }.map(\.pointer.description))
        #expect(
            pointers.isSuperset(of: [
                "/features/photos/copy/en/upgrade/title", "/features/photos/copy/en/upgrade/message",
                "/features/photos/copy/en/upgrade/continueLabel", "/features/contacts/copy/en/button/caption",
            ]))
    }

    // MARK: contactAccessPicker

    @Test func contactsLimitedPickerIsTheContactAccessPicker() throws {
        let base = try PolicyFixtures.demoText()
        let patched = try JSONValue(parsing: Array(base.utf8)).mergePatch(
            try JSONValue(
                parsing:
                    #"{"features": {"contacts": {"partial": {"limited": "limitedPicker"}, "copy": {"en": {"upgrade": {"title": "More contacts", "message": "Choose which contacts {appName} can see."}}}}}}"#
            ))
        let validation = PolicyValidator.validate(patched)
        let document = try #require(validation.document, "\(validation.problems.map(\.description))")
        let decision = try Self.decide(document, .contacts, .limited, os: "18.1")
        #expect(decision.action == .contactAccessPicker)
        #expect(decision.reason == .partialUpgradeEligible)
        #expect(decision.screen == .upgrade)
        #expect(decision.countsAgainst == .upgrade)
        #expect(decision.events.events == [.limitedPickerShown, .systemGranted])
        // Photos keeps its own picker.
        let photos = try Self.decide(try PolicyFixtures.demo(), .photos, .limited, os: "18.1")
        if try PolicyFixtures.demo().features[.photos]?.settings.partial[.limited] == .limitedPicker {
            #expect(photos.action == .limitedPicker)
        }
        // Limited contacts exist only from iOS 18, like the picker: an older OS is refused, not downgraded.
        #expect(throws: DecisionError.self) { try Self.decide(document, .contacts, .limited, os: "17.5") }
        #expect(try Self.decide(document, .contacts, .limited, os: nil).action == .contactAccessPicker)
    }

    // MARK: Button below its OS

    @Test func aButtonBelowItsOSSaysItFellBack() throws {
        let document = try PolicyFixtures.demo()
        // The demo's contacts rule chooses `button` for iOS 18; a document-level `button` shows the fallback.
        let patched = document.jsonValue.mergePatch(
            try JSONValue(
                parsing:
                    #"{"features": {"contacts": {"strategy": "button", "copy": {"en": {"button": {"caption": "Add contacts."}}}}}}"#
            ))
        let buttonDocument = try #require(PolicyValidator.validate(patched).document)
        let old = try Self.decide(buttonDocument, .contacts, .notDetermined, os: "17.4")
        #expect(old.action == .prime)
        #expect(old.reason == .buttonUnavailableFallback)
        let unknown = try Self.decide(buttonDocument, .contacts, .notDetermined, os: nil)
        #expect(unknown.reason == .buttonUnavailableFallback)
        let new = try Self.decide(buttonDocument, .contacts, .notDetermined, os: "18.1")
        #expect(new.action == .contactAccessButton)
        // A plain `prime` strategy stays primeEligible.
        #expect(try Self.decide(document, .camera, .notDetermined, os: "17.4").reason == .primeEligible)
        let context = ClientContext(platform: .ios, osVersion: SemanticVersion("17.4"))
        let resolved = try #require(PolicyResolver.resolve(.contacts, in: buttonDocument, context: context))
        #expect(resolved.jsonValue["strategy"] == "prime")
        #expect(resolved.jsonValue["fallbackFrom"] == "button")
    }

    // MARK: Tracking's cadence

    @Test func trackingShowsAndTakesItsPrimingCadence() throws {
        let patch = #"{"features": {"tracking": {"cadence": {"prime": {"minIntervalHours": 24, "maxShows": 2}}}}}"#
        let text = try PolicyFixtures.demoText()
        let json = try JSONValue(parsing: Array(text.utf8)).mergePatch(try JSONValue(parsing: patch))
        let validation = PolicyValidator.validate(json)
        let document = try #require(validation.document, "\(validation.problems.map(\.description))")
        let context = ClientContext(platform: .ios, osVersion: SemanticVersion("17.0"), locale: "en")
        let tracking = try #require(PolicyResolver.resolve(.tracking, in: document, context: context))
        let output = tracking.jsonValue
        #expect(output["cadence"]?["prime"]?["minIntervalHours"] == 24)
        #expect(output["cadence"]?["prime"]?["maxShows"] == 2)
        #expect(output["cadence"]?["settings"] == nil)
        #expect(output["cadence"]?["upgrade"] == nil)
        // The engine never opens Settings for tracking: no Settings behaviour, no Settings texts.
        #expect(output["settings"] == nil)
        #expect(output["copy"]?["settings"] == nil)
        // The engine applies exactly what the resolved policy shows.
        let left = ScreenHistory(shownCount: 1, lastShown: Self.now, lastOutcome: .leftWithoutContinuing)
        let waiting = try Self.decide(document, .tracking, .notDetermined, os: "17.0", history: [.prime: left])
        #expect(waiting.action == .wait)
        #expect(waiting.eligibleAt == Self.now.adding(seconds: 24 * 3_600))
        let twice = ScreenHistory(shownCount: 2, lastShown: Self.now, lastOutcome: .leftWithoutContinuing)
        #expect(
            try Self.decide(document, .tracking, .notDetermined, os: "17.0", history: [.prime: twice]).reason
                == .primeCadenceExhausted)
    }

    @Test func trackingRefusesTheCadencesAndSettingsItNeverUses() throws {
        let patch =
            #"{"features": {"tracking": {"cadence": {"settings": {"maxShows": 1}, "upgrade": {"maxShows": 1}}, "settings": {"delayMs": 100}}}}"#
        let text = try PolicyFixtures.demoText()
        let json = try JSONValue(parsing: Array(text.utf8)).mergePatch(try JSONValue(parsing: patch))
        let problems = PolicyValidator.validate(json).problems
        #expect(
            problems.map { "\($0.pointer) \($0.code.rawValue)" } == [
                "/features/tracking/cadence/settings cadence.notAllowed",
                "/features/tracking/cadence/upgrade cadence.notAllowed",
                "/features/tracking/settings settings.notAllowed",
            ])
    }
}
