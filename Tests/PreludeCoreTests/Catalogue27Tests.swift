import Testing

@testable import PreludeCore

/// What iOS 26–27 changed in the catalogue (docs/catalogue.md, "iOS 17 to 27"): tracking's system re-ask by OS
/// version and storefront, the storefront region and the declared age band as targeting facts, app-level consents,
/// HealthKit's unknowable read status and limited history, and Wi-Fi Aware pairing.
@Suite struct Catalogue27Tests {
    typealias Table = DecisionEngineTests
    static let now = Table.now

    static func decide(
        _ policy: ResolvedFeature, _ status: AuthorizationStatus, os: String? = "27.2", region: String? = nil,
        promptShown: Bool = false, history: [CadenceKind: ScreenHistory] = [:]
    ) throws -> Decision {
        let state = ClientState(
            feature: policy.feature, status: status, osVersion: os.flatMap(SemanticVersion.init), history: history,
            trackingPromptShown: promptShown, region: region.flatMap(StorefrontRegion.init))
        return try DecisionEngine.decide(policy: policy, state: state, now: now)
    }

    // MARK: Tracking

    @Test(
        arguments: [
            ("27.2", "FRA", true), ("27.2", "DEU", true), ("28.0", "ESP", true), ("27.2", nil, true),
            ("27.2", "USA", false), ("27.2", "CHE", false), ("27.1", "FRA", false), ("26.4", "FRA", false),
            (nil, "FRA", false),
        ] as [(String?, String?, Bool)])
    func trackingReopenedByTheSystemIsAskedAgainOnlyWhereTheSystemMay(os: String?, region: String?, reask: Bool)
        throws
    {
        let policy = Table.makePolicy(.tracking)
        let decision = try Self.decide(policy, .notDetermined, os: os, region: region, promptShown: true)
        if reask {
            #expect(decision.action == .systemPrompt)
            #expect(decision.reason == .systemReask)
            #expect(decision.screen == nil && decision.countsAgainst == nil, "no screen, no cadence of ours")
        } else {
            #expect(decision.action == .deniedScreen)
            #expect(decision.reason == .trackingAskedOnce)
        }
    }

    @Test func trackingDeniedWhereTheSystemMayReaskIsNeverNudgedByUs() throws {
        let policy = Table.makePolicy(.tracking)
        // However long ago anything was shown: our cadence never leads back to the prompt.
        let history: [CadenceKind: ScreenHistory] = [
            .prime: ScreenHistory(shownCount: 1, lastShown: Instant(secondsSinceEpoch: 0), lastOutcome: .continued)
        ]
        let eu = try Self.decide(policy, .denied, region: "FRA", history: history)
        #expect(eu.action == .deniedScreen && eu.reason == .systemOwnsReask && eu.screen == .denied)
        let us = try Self.decide(policy, .denied, region: "USA", history: history)
        #expect(us.action == .deniedScreen && us.reason == .trackingAskedOnce)
    }

    @Test func aRegionTheClientDidNotSendIsTheContexts() {
        let state = ClientState(feature: .tracking, status: .notDetermined)
        let context = ClientContext(osVersion: SemanticVersion("27.2"), region: StorefrontRegion("fra"))
        let completed = DecideContract.completed(state, context: context)
        #expect(completed.region?.code == "FRA")
        #expect(completed.osVersion == SemanticVersion("27.2"))
    }

    @Test func theCataloguesReaskIsTrackingsAlone() {
        for capabilities in FeatureCatalogue.all where capabilities.feature != .tracking {
            #expect(capabilities.systemReask == nil, "\(capabilities.feature)")
        }
        let tracking = Feature.tracking.capabilities
        #expect(tracking.systemMayReask(osVersion: SemanticVersion("27.2"), region: StorefrontRegion("ITA")))
        #expect(!tracking.systemMayReask(osVersion: SemanticVersion("27.2"), region: StorefrontRegion("GBR")))
    }

    // MARK: Region and age band

    @Test(
        arguments: [("fra", "FRA"), ("USA", "USA"), ("deU", "DEU")] as [(String, String)])
    func storefrontCodesAreThreeLettersUpperCased(text: String, code: String) {
        #expect(StorefrontRegion(text)?.code == code)
    }

    @Test(arguments: ["", "FR", "FRAN", "F1A", "ÉTA", "fr-"])
    func anythingElseIsNotARegion(text: String) {
        #expect(StorefrontRegion(text) == nil)
    }

    @Test(
        arguments: [
            ("13-15", 13, 15 as Int?), ("18+", 18, nil), ("0-12", 0, 12), ("16-17", 16, 17),
        ] as [(String, Int, Int?)])
    func ageBandsParseAndPrint(text: String, lower: Int, upper: Int?) throws {
        let band = try #require(AgeRange(text))
        #expect(band.lowerBound == lower && band.upperBound == upper)
        #expect(band.description == text)
    }

    @Test(arguments: ["18", "15-13", "-5", "a-b", "13-", "200+", "1-2-3", ""])
    func malformedAgeBandsAreRefused(text: String) {
        #expect(AgeRange(text) == nil)
    }

    @Test func anAgeConditionMatchesOnlyBandsWhollyOnItsSide() throws {
        let adults = try #require(AgeCondition(">=18"))
        let minors = try #require(AgeCondition("<18"))
        let cases: [(String, Bool, Bool)] = [
            ("18+", true, false), ("13-15", false, true), ("16-17", false, true), ("16+", false, false),
            ("0-12", false, true), ("13-20", false, false),
        ]
        for (text, adult, minor) in cases {
            let band = try #require(AgeRange(text))
            #expect(adults.matches(band) == adult, "\(text) >=18")
            #expect(minors.matches(band) == minor, "\(text) <18")
        }
        #expect(AgeCondition("18") == nil && AgeCondition("<=18") == nil && AgeCondition(">=0") == nil)
    }

    @Test func targetingMatchesRegionsGroupsAndAgeBands() throws {
        let condition = TargetingCondition(regions: ["EU", "CHE"], ageRange: AgeCondition("<18"))
        func context(_ region: String?, _ band: String?) -> ClientContext {
            ClientContext(region: region.flatMap(StorefrontRegion.init), ageRange: band.flatMap(AgeRange.init))
        }
        #expect(condition.matches(context("FRA", "13-15")))
        #expect(condition.matches(context("CHE", "0-12")))
        #expect(!condition.matches(context("USA", "13-15")), "not in the EU or Switzerland")
        #expect(!condition.matches(context("FRA", "18+")), "an adult")
        #expect(!condition.matches(context(nil, "13-15")), "an unknown region never matches")
        #expect(!condition.matches(context("FRA", nil)), "an unknown age never matches")
    }

    @Test func aRuleOnRegionAndAgeDecodesValidatesAndRoundTrips() throws {
        let json = try PolicyFixtures.minimal(
            patchedWith: """
                {"features": {"microphone": {"targeting": [{"name": "eu-minors",
                  "when": {"region": ["EU", "CHE"], "ageRange": "<18"},
                  "set": {"cadence": {"prime": {"maxShows": 0}}}}]}}}
                """)
        let validation = PolicyValidator.validate(json)
        let document = try #require(validation.document, "\(validation.problems)")
        let rule = try #require(document.features[.microphone]?.targeting.first)
        #expect(rule.when.regions == ["EU", "CHE"])
        #expect(rule.when.ageRange == AgeCondition("<18"))
        #expect(rule.jsonValue["when"] == (try JSONValue(parsing: #"{"region": ["EU", "CHE"], "ageRange": "<18"}"#)))
        // The rule applies to an EU minor only; the resolution key keeps what the rule reads.
        let minor = ClientContext(region: StorefrontRegion("FRA"), ageRange: AgeRange("13-15"))
        let adult = ClientContext(region: StorefrontRegion("FRA"), ageRange: AgeRange("18+"))
        let resolvedMinor = try #require(PolicyResolver.resolve(document, context: minor)[.microphone])
        let resolvedAdult = try #require(PolicyResolver.resolve(document, context: adult)[.microphone])
        #expect(resolvedMinor.appliedRules == ["eu-minors"])
        #expect(resolvedAdult.appliedRules.isEmpty)
        let shape = ResolutionKeyShape(document)
        #expect(shape.usesRegion && shape.usesAgeRange)
        #expect(ResolutionKey(context: minor, shape: shape) != ResolutionKey(context: adult, shape: shape))
    }

    @Test func malformedRegionsAndAgeConditionsAreNamedByPointer() throws {
        let json = try PolicyFixtures.minimal(
            patchedWith: """
                {"features": {"microphone": {"targeting": [{"name": "bad",
                  "when": {"region": ["fr", "EUROPE"], "ageRange": "18"}, "set": {"strategy": "direct"}}]}}}
                """)
        let pointers = PolicyValidator.validate(json).problems.map(\.pointer.description)
        #expect(pointers.contains("/features/microphone/targeting/0/when/region/0"))
        #expect(pointers.contains("/features/microphone/targeting/0/when/region/1"))
        #expect(pointers.contains("/features/microphone/targeting/0/when/ageRange"))
    }

    // MARK: App-level consents

    @Test func aConsentIsAskedOnItsOwnScreenWhateverTheStrategy() throws {
        for strategy in [Strategy.prime, .direct] {
            let decision = try Self.decide(Table.makePolicy(.aiDataSharing, strategy: strategy), .notDetermined)
            #expect(decision.action == .prime && decision.reason == .consentScreen && decision.screen == .prime)
            #expect(decision.countsAgainst == .prime)
        }
        let policy = Table.makePolicy(.aiDataSharing)
        #expect(try Self.decide(policy, .authorized).reason == .consentGranted)
        let declined = try Self.decide(policy, .denied)
        #expect(declined.action == .deniedScreen && declined.reason == .consentDeclined)
        #expect(declined.settingsDelayMs == nil, "no Settings page behind a consent")
        #expect(throws: DecisionError.self) { try Self.decide(policy, .restricted) }
    }

    @Test func aConsentKeepsThePrimingCadence() throws {
        let policy = Table.makePolicy(.aiDataSharing)
        let shown = ScreenHistory(shownCount: 3, lastShown: Self.now, lastOutcome: .dismissed)
        let decision = try Self.decide(policy, .notDetermined, history: [.prime: shown])
        #expect(decision.action == .wait)
    }

    @Test func aConsentNeedsNoPurposeStringAndHasNoSettingsScreen() {
        let consent = Feature.aiDataSharing.capabilities
        #expect(consent.kind == .appConsent)
        #expect(consent.purposeStrings.isEmpty)
        #expect(consent.screensNeverShown.contains(.settings))
        #expect(consent.cadenceKinds == [.prime])
        #expect(FeatureCatalogue.all.filter { $0.kind == .appConsent }.map(\.feature) == [.aiDataSharing])
    }

    // MARK: HealthKit

    @Test func healthNeverClaimsToKnowTheReadStatus() throws {
        let policy = Table.makePolicy(.health)
        // After the request (the ledger says so), the status can only read notDetermined: proceed and query.
        let asked = try Self.decide(policy, .notDetermined, promptShown: true)
        #expect(asked.action == .proceed && asked.reason == .statusNotKnowable)
        #expect(try Self.decide(policy, .notDetermined).action == .prime)
    }

    @Test func healthsLimitedHistoryIsAPartialGrantFromIOS27() throws {
        let policy = Table.makePolicy(.health, partial: [.limited: .upgrade])
        let decision = try Self.decide(policy, .limited, os: "27.0")
        #expect(decision.action == .upgrade && decision.reason == .partialUpgradeEligible)
        #expect(throws: DecisionError.self) { try Self.decide(policy, .limited, os: "26.4") }
        #expect(Feature.health.capabilities.reportedPartialGrant != nil)
    }

    // MARK: Wi-Fi Aware

    @Test func theLocalNetworkCanBeSkippedByWiFiAwarePairingFromIOS26() throws {
        let policy = Table.makePolicy(.localNetwork, strategy: .permissionless)
        let decision = try Self.decide(policy, .notDetermined, os: "26.0")
        #expect(decision.action == .permissionless && decision.path == .wifiAwarePairing)
        let older = try Self.decide(policy, .notDetermined, os: "18.6")
        #expect(older.action == .prime && older.reason == .permissionlessUnavailableFallback)
    }

    // MARK: Motion

    @Test func rawMotionSensorsAreTheMotionFeature() {
        // CMMotionManager.authorizationStatus (iOS 27.2) reports the same CMAuthorizationStatus as
        // CMMotionActivityManager, behind the same purpose string: one feature, one prompt, one cadence.
        #expect(Feature(rawValue: "motionSensors") == nil)
        #expect(Feature.motion.capabilities.purposeStrings == ["NSMotionUsageDescription"])
    }
}
