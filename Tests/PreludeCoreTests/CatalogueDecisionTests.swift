import Testing

@testable import PreludeCore

/// The decisions docs/catalogue.md adds to the table: ask less, Location Services off, the insufficiently-in-use
/// diagnostic, one-shot prompts (alarms), the local network's unknowable status, calendars' one upgrade, limited
/// contacts, and the photos limited re-ask the OS owns.
@Suite struct CatalogueDecisionTests {
    typealias Table = DecisionEngineTests
    static let now = Table.now

    static func decide(
        _ policy: ResolvedFeature, _ status: AuthorizationStatus, os: String? = "18.1",
        history: [CadenceKind: ScreenHistory] = [:], promptShown: Bool = false, insufficientlyInUse: Bool = false,
        preventsAlert: Bool? = nil
    ) throws -> Decision {
        let state = ClientState(
            feature: policy.feature, status: status, osVersion: os.flatMap(SemanticVersion.init), history: history,
            trackingPromptShown: promptShown, insufficientlyInUse: insufficientlyInUse,
            preventsAutomaticLimitedAccessAlert: preventsAlert)
        return try DecisionEngine.decide(policy: policy, state: state, now: now)
    }

    @Test(
        arguments: [
            (Feature.photos, PermissionlessPath.photosPicker, "14.0"), (.contacts, .contactPicker, "9.0"),
            (.calendars, .eventEditor, "17.0"), (.bluetooth, .accessorySetup, "18.0"),
        ] as [(Feature, PermissionlessPath, String)])
    func askLessPresentsThePathWhateverTheStatus(feature: Feature, path: PermissionlessPath, since: String) throws {
        let policy = Table.makePolicy(feature, strategy: .permissionless)
        // Not below the app's lowest OS (iOS 12 by default), which the engine refuses.
        let os = max(SemanticVersion(since)!, AppInfo.defaultMinimumOS)
        for (status, statusSince) in feature.capabilities.statuses where status != .authorized && statusSince <= os {
            let decision = try Self.decide(policy, status, os: os.description)
            #expect(decision.action == .permissionless, "\(feature) \(status)")
            #expect(decision.reason == .permissionlessStrategy)
            #expect(decision.path == path)
            #expect(decision.screen == nil && decision.countsAgainst == nil && decision.events == .none)
            #expect(decision.variant == policy.variant, "the arm is on the decision, for the task events")
        }
        #expect(try Self.decide(policy, .authorized, os: "18.1").action == .proceed)
    }

    @Test func askLessBelowThePathsOSPrimes() throws {
        let policy = Table.makePolicy(.bluetooth, strategy: .permissionless)
        for os in ["17.7", nil] as [String?] {
            let decision = try Self.decide(policy, .notDetermined, os: os)
            #expect(decision.action == .prime)
            #expect(decision.reason == .permissionlessUnavailableFallback)
        }
        // Below the path's OS a refusal is a refusal: the Settings nudge, as for `prime`.
        #expect(try Self.decide(policy, .denied, os: "17.7").action == .openSettings)
    }

    @Test func theUseCasePickerNamesItsPath() throws {
        var policy = Table.makePolicy(.contacts)
        policy.access = FeatureAccess(useCase: .pick)
        let decision = try Self.decide(policy, .denied)
        #expect(decision.action == .systemPicker)
        #expect(decision.path == .contactPicker)
        #expect(decision.jsonValue["path"] == "contactPicker")
    }

    @Test(arguments: [Feature.locationWhenInUse, .locationAlways])
    func locationServicesOffHasItsOwnScreenNeverTheNudge(feature: Feature) throws {
        let policy = Table.makePolicy(feature)
        let settingsShown = ScreenHistory(shownCount: 0, lastShown: nil)
        for history in [[:], [.settings: settingsShown]] as [[CadenceKind: ScreenHistory]] {
            let decision = try Self.decide(policy, .deniedGlobally, history: history)
            #expect(decision.action == .locationServicesOff)
            #expect(decision.reason == .locationServicesOff)
            #expect(decision.screen == .servicesOff)
            #expect(decision.copy == [.title: "servicesOff.title", .message: "servicesOff.message"])
            #expect(decision.countsAgainst == nil && decision.settingsDelayMs == nil)
            #expect(decision.events.events == [.servicesOffShown])
        }
    }

    @Test func locationServicesOffWithoutItsTextsUsesTheDeniedOnes() throws {
        var policy = Table.makePolicy(.locationWhenInUse)
        policy.copy.texts = policy.copy.texts.filter { $0.key.screen != .servicesOff }
        let decision = try Self.decide(policy, .deniedGlobally)
        #expect(decision.action == .locationServicesOff)
        #expect(decision.screen == .denied)
        #expect(decision.copy == [.title: "denied.title", .message: "denied.message"])
    }

    @Test func deniedGloballyIsLocationsOnly() {
        #expect(throws: DecisionError.statusNotReported(feature: .camera, status: .deniedGlobally)) {
            try Self.decide(Table.makePolicy(.camera), .deniedGlobally)
        }
    }

    @Test func insufficientlyInUseNeverLeadsToThePrompt() throws {
        for strategy in [Strategy.prime, .direct, .button] {
            let decision = try Self.decide(
                Table.makePolicy(.locationWhenInUse, strategy: strategy), .notDetermined, insufficientlyInUse: true)
            #expect(decision.action == .askInContext, "\(strategy)")
            #expect(decision.reason == .insufficientlyInUse)
        }
        let upgrade = Table.makePolicy(.locationAlways, partial: [.whenInUse: .upgrade])
        #expect(try Self.decide(upgrade, .whenInUse, insufficientlyInUse: true).action == .askInContext)
        // Nothing that does not lead to the prompt changes.
        #expect(try Self.decide(upgrade, .denied, insufficientlyInUse: true).action == .openSettings)
        #expect(try Self.decide(upgrade, .authorized, insufficientlyInUse: true).action == .proceed)
        #expect(throws: DecisionError.locationOnly(.camera, member: "insufficientlyInUse")) {
            try Self.decide(Table.makePolicy(.camera), .notDetermined, insufficientlyInUse: true)
        }
    }

    @Test func alarmsAfterTheirPromptRequestSilentlyAndNudgeAfterARefusal() throws {
        let policy = Table.makePolicy(.alarms)
        #expect(try Self.decide(policy, .notDetermined, os: "26.0").action == .prime)
        let again = try Self.decide(policy, .notDetermined, os: "26.0", promptShown: true)
        #expect(again.action == .systemPrompt)
        #expect(again.reason == .requestIsSilent)
        #expect(try Self.decide(policy, .denied, os: "26.0", promptShown: true).action == .openSettings)
        #expect(try Self.decide(policy, .notDetermined, os: "18.1").action == .unsupported)
    }

    @Test func theLocalNetworkStatusIsNotKnowableAfterItsAlert() throws {
        let policy = Table.makePolicy(.localNetwork)
        #expect(try Self.decide(policy, .notDetermined).action == .prime)
        let after = try Self.decide(policy, .notDetermined, promptShown: true)
        #expect(after.action == .proceed)
        #expect(after.reason == .statusNotKnowable)
        #expect(FeatureCatalogue.all.filter { !$0.statusKnowable }.map(\.feature) == [.health, .localNetwork])
    }

    @Test func calendarsUpgradeIsAskedOnce() throws {
        let policy = Table.makePolicy(.calendars, partial: [.writeOnly: .upgrade])
        #expect(try Self.decide(policy, .writeOnly).action == .upgrade)
        let continued = ScreenHistory(
            shownCount: 1, lastShown: Instant(secondsSinceEpoch: 1_700_000_000), lastOutcome: .continued)
        let decision = try Self.decide(policy, .writeOnly, history: [.upgrade: continued])
        #expect(decision.action == .proceed)
        #expect(decision.reason == .upgradeAskedOnce)
        // Dismissed (never reached the system alert): the cadence applies as for any upgrade.
        let dismissed = ScreenHistory(
            shownCount: 1, lastShown: Instant(secondsSinceEpoch: 1_700_000_000), lastOutcome: .dismissed)
        #expect(try Self.decide(policy, .writeOnly, history: [.upgrade: dismissed]).action == .upgrade)
    }

    @Test func limitedContactsUpgradeIsTheContactAccessPicker() throws {
        let decision = try Self.decide(Table.makePolicy(.contacts, partial: [.limited: .upgrade]), .limited)
        #expect(decision.action == .contactAccessPicker)
        #expect(decision.screen == .upgrade && decision.countsAgainst == .upgrade)
    }

    @Test func photosLimitedReaskBelongsToTheOSWithoutTheInfoPlistKey() throws {
        for action in [PartialAction.limitedPicker, .upgrade] {
            let policy = Table.makePolicy(.photos, partial: [.limited: action])
            let owned = try Self.decide(policy, .limited, preventsAlert: false)
            #expect(owned.action == .proceed)
            #expect(owned.reason == .systemOwnsLimitedReask)
            #expect(try Self.decide(policy, .limited, preventsAlert: true).action != .proceed)
            // A client that does not say keeps the policy's choice (clients before this member).
            #expect(try Self.decide(policy, .limited, preventsAlert: nil).action != .proceed)
        }
        #expect(throws: DecisionError.photosOnly(.contacts, member: "preventsAutomaticLimitedAccessAlert")) {
            try Self.decide(Table.makePolicy(.contacts), .notDetermined, preventsAlert: true)
        }
    }

    @Test func theClientStateReadsTheNewMembers() throws {
        let json = try JSONValue(
            parsing: Array(
                """
                {"feature": "locationWhenInUse", "status": "authorizationDeniedGlobally", "insufficientlyInUse": true}
                """.utf8))
        let state = try #require(ClientState.decode(json).state)
        #expect(state.status == .deniedGlobally && state.insufficientlyInUse)
        let photos = try JSONValue(
            parsing: Array(
                #"{"feature": "photos", "status": "limited", "preventsAutomaticLimitedAccessAlert": 1}"#.utf8))
        #expect(
            ClientState.decode(photos).problems.map(\.pointer.description) == ["/preventsAutomaticLimitedAccessAlert"])
    }
}
