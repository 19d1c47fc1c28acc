import Foundation
import PreludeClient
import PreludeCore
import PreludeTestSupport
import Testing

/// PermissionFlow over a real PreludeClient (demo bootstrap, no server needed for deciding) and a ScriptedDevice:
/// the seed flows step by step, the events each step queues, the purpose-string check, the return from Settings,
/// and every contract vector (Tests/ContractVectors) replayed through the flow.
@Suite struct PermissionFlowTests {
    static let allStrings = UsageDescriptionCheck(
        strings: Dictionary(
            Feature.allCases.flatMap { UsageDescriptionCheck.requiredKeys(for: $0) }.map { ($0, "Set.") },
            uniquingKeysWith: { first, _ in first }))

    struct Harness {
        let fixture = ClientFixture()
        let device = ScriptedDevice()
        let client: PreludeClient
        let flow: PermissionFlow

        init(
            strings: UsageDescriptionCheck = PermissionFlowTests.allStrings, context: ClientContext? = nil
        ) throws {
            if let context {
                client = try PreludeClient(configuration: fixture.configuration(port: 9, context: context))
            } else {
                client = try fixture.makeClient(port: 9)
            }
            flow = PermissionFlow(client: client, device: device, usageDescriptions: strings)
        }

        /// The types of the events queued so far.
        func queued() async -> [String] { await client.queuedEvents.map(\.type.rawValue) }
    }

    @Test func primingAcceptedFiresTheAlertAndProceeds() async throws {
        let h = try Harness()
        let prime = try await h.flow.screen(for: .camera)
        #expect(prime.action == .prime)
        #expect(await h.queued().isEmpty)  // deciding is not an exposure
        try await h.flow.shown(.camera)
        h.device.answerNextRequest(.camera, with: .authorized)
        let next = try await h.flow.continued(.camera)
        #expect(next?.action == .proceed)
        #expect(h.device.requests == [.camera])
        #expect(await h.queued() == ["primeShown", "primeAccepted", "systemGranted"])
    }

    @Test func aMissingPurposeStringStopsBeforeTheAlert() async throws {
        let h = try Harness(strings: UsageDescriptionCheck(strings: [:]))
        _ = try await h.flow.screen(for: .camera)
        try await h.flow.shown(.camera)
        await #expect(throws: MissingUsageDescription(feature: .camera, keys: ["NSCameraUsageDescription"])) {
            try await h.flow.continued(.camera)
        }
        #expect(h.device.requests.isEmpty)
    }

    @Test func backFromSettingsWithAccessProceedsWithoutRelaunch() async throws {
        let h = try Harness()
        h.device.setStatus(.denied, for: .camera)
        let nudge = try await h.flow.screen(for: .camera)
        #expect(nudge.action == .openSettings)
        try await h.flow.shown(.camera)
        try await h.flow.continued(.camera)
        #expect(h.device.settingsOpenings == [200])
        h.device.setStatus(.authorized, for: .camera)
        let changed = try await h.flow.becameActive()
        #expect(changed[.camera]?.action == .proceed)
        #expect(await h.queued() == ["settingsShown", "settingsOpened", "returnedGranted"])
    }

    @Test func aStatusChangedOutsideTheAppIsItsOwnEvent() async throws {
        // A feature outside any experiment of the demo (photos is in photos-ask-vs-picker since the catalogue).
        let h = try Harness()
        _ = try await h.flow.screen(for: .microphone)
        h.device.setStatus(.denied, for: .microphone)  // turned off in Settings while the app was in the background
        let changed = try await h.flow.becameActive()
        #expect(changed[.microphone]?.action == .openSettings)
        #expect(await h.queued() == ["statusChangedOutsideApp"])
        let event = try #require(await h.client.queuedEvents.first)
        #expect(event.experiment == nil && event.variant == nil)
        #expect(try await h.flow.becameActive().isEmpty)  // no change, no event
        #expect(await h.queued().count == 1)
    }

    @Test func aLaunchRequestShowsNothing() async throws {
        let h = try Harness()
        let decision = try await h.flow.screen(for: .camera, origin: .launch)
        #expect(decision.action == .askInContext)
        #expect(h.device.requests.isEmpty)
    }

    @Test func noCameraSaysSo() async throws {
        let h = try Harness()
        h.device.setAvailable(false, for: .camera)
        let decision = try await h.flow.screen(for: .camera)
        #expect(decision.action == .unsupported)
        try await h.flow.shown(.camera)
        #expect(await h.queued() == ["unsupportedShown"])
    }

    // MARK: Contract vectors, through the flow

    /// The vectors' names, the arguments below; empty if the loader failed, which `everyContractVectorIsAnArgument`
    /// then reports (an empty argument list alone would pass without running anything).
    static let contractVectorNames = ((try? ContractVector.all()) ?? []).map(\.name)

    @Test func everyContractVectorIsAnArgument() throws {
        let vectors = try ContractVector.all()
        // Tests/ContractVectors holds 24 files; raise this with each vector added.
        #expect(vectors.count == 24)
        #expect(Self.contractVectorNames == vectors.map(\.name))
    }

    @Test(arguments: contractVectorNames)
    func contractVectorReplaysThroughTheFlow(name: String) async throws {
        let vector = try #require(try ContractVector.all().first { $0.name == name })
        let context = ClientContext(
            platform: vector.context["platform"]?.stringValue.flatMap(Platform.init(rawValue:)),
            osVersion: vector.context["os"]?.stringValue.flatMap(SemanticVersion.init),
            appVersion: vector.context["appVersion"]?.stringValue.flatMap(SemanticVersion.init),
            locale: vector.context["locale"]?.stringValue, installId: vector.context["installId"]?.stringValue,
            region: vector.context["region"]?.stringValue.flatMap(StorefrontRegion.init))
        // The app's Info.plist sets PHPhotoLibraryPreventAutomaticLimitedAccessAlert where a step says it does.
        var strings = Dictionary(
            Feature.allCases.flatMap { UsageDescriptionCheck.requiredKeys(for: $0) }.map { ($0, "Set.") },
            uniquingKeysWith: { first, _ in first })
        if vector.steps.contains(where: { $0.state["preventsAutomaticLimitedAccessAlert"] == true }) {
            strings[UsageDescriptionCheck.preventAutomaticLimitedAccessAlertKey] = "true"
        }
        let h = try Harness(strings: UsageDescriptionCheck(strings: strings), context: context)
        for (index, step) in vector.steps.enumerated() {
            let (decoded, problems) = ClientState.decode(step.state)
            let state = try #require(decoded, "step \(index): \(problems)")
            let feature = state.feature
            // The client's ledger holds what the vector says it holds by now.
            let ledger = await h.client.cadenceLedger
            #expect(ledger.histories(of: feature) == state.history, "step \(index): ledger")
            #expect(ledger.systemPromptShown(feature) == state.trackingPromptShown, "step \(index): prompt")

            h.fixture.clock.advance(step.at - h.fixture.clock.now().secondsSinceEpoch)
            h.device.setStatus(state.status, for: feature)
            h.device.setAvailable(state.available, for: feature)
            h.device.setInsufficientlyInUse(state.insufficientlyInUse, for: feature)
            let before = await h.queued().count
            let decision = try await h.flow.screen(
                for: feature, origin: state.origin,
                osVersion: step.state["osVersion"] == nil ? nil : state.osVersion)
            let mismatches = ContractVector.mismatches(decision.jsonValue, expect: step.expect)
            #expect(mismatches.isEmpty, "step \(index): \(mismatches)")

            if step.user.contains("granted") { h.device.answerNextRequest(feature, with: .authorized) }
            // Declining an upgrade leaves the partial grant as it is.
            if step.user.contains("denied") && !state.status.isPartial {
                h.device.answerNextRequest(feature, with: .denied)
            }
            for action in step.user {
                switch action {
                case "shown": try await h.flow.shown(feature)
                case "continued": try await h.flow.continued(feature)
                case "left": try await h.flow.left(feature)
                case "dismissed":
                    // Declining an app-level consent is its answer; elsewhere "Not Now".
                    if feature.capabilities.kind == .appConsent {
                        _ = try await h.flow.declined(feature)
                    } else {
                        try await h.flow.dismissed(feature)
                    }
                case "exitedWithoutDecision": break  // the flow saw the request return undecided in continued()
                // The flow saw the request complete with no knowable answer in continued() (health).
                case "promptCompleted": break
                default:  // granted, denied: the answer to what the screen led to
                    switch decision.action {
                    case .prime, .upgrade, .systemPrompt: break  // answered through continued()
                    case .openSettings:
                        h.device.setStatus(action == "granted" ? .authorized : state.status, for: feature)
                        _ = try await h.flow.becameActive()
                    default: _ = try await h.flow.buttonResult(feature, granted: action == "granted")
                    }
                }
            }
            let emitted = Array(await h.queued().dropFirst(before))
            #expect(emitted == step.events, "step \(index)")
        }
    }
}
