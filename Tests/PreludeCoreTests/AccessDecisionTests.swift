import Testing

@testable import PreludeCore

/// When and why the app asks (seed hig-accessing-user-data; reference PA-8, PA-9): the request's origin, the
/// policy's `access`, the engine's answers, the document round trip and the lint rules.
@Suite struct AccessDecisionTests {
    static let now = Instant(secondsSinceEpoch: 1_800_000_000)

    static func decide(
        _ feature: Feature, _ status: AuthorizationStatus, access: FeatureAccess = FeatureAccess(),
        origin: RequestOrigin = .featureUse, available: Bool = true, os: String = "18.1"
    ) throws -> Decision {
        var policy = DecisionEngineTests.makePolicy(feature)
        policy.access = access
        let state = ClientState(
            feature: feature, status: status, available: available, osVersion: SemanticVersion(os), origin: origin)
        return try DecisionEngine.decide(policy: policy, state: state, now: now)
    }

    @Test(arguments: [AuthorizationStatus.notDetermined, .denied, .restricted])
    func launchRequestWithoutAskAtLaunchShowsNothing(status: AuthorizationStatus) throws {
        let decision = try Self.decide(.camera, status, origin: .launch)
        #expect(decision.action == .askInContext)
        #expect(decision.reason == .launchNotAllowed)
        #expect(decision.screen == nil)
        #expect(decision.copy.isEmpty)
        #expect(decision.countsAgainst == nil)
        #expect(decision.events.events.isEmpty)
    }

    @Test func launchRequestOnADeviceWithoutTheHardwareShowsNothingEither() throws {
        let decision = try Self.decide(.camera, .notDetermined, origin: .launch, available: false)
        #expect(decision.action == .askInContext)
    }

    @Test func launchRequestWhenAuthorizedProceeds() throws {
        let decision = try Self.decide(.camera, .authorized, origin: .launch)
        #expect(decision.action == .proceed)
        #expect(decision.reason == .authorized)
    }

    @Test func launchRequestAllowedByThePolicyPrimes() throws {
        let decision = try Self.decide(
            .camera, .notDetermined, access: FeatureAccess(askAtLaunch: true), origin: .launch)
        #expect(decision.action == .prime)
        #expect(decision.reason == .primeEligible)
    }

    @Test func launchRequestStillRefusesAStatusTooNewForTheOS() {
        #expect(throws: DecisionError.self) {
            try Self.decide(.contacts, .limited, origin: .launch, os: "17.4")
        }
    }

    @Test func featureUseIsTheDefaultAndUnchanged() throws {
        let decision = try Self.decide(.camera, .notDetermined)
        #expect(decision.action == .prime)
        #expect(ClientState(feature: .camera, status: .denied).origin == .featureUse)
    }

    @Test(arguments: [
        (Feature.photos, AuthorizationStatus.notDetermined), (.photos, .denied), (.photos, .restricted),
        (.photos, .limited), (.contacts, .notDetermined), (.contacts, .denied), (.contacts, .limited),
    ])
    func pickUseCaseGetsTheSystemPicker(feature: Feature, status: AuthorizationStatus) throws {
        let decision = try Self.decide(feature, status, access: FeatureAccess(useCase: .pick))
        #expect(decision.action == .systemPicker)
        #expect(decision.reason == .pickerServesUseCase)
        #expect(decision.screen == nil)
        #expect(decision.events.events.isEmpty)
    }

    @Test func pickUseCaseWithFullAccessProceeds() throws {
        let decision = try Self.decide(.photos, .authorized, access: FeatureAccess(useCase: .pick))
        #expect(decision.action == .proceed)
    }

    @Test func pickUseCaseWithoutAPhotoLibraryIsUnsupported() throws {
        let decision = try Self.decide(.photos, .notDetermined, access: FeatureAccess(useCase: .pick), available: false)
        #expect(decision.action == .unsupported)
    }

    @Test func libraryUseCaseKeepsTheUsualFlow() throws {
        let decision = try Self.decide(.photos, .denied, access: FeatureAccess(useCase: .library))
        #expect(decision.action == .openSettings)
    }

    // MARK: JSON

    @Test func clientStateReadsTheOrigin() {
        let (state, problems) = ClientState.decode(
            ["feature": "camera", "status": "notDetermined", "origin": "launch"])
        #expect(problems.isEmpty)
        #expect(state?.origin == .launch)
        let (bad, badProblems) = ClientState.decode(["feature": "camera", "status": "denied", "origin": "startup"])
        #expect(bad == nil)
        #expect(badProblems.map(\.pointer.description) == ["/origin"])
    }

    @Test func documentReadsAndWritesAccess() throws {
        let json = try PolicyFixtures.minimal(
            patchedWith: #"{"features": {"microphone": {"access": {"askAtLaunch": true, "useCase": "library"}}}}"#)
        let validation = PolicyValidator.validate(json)
        let document = try #require(validation.document, "\(validation.problems)")
        #expect(document.features[.microphone]?.access == FeatureAccess(askAtLaunch: true, useCase: .library))
        let written = document.jsonValue
        #expect(
            written["features"]?["microphone"]?["access"] == ["askAtLaunch": true, "useCase": "library"])
        let resolved = try #require(PolicyResolver.resolve(document, context: ClientContext()).features[.microphone])
        #expect(resolved.access.askAtLaunch)
        #expect(resolved.jsonValue["access"] == ["askAtLaunch": true, "useCase": "library"])
    }

    @Test func documentWithoutAccessWritesNoAccessMember() throws {
        let document = try #require(PolicyValidator.validate(try PolicyFixtures.minimal()).document)
        #expect(document.jsonValue["features"]?["microphone"]?["access"] == nil)
        let resolved = try #require(PolicyResolver.resolve(document, context: ClientContext()).features[.microphone])
        #expect(resolved.jsonValue["access"] == nil)
    }

    @Test func badAccessIsReportedWithPointers() throws {
        let json = try PolicyFixtures.minimal(
            patchedWith:
                #"{"features": {"microphone": {"access": {"askAtLaunch": "yes", "useCase": "pick", "why": 1}}}}"#
        )
        let problems = PolicyValidator.validate(json).problems.map(\.pointer.description)
        #expect(
            problems == [
                "/features/microphone/access/askAtLaunch", "/features/microphone/access/useCase",
                "/features/microphone/access/why",
            ])
    }

    // MARK: Lint

    static func lint(_ feature: Feature, _ access: FeatureAccess) -> [LintFinding] {
        AccessLinter.lint(
            FeaturePolicy(feature: feature, access: access),
            at: JSONPointer.root.appending("features", feature.rawValue))
    }

    @Test func pa8FlagsAskingAtLaunch() {
        let findings = Self.lint(.camera, FeatureAccess(askAtLaunch: true))
        #expect(findings.map(\.ruleId) == ["PA-8"])
        #expect(findings.first?.severity == .warning)
        #expect(findings.first?.pointer.description == "/features/camera/access/askAtLaunch")
        #expect(Self.lint(.camera, FeatureAccess()).isEmpty)
    }

    @Test func pa8IsAnErrorForTracking() {
        let findings = Self.lint(.tracking, FeatureAccess(askAtLaunch: true))
        #expect(findings.map(\.ruleId) == ["PA-8"])
        #expect(findings.first?.severity == .error)
    }

    @Test func pa9SuggestsThePickerWhenTheUseCaseIsUnstated() {
        let photos = Self.lint(.photos, FeatureAccess())
        #expect(photos.map(\.ruleId) == ["PA-9"])
        #expect(photos.first?.severity == .info)
        #expect(photos.first?.message.contains("PHPickerViewController") == true)
        #expect(Self.lint(.contacts, FeatureAccess()).first?.message.contains("CNContactPickerViewController") == true)
        #expect(Self.lint(.photos, FeatureAccess(useCase: .pick)).isEmpty)
        #expect(Self.lint(.photos, FeatureAccess(useCase: .library)).isEmpty)
    }

    @Test func pa9FlagsAskingAtLaunchForAPicker() {
        let findings = Self.lint(.photos, FeatureAccess(askAtLaunch: true, useCase: .pick))
        #expect(findings.map(\.ruleId) == ["PA-9"])
        #expect(findings.first?.severity == .warning)
    }

    @Test func copyLinterRunsTheAccessRules() throws {
        var document = try #require(PolicyValidator.validate(try PolicyFixtures.minimal()).document)
        document.features[.microphone]?.access = FeatureAccess(askAtLaunch: true)
        #expect(CopyLinter.lint(document).contains { $0.ruleId == "PA-8" })
    }
}
