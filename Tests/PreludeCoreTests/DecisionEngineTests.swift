import Testing

@testable import PreludeCore

/// One test per row of DESIGN.md's decision table, plus the variations the table implies.
@Suite("Decision engine: the DESIGN table")
struct DecisionEngineTests {
    static let now = Instant(secondsSinceEpoch: 1_800_000_000)
    static let hour = 3_600.0

    static func makeCopy() -> ResolvedCopy {
        var texts: [CopyKey: String] = [:]
        for key in CopyKey.all { texts[key] = "\(key.screen).\(key.field)" }
        return ResolvedCopy(texts)
    }

    static func makePolicy(
        _ feature: Feature = .camera, strategy: Strategy = .prime, style: PrimingStyle = .single,
        partial: [AuthorizationStatus: PartialAction] = [:]
    ) -> ResolvedFeature {
        ResolvedFeature(
            feature: feature, strategy: strategy, button: strategy == .button ? feature.capabilities.button?.kind : nil,
            style: style,
            cadence: Cadence(
                prime: CadenceRule(minIntervalHours: 24, backoff: 2, maxShows: 3),
                settings: CadenceRule(minIntervalHours: 168, backoff: 2, maxShows: 2),
                upgrade: CadenceRule(minIntervalHours: 72, backoff: 1, maxShows: 2)),
            settings: SettingsBehaviour(delayMs: 200, leaveScreenFirst: true),
            partial: partial, copy: makeCopy(),
            variant: VariantAssignment(experiment: "camera-copy", variant: "control"))
    }

    static func decide(
        _ policy: ResolvedFeature, _ status: AuthorizationStatus, available: Bool = true, os: String? = "18.1",
        history: [CadenceKind: ScreenHistory] = [:], trackingPromptShown: Bool = false
    ) throws -> Decision {
        let state = ClientState(
            feature: policy.feature, status: status, available: available,
            osVersion: os.flatMap(SemanticVersion.init), history: history, trackingPromptShown: trackingPromptShown)
        return try DecisionEngine.decide(policy: policy, state: state, now: now)
    }

    // MARK: Row 1 — hardware/source unavailable

    @Test func unavailableHardwareIsUnsupportedWithMessage() throws {
        let decision = try Self.decide(Self.makePolicy(), .notDetermined, available: false)
        #expect(decision.action == .unsupported)
        #expect(decision.reason == .hardwareUnavailable)
        #expect(decision.copy == [.title: "unsupported.title", .message: "unsupported.message"])
        #expect(decision.events.events == [.unsupportedShown])
    }

    @Test func unavailableWinsOverAuthorized() throws {
        #expect(try Self.decide(Self.makePolicy(), .authorized, available: false).action == .unsupported)
    }

    @Test func osOlderThanTheFeatureIsUnsupported() throws {
        let decision = try Self.decide(Self.makePolicy(.tracking), .notDetermined, os: "13.7")
        #expect(decision.action == .unsupported)
        #expect(decision.reason == .osTooOld)
    }

    @Test func osOlderThanTheFeatureIsUnsupportedWhateverTheStatus() throws {
        #expect(try Self.decide(Self.makePolicy(.tracking), .authorized, os: "13.0").action == .unsupported)
    }

    // MARK: Row 2 — authorized

    @Test func authorizedProceedsWithNothing() throws {
        let decision = try Self.decide(Self.makePolicy(), .authorized)
        #expect(decision.action == .proceed)
        #expect(decision.copy.isEmpty)
        #expect(decision.screen == nil)
        #expect(decision.events == .none)
    }

    // MARK: Row 3 — notDetermined, prime, cadence allows

    @Test func notDeterminedPrimesWithCopyStyleAndVariant() throws {
        let decision = try Self.decide(Self.makePolicy(), .notDetermined)
        #expect(decision.action == .prime)
        #expect(decision.style == .single)
        #expect(decision.variant == VariantAssignment(experiment: "camera-copy", variant: "control"))
        #expect(
            decision.copy == [.title: "prime.title", .message: "prime.message", .continueLabel: "prime.continueLabel"])
        #expect(decision.countsAgainst == .prime)
        #expect(
            decision.events.events == [.primeShown, .primeAccepted, .primeDismissed, .systemGranted, .systemDenied])
    }

    @Test func twoButtonStyleKeepsTheSecondLabel() throws {
        let decision = try Self.decide(Self.makePolicy(style: .twoButton), .notDetermined)
        #expect(decision.style == .twoButton)
        #expect(decision.copy[.cancelLabel] == "prime.cancelLabel")
    }

    @Test func primeIsShownAgainOnceTheIntervalPassed() throws {
        let history = ScreenHistory(
            shownCount: 1, lastShown: Self.now.adding(seconds: -24 * Self.hour),
            lastOutcome: .leftWithoutContinuing)
        #expect(try Self.decide(Self.makePolicy(), .notDetermined, history: [.prime: history]).action == .prime)
    }

    // MARK: Row 4 — notDetermined, prime, shown recently or too often

    @Test func primeShownRecentlyWaitsUntilEligible() throws {
        let last = Self.now.adding(seconds: -30 * Self.hour)
        let history = ScreenHistory(shownCount: 2, lastShown: last, lastOutcome: .leftWithoutContinuing)
        let decision = try Self.decide(Self.makePolicy(), .notDetermined, history: [.prime: history])
        #expect(decision.action == .wait)
        #expect(decision.reason == .primeCadenceWaiting)
        // Second re-show: 24 h × 2.
        #expect(decision.eligibleAt == last.adding(seconds: 48 * Self.hour))
        #expect(decision.copy.isEmpty)
        #expect(decision.events == .none)
    }

    @Test func primeShownTooOftenWaitsWithoutAnInstant() throws {
        let history = ScreenHistory(
            shownCount: 3, lastShown: Self.now.adding(seconds: -1_000 * Self.hour),
            lastOutcome: .dismissed)
        let decision = try Self.decide(Self.makePolicy(), .notDetermined, history: [.prime: history])
        #expect(decision.action == .wait)
        #expect(decision.reason == .primeCadenceExhausted)
        #expect(decision.eligibleAt == nil)
    }

    @Test func continuedFromPrimingGoesToTheSystemPrompt() throws {
        let history = ScreenHistory(shownCount: 1, lastShown: Self.now.adding(seconds: -60), lastOutcome: .continued)
        let decision = try Self.decide(Self.makePolicy(), .notDetermined, history: [.prime: history])
        #expect(decision.action == .systemPrompt)
        #expect(decision.reason == .primeAlreadyAccepted)
    }

    // MARK: Row 5 — notDetermined, direct

    @Test func directStrategyFiresTheSystemPrompt() throws {
        let decision = try Self.decide(Self.makePolicy(strategy: .direct), .notDetermined)
        #expect(decision.action == .systemPrompt)
        #expect(decision.copy.isEmpty)
        #expect(decision.events.events == [.systemGranted, .systemDenied])
    }

    // MARK: Row 6 — buttons

    @Test func locationButtonOnIOS15() throws {
        let decision = try Self.decide(
            Self.makePolicy(.locationWhenInUse, strategy: .button), .notDetermined, os: "15.0")
        #expect(decision.action == .locationButton)
        #expect(decision.copy == [.caption: "button.caption"])
        #expect(decision.events.onShow == .buttonShown)
    }

    @Test func contactAccessButtonOnIOS18() throws {
        let decision = try Self.decide(Self.makePolicy(.contacts, strategy: .button), .notDetermined, os: "18.0")
        #expect(decision.action == .contactAccessButton)
        #expect(decision.copy == [.caption: "button.caption"])
    }

    @Test(arguments: [(Feature.locationWhenInUse, "14.8" as String?), (.contacts, "17.6"), (.contacts, nil)])
    func buttonBelowItsOSFallsBackToPriming(feature: Feature, os: String?) throws {
        let decision = try Self.decide(Self.makePolicy(feature, strategy: .button), .notDetermined, os: os)
        #expect(decision.action == .prime)
        #expect(decision.reason == .buttonUnavailableFallback)
    }

    @Test func buttonFallbackStillHonoursThePrimingCadence() throws {
        let history = ScreenHistory(shownCount: 1, lastShown: Self.now.adding(seconds: -Self.hour))
        let policy = Self.makePolicy(.contacts, strategy: .button)
        #expect(try Self.decide(policy, .notDetermined, os: "17.0", history: [.prime: history]).action == .wait)
    }

    // MARK: Row 7 — denied, settings cadence allows

    @Test func deniedWithNudgeDueOpensSettingsAfterDelayLeavingTheScreenFirst() throws {
        let decision = try Self.decide(Self.makePolicy(), .denied)
        #expect(decision.action == .openSettings)
        #expect(decision.settingsDelayMs == 200)
        #expect(decision.leaveScreenFirst == true)
        #expect(
            decision.copy == [
                .title: "settings.title", .message: "settings.message",
                .openLabel: "settings.openLabel", .cancelLabel: "settings.cancelLabel",
            ])
        #expect(decision.countsAgainst == .settings)
        #expect(decision.events.events == [.settingsShown, .settingsOpened, .settingsDismissed, .returnedGranted])
    }

    // MARK: Row 8 — denied, cadence does not allow

    @Test func deniedWithNudgeNotDueShowsTheDeniedScreen() throws {
        let last = Self.now.adding(seconds: -Self.hour)
        let history = ScreenHistory(shownCount: 1, lastShown: last, lastOutcome: .dismissed)
        let decision = try Self.decide(Self.makePolicy(), .denied, history: [.settings: history])
        #expect(decision.action == .deniedScreen)
        #expect(decision.copy == [.title: "denied.title", .message: "denied.message"])
        #expect(decision.eligibleAt == last.adding(seconds: 168 * Self.hour))
        #expect(decision.settingsDelayMs == nil)
        #expect(decision.events.events == [.deniedShown])
    }

    @Test func deniedWithNudgesExhaustedShowsTheDeniedScreenForGood() throws {
        let history = ScreenHistory(shownCount: 2, lastShown: Self.now.adding(seconds: -10_000 * Self.hour))
        let decision = try Self.decide(Self.makePolicy(), .denied, history: [.settings: history])
        #expect(decision.action == .deniedScreen)
        #expect(decision.eligibleAt == nil)
    }

    // MARK: Row 9 — restricted

    @Test(arguments: [Feature.camera, .tracking, .photos])
    func restrictedShowsANoticeWithoutSettingsAndNeverReasks(feature: Feature) throws {
        // Even with every history empty (every cadence eligible), restricted never asks.
        let decision = try Self.decide(Self.makePolicy(feature), .restricted)
        #expect(decision.action == .restrictedNotice)
        #expect(decision.copy == [.title: "restricted.title", .message: "restricted.message"])
        #expect(decision.copy[.openLabel] == nil)
        #expect(decision.settingsDelayMs == nil)
        #expect(decision.countsAgainst == nil)
        #expect(decision.events.events == [.restrictedShown])
    }

    // MARK: Row 10 — partial grants

    @Test func limitedPhotosPresentsTheLimitedPickerOnItsCadence() throws {
        let policy = Self.makePolicy(.photos, partial: [.limited: .limitedPicker])
        let decision = try Self.decide(policy, .limited, os: "14.0")
        #expect(decision.action == .limitedPicker)
        #expect(decision.countsAgainst == .upgrade)
        let history = ScreenHistory(shownCount: 1, lastShown: Self.now.adding(seconds: -Self.hour))
        let later = try Self.decide(policy, .limited, os: "14.0", history: [.upgrade: history])
        #expect(later.action == .proceed)
        #expect(later.reason == .partialUpgradeNotDue)
        #expect(later.eligibleAt == Self.now.adding(seconds: 71 * Self.hour))
    }

    @Test func limitedPhotosUpgrade() throws {
        let decision = try Self.decide(Self.makePolicy(.photos, partial: [.limited: .upgrade]), .limited)
        #expect(decision.action == .upgrade)
        #expect(
            decision.copy == [
                .title: "upgrade.title", .message: "upgrade.message",
                .continueLabel: "upgrade.continueLabel", .cancelLabel: "upgrade.cancelLabel",
            ])
        #expect(
            decision.events.events == [
                .upgradeShown, .upgradeAccepted, .upgradeDismissed, .systemGranted, .systemDenied,
            ])
    }

    @Test func limitedContactsOnIOS18OffersTheContactAccessButtonWithoutCadence() throws {
        let policy = Self.makePolicy(.contacts, partial: [.limited: .contactAccessButton])
        let shownOften = ScreenHistory(shownCount: 50, lastShown: Self.now)
        let decision = try Self.decide(policy, .limited, os: "18.0", history: [.upgrade: shownOften])
        #expect(decision.action == .contactAccessButton)
        #expect(decision.reason == .partialButton)
        #expect(decision.countsAgainst == nil)
    }

    @Test func limitedContactsBelowIOS18IsRejected() {
        #expect(
            throws: DecisionError.statusTooNew(
                feature: .contacts, status: .limited,
                since: SemanticVersion(major: 18), os: SemanticVersion(major: 17, minor: 5))
        ) {
            try Self.decide(Self.makePolicy(.contacts), .limited, os: "17.5")
        }
    }

    @Test func provisionalNotificationsUpgradeOnTheirCadenceThenProceed() throws {
        let policy = Self.makePolicy(.notifications, partial: [.provisional: .upgrade])
        #expect(try Self.decide(policy, .provisional).action == .upgrade)
        let exhausted = ScreenHistory(shownCount: 2, lastShown: Self.now.adding(seconds: -9_999 * Self.hour))
        let decision = try Self.decide(policy, .provisional, history: [.upgrade: exhausted])
        #expect(decision.action == .proceed)
        #expect(decision.eligibleAt == nil)
    }

    @Test func ephemeralNotificationsAlwaysProceed() throws {
        let policy = Self.makePolicy(.notifications, partial: [.ephemeral: .upgrade])
        #expect(try Self.decide(policy, .ephemeral).action == .proceed)
    }

    @Test(arguments: [
        (Feature.locationAlways, AuthorizationStatus.whenInUse),
        (.locationAlways, .reducedAccuracy),
        (.locationWhenInUse, .reducedAccuracy),
        (.calendars, .writeOnly),
    ])
    func partialGrantsUpgrade(feature: Feature, status: AuthorizationStatus) throws {
        let decision = try Self.decide(Self.makePolicy(feature, partial: [status: .upgrade]), status)
        #expect(decision.action == .upgrade)
        #expect(decision.countsAgainst == .upgrade)
    }

    @Test func partialGrantWithoutAnEntryProceeds() throws {
        let decision = try Self.decide(Self.makePolicy(.calendars), .writeOnly)
        #expect(decision.action == .proceed)
        #expect(decision.reason == .partialProceed)
    }

    @Test func partialActionTheFeatureCannotDoProceeds() throws {
        // A limited picker for calendars makes no sense; the validator rejects it, the engine stays safe.
        let decision = try Self.decide(Self.makePolicy(.calendars, partial: [.writeOnly: .limitedPicker]), .writeOnly)
        #expect(decision.action == .proceed)
    }

    // MARK: Row 11 — tracking after its one prompt

    @Test func trackingGrantedProceeds() throws {
        #expect(try Self.decide(Self.makePolicy(.tracking), .authorized, trackingPromptShown: true).action == .proceed)
    }

    @Test func trackingDeniedShowsTheDeniedScreenAndNeverANudge() throws {
        // The Settings cadence would allow a nudge for any other feature.
        let decision = try Self.decide(Self.makePolicy(.tracking), .denied, trackingPromptShown: true)
        #expect(decision.action == .deniedScreen)
        #expect(decision.reason == .trackingAskedOnce)
        #expect(decision.eligibleAt == nil)
        #expect(decision.countsAgainst == nil)
    }

    @Test func trackingPromptAlreadyShownNeverPrimesAgain() throws {
        let decision = try Self.decide(Self.makePolicy(.tracking), .notDetermined, trackingPromptShown: true)
        #expect(decision.action == .deniedScreen)
    }

    @Test func trackingBeforeItsPromptPrimes() throws {
        #expect(try Self.decide(Self.makePolicy(.tracking), .notDetermined).action == .prime)
    }

    // MARK: Impossible states

    @Test func statusTheFeatureNeverReportsIsRejected() {
        #expect(throws: DecisionError.statusNotReported(feature: .camera, status: .provisional)) {
            try Self.decide(Self.makePolicy(.camera), .provisional)
        }
    }

    @Test func stateForAnotherFeatureIsRejected() {
        let state = ClientState(feature: .photos, status: .authorized)
        #expect(throws: DecisionError.featureMismatch(policy: .camera, state: .photos)) {
            try DecisionEngine.decide(policy: Self.makePolicy(.camera), state: state, now: Self.now)
        }
    }

    // MARK: JSON

    @Test func decisionEncodesForTheDecideEndpoint() throws {
        let decision = try Self.decide(Self.makePolicy(), .denied)
        let expected: JSONValue = [
            "feature": "camera", "action": "openSettings", "reason": "settingsNudgeEligible", "screen": "settings",
            "copy": [
                "title": "settings.title", "message": "settings.message", "openLabel": "settings.openLabel",
                "cancelLabel": "settings.cancelLabel",
            ],
            "variant": ["experiment": "camera-copy", "variant": "control"],
            "countsAgainst": "settings", "settingsDelayMs": 200, "leaveScreenFirst": true,
            "events": [
                "onShow": "settingsShown", "onContinue": "settingsOpened", "onDismiss": "settingsDismissed",
                "onGranted": "returnedGranted",
            ],
        ]
        #expect(decision.jsonValue == expected)
    }

    @Test func waitEncodesItsEligibleInstant() throws {
        let history = ScreenHistory(shownCount: 1, lastShown: Self.now)
        let decision = try Self.decide(Self.makePolicy(), .notDetermined, history: [.prime: history])
        #expect(decision.jsonValue["eligibleAt"] == .integer(1_800_086_400))
        #expect(decision.jsonValue["copy"] == nil)
    }

    @Test func clientStateDecodesHistoryAndAppleStatusNames() throws {
        let json: JSONValue = [
            "feature": "locationAlways", "status": "authorizedWhenInUse", "osVersion": "17.4",
            "history": ["upgrade": ["shownCount": 2, "lastShown": 1_799_000_000, "lastOutcome": "dismissed"]],
        ]
        let (state, problems) = ClientState.decode(json)
        #expect(problems.isEmpty)
        #expect(
            state
                == ClientState(
                    feature: .locationAlways, status: .whenInUse, osVersion: SemanticVersion("17.4"),
                    history: [
                        .upgrade: ScreenHistory(
                            shownCount: 2, lastShown: Instant(secondsSinceEpoch: 1_799_000_000),
                            lastOutcome: .dismissed)
                    ]))
        let (full, _) = ClientState.decode(["feature": "calendars", "status": "fullAccess"])
        #expect(full?.status == .authorized)
    }

    @Test func clientStateReportsEveryProblemWithItsPointer() {
        let json: JSONValue = [
            "feature": "camara", "status": "maybe", "available": "yes", "colour": 1,
            "history": ["prime": ["shownCount": -1, "lastOutcome": "ignored"], "later": [:]],
        ]
        let (state, problems) = ClientState.decode(json)
        #expect(state == nil)
        #expect(
            problems.map(\.pointer.description) == [
                "/available", "/colour", "/feature", "/history/later", "/history/prime/lastOutcome",
                "/history/prime/shownCount", "/status",
            ])
    }
}
