import PreludeCore

/// A feature's whole permission flow as one API over ``PreludeClient``: what to show now, given the live OS
/// status, and what happened afterwards — the ledger and exactly the events the decision names, the exposure
/// counted when the screen is shown, not when it is decided (docs/client.md, "Permission flows").
///
/// The seeds' flow in one place, so every screen that needs the camera reuses it (camera-authorization-flow):
/// ``screen(for:origin:osVersion:)`` → show it → ``shown(_:)`` → ``continued(_:)`` (which fires the system alert
/// after checking the purpose strings, or opens Settings after the decision's delay), ``left(_:)`` or
/// ``dismissed(_:)``; ``becameActive()`` when the app comes back to the foreground re-reads every status, so a
/// person back from Settings with access on proceeds without a relaunch. The client runs it by itself on each
/// activation (``PreludeClient/appBecameActive()``); ``changes()`` streams what changed.
public actor PermissionFlow {
    private let client: PreludeClient
    private let device: any PermissionDevice
    private let usageDescriptions: UsageDescriptionCheck
    private var flows: [Feature: Entry] = [:]
    private var activation: Task<[Feature: Decision], any Error>?
    private var listeners: [UInt64: AsyncStream<[Feature: Decision]>.Continuation] = [:]
    private var nextListener: UInt64 = 0
    /// Features whose purpose-string findings a debug build already printed.
    private var reportedPurposeStrings: Set<Feature> = []

    /// What the flow knows of one feature: the decision on screen, the status it was made for, and whether the
    /// person went to Settings from it.
    private struct Entry {
        var decision: Decision
        var status: AuthorizationStatus
        var origin: RequestOrigin
        var osVersion: SemanticVersion?
        var openedSettings = false
        /// Tracking after its system alert: iOS 17.4 could answer `denied` before the person chose, so the status
        /// is read again when the app becomes active, and a grant found then is the alert's real answer.
        var rereadAfterRequest = false
        /// The decision whose system alert that was (the answer is recorded against it).
        var requestedFrom: Decision?
    }

    /// A flow over `client` and `device`; `usageDescriptions` is checked before every system alert. Decisions are
    /// the client's own (``PreludeClient/decide(feature:status:context:)``: its policy, ledger and clock). The
    /// client keeps a weak reference to the flow and re-reads it on every activation.
    public init(client: PreludeClient, device: any PermissionDevice, usageDescriptions: UsageDescriptionCheck) {
        self.client = client
        self.device = device
        self.usageDescriptions = usageDescriptions
        client.flowRegistry.add(self)
    }

    deinit {
        for listener in listeners.values { listener.finish() }
    }

    /// What to show for `feature` now: reads the live status and the hardware, and decides offline. Records
    /// nothing: call ``shown(_:)`` when the screen actually appears.
    ///
    /// - Parameters:
    ///   - origin: `.launch` when the app asks while launching; the policy decides whether it may (HIG).
    ///   - osVersion: the OS version when it differs from the client's context (rarely).
    /// - Throws: ``PreludeClientError/noPolicy`` without a policy; `DecisionError` for a feature the policy does
    ///   not configure.
    public func screen(for feature: Feature, origin: RequestOrigin = .featureUse, osVersion: SemanticVersion? = nil)
        async throws -> Decision
    {
        let status = await status(of: feature)
        return try await decide(feature, status: status, origin: origin, osVersion: osVersion)
    }

    /// What to show for `feature` now, never without an answer: the policy's decision as ``screen(for:origin:osVersion:)``
    /// makes it, with its source (cached or bootstrap), or — when no policy can decide (none yet, the feature is
    /// not in it, a state it cannot decide on) — ``ScreenAnswer/builtIn(_:status:available:)`` with the reason.
    /// Records nothing; ``shown(_:)`` and the other steps then work on the answer's decision as on any other.
    public func answer(for feature: Feature, origin: RequestOrigin = .featureUse, osVersion: SemanticVersion? = nil)
        async -> ScreenAnswer
    {
        let status = await status(of: feature)
        let source: ScreenAnswer.Source = await client.diagnostics().source == .bootstrap ? .bootstrap : .cached
        do {
            let decision = try await decide(feature, status: status, origin: origin, osVersion: osVersion)
            return ScreenAnswer(decision: decision, source: source)
        } catch {
            let decision = ScreenAnswer.builtIn(feature, status: status, available: await device.isAvailable(feature))
            flows[feature] = Entry(decision: decision, status: status, origin: origin, osVersion: osVersion)
            return ScreenAnswer(decision: decision, source: .builtInFallback, fallbackReason: "\(error)")
        }
    }

    /// The decision on screen for `feature`, if the flow showed one.
    public func current(_ feature: Feature) -> Decision? { flows[feature]?.decision }

    /// The screen appeared: counts against its cadence and sends its `onShow` event (the exposure).
    public func shown(_ feature: Feature) async throws {
        try await record(.shown, feature)
    }

    /// The person took the screen's action. Priming and upgrade screens fire the system alert (after checking
    /// the purpose strings) and return the next decision; the Settings nudge opens Settings after the decision's
    /// delay and returns the same decision (the answer comes with ``becameActive()``).
    ///
    /// - Throws: ``MissingUsageDescription`` before any system alert when the Info.plist lacks a purpose string.
    @discardableResult
    public func continued(_ feature: Feature) async throws -> Decision? {
        guard let entry = flows[feature] else { return nil }
        try await record(.continued, feature)
        if feature.capabilities.kind == .appConsent && entry.decision.action == .prime {
            // The consent screen is the whole request: continuing is the grant, recorded by the ledger.
            try await record(.granted, feature)
            return try await decide(feature, status: .authorized, origin: .featureUse, osVersion: entry.osVersion)
        }
        switch entry.decision.action {
        case .prime, .upgrade, .systemPrompt:
            return try await requestAccess(feature)
        case .openSettings:
            flows[feature]?.openedSettings = true
            await device.openSettings(afterMilliseconds: entry.decision.settingsDelayMs ?? 200)
            return entry.decision
        case .proceed, .unsupported, .wait, .locationButton, .contactAccessButton, .deniedScreen, .restrictedNotice,
            .limitedPicker, .contactAccessPicker, .askInContext, .systemPicker, .permissionless, .locationServicesOff:
            return entry.decision
        }
    }

    /// Fires the system alert for a `systemPrompt` decision (no screen of the app's own), records the answer and
    /// returns the next decision.
    ///
    /// - Throws: ``MissingUsageDescription`` before the alert when the Info.plist lacks a purpose string.
    public func requestAccess(_ feature: Feature) async throws -> Decision {
        let missing = usageDescriptions.missingKeys(for: feature, osVersion: flows[feature]?.osVersion)
        guard missing.isEmpty else { throw MissingUsageDescription(feature: feature, keys: missing) }
        #if DEBUG
            // Debug builds only: what App Review would say of the strings the system prompt is about to show.
            for finding in purposeStringFindings(feature)
            where !reportedPurposeStrings.contains(feature) && finding.severity != .info {
                print("Prelude (debug build): \(finding)")
            }
            reportedPurposeStrings.insert(feature)
        #endif
        let before = flows[feature]?.status
        let status = await device.requestAccess(feature)
        if !feature.capabilities.requestAnswerKnowable {
            // HealthKit: the request returned, and whether reading was granted cannot be known (a refusal looks like
            // an empty store; `authorized` / `denied` are sharing statuses). Only a new limited-history grant, which
            // the app can discover, is an answer; anything else records that the prompt happened, and no more.
            if status.isPartial && before != status {
                try await record(.granted, feature)
            } else if let decision = flows[feature]?.decision {
                try await client.recordPromptCompleted(for: decision)
            }
        } else if before == status && status.isPartial {
            // An upgrade alert answered "keep what I gave" (calendars stay write-only): the upgrade was refused.
            try await record(.denied, feature)
        } else if let step = Self.answer(status) {
            try await record(step, feature)
        }
        let requestedFrom = flows[feature]?.decision
        if feature == .tracking && before == .notDetermined && status == .notDetermined, let requestedFrom {
            // The expanded request (iOS 27.2) left through "Additional Information": no answer to record, only
            // the exit; the ledger stays as it was.
            try await client.recordExitWithoutDecision(for: requestedFrom)
        }
        let next = try await decide(feature, status: status, origin: .featureUse, osVersion: flows[feature]?.osVersion)
        if feature == .tracking && status != .authorized {
            // ATT prompts only while the app is active, and iOS 17.4 returned before the person chose: read the
            // status again when the app becomes active (``becameActive()``).
            flows[feature]?.rereadAfterRequest = true
            flows[feature]?.requestedFrom = requestedFrom
        }
        return next
    }

    /// The person used an in-line system button (LocationButton, ContactAccessButton); `granted` says whether it
    /// shared something. Records the answer and returns the next decision.
    public func buttonResult(_ feature: Feature, granted: Bool) async throws -> Decision {
        try await record(granted ? .granted : .denied, feature)
        let status = await device.status(of: feature)
        return try await decide(feature, status: status, origin: .featureUse, osVersion: flows[feature]?.osVersion)
    }

    /// What App Review would object to in the app's purpose strings for `feature`
    /// (``UsageDescriptionCheck/reviewFindings(for:osVersion:locale:)``): a generic string, one that is not a
    /// sentence, the Markdown tracking string's unsupported constructs. Debug builds print them once per feature
    /// before the first system prompt (warnings and errors); release builds never check.
    public func purposeStringFindings(_ feature: Feature) -> [LintFinding] {
        usageDescriptions.reviewFindings(for: feature, osVersion: flows[feature]?.osVersion)
    }

    /// The person declined an app-level consent on its screen (the screen's cancel label): recorded as the answer
    /// (`primeDismissed` and `systemDenied`, the ledger's consent declined); returns the next decision. For any
    /// other feature it is ``dismissed(_:)``.
    @discardableResult
    public func declined(_ feature: Feature) async throws -> Decision? {
        try await record(.dismissed, feature)
        guard feature.capabilities.kind == .appConsent, let entry = flows[feature] else {
            return flows[feature]?.decision
        }
        try await record(.denied, feature)
        return try await decide(feature, status: .denied, origin: .featureUse, osVersion: entry.osVersion)
    }

    /// The person left the screen without acting (navigated away, backgrounded): recorded for cadence, no event.
    public func left(_ feature: Feature) async throws { try await record(.leftWithoutContinuing, feature) }

    /// The person dismissed the screen (Not Now, Cancel): recorded, with the decision's `onDismiss` event.
    public func dismissed(_ feature: Feature) async throws { try await record(.dismissed, feature) }

    /// The person began a task `feature` serves (docs/client.md, "Marking a task"): sends `taskStarted` under the
    /// decision on screen, or — when the flow has none yet for the feature — under the decision
    /// ``screen(for:origin:osVersion:)`` makes now (which records nothing else), so the event carries the install's
    /// experiment arm either way. Call it once per attempt, whichever path the decision then takes (ask, or a
    /// picker that needs no permission).
    ///
    /// - Returns: the event queued (nil when the queue was full).
    @discardableResult
    public func taskStarted(_ feature: Feature, task: String? = nil) async throws -> QueuedEvent? {
        try await recordTask(.started, feature, task: task)
    }

    /// The app got what the task needed (the photo is attached, the event added): sends `taskCompleted` under the
    /// same decision as ``taskStarted(_:task:)``. An abandoned task is simply never completed.
    @discardableResult
    public func taskCompleted(_ feature: Feature, task: String? = nil) async throws -> QueuedEvent? {
        try await recordTask(.completed, feature, task: task)
    }

    private func recordTask(_ phase: TaskPhase, _ feature: Feature, task: String?) async throws -> QueuedEvent? {
        let decision: Decision
        if let current = flows[feature]?.decision {
            decision = current
        } else {
            decision = try await screen(for: feature)
        }
        return try await client.recordTask(phase, task: task, for: decision)
    }

    /// The app became active again: re-reads the status of every feature the flow has shown something for.
    /// Back from the Settings nudge with access on sends `returnedGranted`; any other change sends
    /// `statusChangedOutsideApp`. Returns the new decision of each feature whose status changed, and hands them to
    /// every ``changes()`` stream. The client calls it on each activation (``PreludeClient/appBecameActive()``);
    /// concurrent calls share one re-read, so an app that also calls it itself records each change once.
    public func becameActive() async throws -> [Feature: Decision] {
        if let activation { return try await activation.value }
        let task = Task { try await self.reread() }
        activation = task
        defer { activation = nil }
        let changed = try await task.value
        if !changed.isEmpty {
            for listener in listeners.values { listener.yield(changed) }
        }
        return changed
    }

    /// The decisions that changed at each activation, as ``becameActive()`` returns them (only non-empty ones):
    /// back from Settings with access on, `[.camera: proceed]`. Each call returns a stream of its own; it ends when
    /// the consumer stops iterating or the flow is released.
    ///
    /// ```swift
    /// .task { for await changed in await flow.changes() { if let next = changed[.camera] { decision = next } } }
    /// ```
    public func changes() -> AsyncStream<[Feature: Decision]> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: [Feature: Decision].self, bufferingPolicy: .bufferingNewest(16))
        let id = nextListener
        nextListener += 1
        listeners[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeListener(id) }
        }
        return stream
    }

    private func removeListener(_ id: UInt64) { listeners[id] = nil }

    private func reread() async throws -> [Feature: Decision] {
        var changed: [Feature: Decision] = [:]
        for (feature, entry) in flows.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let status = await status(of: feature)
            guard status != entry.status else { continue }
            if entry.openedSettings && Self.answer(status) == .granted {
                try await client.record(.granted, for: entry.decision)
            } else if entry.rereadAfterRequest, let requested = entry.requestedFrom, Self.answer(status) == .granted {
                // The alert's real answer, read once the app is active again (tracking on iOS 17.4).
                try await client.record(.granted, for: requested)
            } else {
                // Its own event, outside any experiment: the change is not an outcome of a screen the app showed.
                let note = Decision(
                    feature: feature, action: .proceed, reason: .authorized,
                    events: AnalyticsPlan(onShow: .statusChangedOutsideApp))
                try await client.record(.shown, for: note)
            }
            changed[feature] = try await decide(
                feature, status: status, origin: .featureUse, osVersion: entry.osVersion)
        }
        return changed
    }

    // MARK: - Helpers

    private func decide(
        _ feature: Feature, status: AuthorizationStatus, origin: RequestOrigin, osVersion: SemanticVersion?
    ) async throws -> Decision {
        // One decision path and one clock: the client's (its ledger, its policy, its time).
        let available = await device.isAvailable(feature)
        let decision = try await client.decide(
            feature: feature, status: status,
            context: FeatureContext(
                available: available, osVersion: osVersion,
                insufficientlyInUse: await device.insufficientlyInUse(feature),
                preventsAutomaticLimitedAccessAlert: feature == .photos
                    ? usageDescriptions.preventsAutomaticLimitedAccessAlert : nil,
                origin: origin))
        flows[feature] = Entry(decision: decision, status: status, origin: origin, osVersion: osVersion)
        return decision
    }

    /// The live status: the OS's, or for an app-level consent the ledger's (no OS knows it).
    private func status(of feature: Feature) async -> AuthorizationStatus {
        if feature.capabilities.kind == .appConsent { return await client.consentStatus(feature) }
        return await device.status(of: feature)
    }

    private func record(_ step: FlowStep, _ feature: Feature) async throws {
        guard let decision = flows[feature]?.decision else { return }
        try await client.record(step, for: decision)
    }

    /// The system alert's answer as a flow step: any grant (full or partial) or a refusal; nil while undecided.
    private static func answer(_ status: AuthorizationStatus) -> FlowStep? {
        switch status {
        case .authorized, .limited, .provisional, .ephemeral, .whenInUse, .reducedAccuracy, .writeOnly: .granted
        case .denied, .restricted, .deniedGlobally: .denied
        case .notDetermined: nil
        }
    }
}
