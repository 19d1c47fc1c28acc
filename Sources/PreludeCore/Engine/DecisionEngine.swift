/// The pure function (policy, client state, now) → decision of the decision table in docs/decisions.md.
///
/// No I/O and no clock: the server and a client library run the very same code and get the same answer.
/// The order of the checks is the table's, top to bottom: availability first (no camera means no camera,
/// whatever the status), then the status.
public enum DecisionEngine {
    /// Decides what `state`'s client shows now for the feature `policy` describes.
    ///
    /// - Throws: ``DecisionError`` when no device could report `state` (a status the feature never has,
    ///   or one newer than the reported OS), or when `state` is about another feature.
    public static func decide(policy: ResolvedFeature, state: ClientState, now: Instant) throws(DecisionError)
        -> Decision
    {
        let feature = policy.feature
        guard state.feature == feature else { throw .featureMismatch(policy: feature, state: state.feature) }
        let capabilities = Self.capabilities(of: feature)
        guard let statusSince = capabilities.statuses[state.status] else {
            throw .statusNotReported(feature: feature, status: state.status)
        }
        if let os = state.osVersion, os < policy.minimumOS {
            // The app cannot run there: its deployment target is newer.
            throw .osBelowMinimum(os: os, minimum: policy.minimumOS)
        }
        // Only a feature the catalogue knows may be missing can be; anything else would be a screen whose copy
        // the validator never asked for.
        guard state.available || capabilities.mayBeUnavailable else { throw .alwaysAvailable(feature) }
        let context = Context(policy: policy, state: state, now: now)
        // CLServiceSession's insufficientlyInUse is a location diagnostic; no other feature can report it.
        guard !state.insufficientlyInUse || feature == .locationWhenInUse || feature == .locationAlways else {
            throw .locationOnly(feature, member: "insufficientlyInUse")
        }
        guard state.preventsAutomaticLimitedAccessAlert == nil || feature == .photos else {
            throw .photosOnly(feature, member: "preventsAutomaticLimitedAccessAlert")
        }

        if state.origin == .launch && !policy.access.askAtLaunch && state.status != .authorized {
            // PA-8 (HIG): ask when the feature is used; at launch only when the app cannot work without it.
            // Nothing is shown at launch, not even the unsupported message: the feature is not in use yet.
            if let os = state.osVersion, os >= capabilities.introduced, os < statusSince {
                throw .statusTooNew(feature: feature, status: state.status, since: statusSince, os: os)
            }
            return context.show(.askInContext, .launchNotAllowed)
        }
        if !state.available { return context.show(.unsupported, .hardwareUnavailable, screen: .unsupported) }
        if let os = state.osVersion, os < capabilities.introduced {
            // Before the feature's API existed nothing can be asked, whatever a stale status says.
            return context.show(.unsupported, .osTooOld, screen: .unsupported)
        }
        if let os = state.osVersion, os < statusSince {
            throw .statusTooNew(feature: feature, status: state.status, since: statusSince, os: os)
        }

        let decision = decideStatus(context, capabilities: capabilities)
        if state.insufficientlyInUse && decision.action.leadsToSystemPrompt {
            // CLServiceSession.Diagnostic.insufficientlyInUse (iOS 18): the system would not show its prompt now,
            // so neither priming nor an upgrade screen that leads to it; decide again when the app is in use.
            return context.show(.askInContext, .insufficientlyInUse)
        }
        return decision
    }

    private static func decideStatus(_ context: Context, capabilities: FeatureCapabilities) -> Decision {
        let policy = context.policy
        let state = context.state
        if policy.access.useCase == .pick && state.status != .authorized {
            // PA-9: the out-of-process picker needs no permission, whatever the status (App Review 5.1.1(iii)).
            return context.show(.systemPicker, .pickerServesUseCase, path: capabilities.permissionless?.path)
        }
        if policy.strategy == .permissionless && state.status != .authorized,
            let path = capabilities.permissionless, let os = state.osVersion, os >= path.since
        {
            // Ask less: the system UI serves the task without any permission, whatever the status (a refusal
            // does not stop PhotosPicker or AccessorySetupKit). Below its OS, the status decides (priming).
            return context.show(.permissionless, .permissionlessStrategy, path: path.path)
        }

        if capabilities.kind == .appConsent {
            return decideConsent(context)
        }

        switch state.status {
        case .authorized:
            return context.show(.proceed, .authorized)
        case .restricted:
            // DN-2: the user cannot change this status; explain, with no Settings button and no re-ask.
            return context.show(.restrictedNotice, .restricted, screen: .restricted)
        case .deniedGlobally:
            // Location Services are off for the device: the app's Settings page cannot fix it, so never the
            // nudge. A policy written before the `servicesOff` screen existed explains with its denied texts.
            let hasOwnCopy = policy.copy.texts.keys.contains { $0.screen == .servicesOff }
            return context.show(.locationServicesOff, .locationServicesOff, screen: hasOwnCopy ? .servicesOff : .denied)
        case .notDetermined:
            if capabilities.promptRecordedByClient && state.trackingPromptShown {
                if capabilities.systemMayReask(osVersion: state.osVersion, region: state.region) {
                    // Tracking's expanded request (iOS 27.2, EU storefronts): the person answered once and the
                    // status reads notDetermined again — the system reopened the question itself. Its request shows
                    // the system's re-ask; no priming or cadence of ours leads to it.
                    return context.show(.systemPrompt, .systemReask)
                }
                if capabilities.asksOnce {
                    // TR-2: the one prompt happened (the status lags); never a cadence, never a re-ask.
                    return context.show(.deniedScreen, .trackingAskedOnce, screen: .denied)
                }
                if !capabilities.statusKnowable {
                    // Local network: the alert came with the first access and no API tells its answer (TN3179).
                    return context.show(.proceed, .statusNotKnowable)
                }
                // AlarmKit: requestAuthorization() prompts only if never asked; asking again returns the state.
                return context.show(.systemPrompt, .requestIsSilent)
            }
            if !policy.momentReached {
                // The policy's moment (`ask`) has not come: nothing leads to the prompt yet, and no instant is known
                // at which it will, since the app reports the moment.
                return context.show(.wait, .momentNotReached)
            }
            return decideNotDetermined(context, capabilities: capabilities)
        case .denied:
            if capabilities.asksOnce {
                // TR-2: tracking gets no Settings nudge cadence after its one prompt. Where the system may ask
                // again by itself (iOS 27.2, EU storefronts) the answer is the same, named for what it is: the
                // re-ask is the system's, never our cadence's.
                let reask = capabilities.systemMayReask(osVersion: state.osVersion, region: state.region)
                return context.show(.deniedScreen, reask ? .systemOwnsReask : .trackingAskedOnce, screen: .denied)
            }
            return decideDenied(context)
        case .limited, .provisional, .ephemeral, .whenInUse, .reducedAccuracy, .writeOnly:
            return decidePartial(context)
        }
    }

    /// The catalogue's entry for `feature`, from the table built once (`FeatureCatalogue.capabilities(of:)`
    /// assembles the entry, dictionaries included, on every call).
    private static func capabilities(of feature: Feature) -> FeatureCapabilities {
        for capabilities in FeatureCatalogue.all where capabilities.feature == feature { return capabilities }
        return FeatureCatalogue.capabilities(of: feature)
    }

    private static func decideNotDetermined(_ context: Context, capabilities: FeatureCapabilities) -> Decision {
        switch context.policy.strategy {
        case .direct:
            return context.show(.systemPrompt, .directStrategy)
        case .button:
            // The resolver already fell back when its context's OS lacked the button; the client's own report
            // of its OS is checked again here, since a policy may be cached across an OS update either way.
            if let button = capabilities.button, let os = context.state.osVersion, os >= button.since {
                let action: DecisionAction =
                    switch button.kind {
                    case .locationButton: .locationButton
                    case .contactAccessButton: .contactAccessButton
                    }
                return context.show(action, .buttonStrategy, screen: .button)
            }
            // Below the button's OS (or an unknown OS), ask the way everyone else does: priming.
            return decidePriming(context, fallback: .buttonUnavailableFallback)
        case .permissionless:
            // Reached only below the path's OS (or with an unknown OS): ask the way everyone else does.
            return decidePriming(context, fallback: .permissionlessUnavailableFallback)
        case .prime:
            // The resolver already replaced `button` by `prime` when its context's OS lacked the button.
            return decidePriming(context, fallback: context.policy.buttonFallback ? .buttonUnavailableFallback : nil)
        }
    }

    /// An app-level consent: the priming screen is the whole request (there is no system prompt behind it), an
    /// answer the app recorded is final, and there is no Settings page to send anyone to.
    private static func decideConsent(_ context: Context) -> Decision {
        switch context.state.status {
        case .authorized:
            return context.show(.proceed, .consentGranted)
        case .denied:
            // Declining is an answer: explain what stays off; the app's own settings may offer to change it.
            return context.show(.deniedScreen, .consentDeclined, screen: .denied)
        default:
            // notDetermined (the catalogue lists no other status for a consent): the consent screen, by the
            // priming cadence, whatever the strategy says (there is nothing to ask `direct`ly).
            switch CadenceEvaluator.verdict(
                rule: context.policy.cadence.prime, history: context.state.history(of: .prime), now: context.now)
            {
            case .eligible:
                return context.show(.prime, .consentScreen, screen: .prime)
            case .notBefore(let instant):
                return context.show(.wait, .primeCadenceWaiting, eligibleAt: instant)
            case .exhausted:
                return context.show(.wait, .primeCadenceExhausted)
            }
        }
    }

    private static func decidePriming(_ context: Context, fallback: DecisionReason?) -> Decision {
        let history = context.state.history(of: .prime)
        if history.lastOutcome == .continued {
            // The user chose Continue, yet the OS has not asked: the system alert is what they agreed to.
            return context.show(.systemPrompt, .primeAlreadyAccepted)
        }
        switch CadenceEvaluator.verdict(rule: context.policy.cadence.prime, history: history, now: context.now) {
        case .eligible:
            return context.show(.prime, fallback ?? .primeEligible, screen: .prime)
        case .notBefore(let instant):
            return context.show(.wait, .primeCadenceWaiting, eligibleAt: instant)
        case .exhausted:
            return context.show(.wait, .primeCadenceExhausted)
        }
    }

    private static func decideDenied(_ context: Context) -> Decision {
        let rule = context.policy.cadence.settings
        switch CadenceEvaluator.verdict(rule: rule, history: context.state.history(of: .settings), now: context.now) {
        case .eligible:
            return context.show(.openSettings, .settingsNudgeEligible, screen: .settings)
        case .notBefore(let instant):
            return context.show(.deniedScreen, .settingsNudgeNotDue, screen: .denied, eligibleAt: instant)
        case .exhausted:
            return context.show(.deniedScreen, .settingsNudgeNotDue, screen: .denied)
        }
    }

    private static func decidePartial(_ context: Context) -> Decision {
        let status = context.state.status
        let requested = context.policy.partialAction(for: status)
        // The catalogue says which partial actions make sense (a limited picker only for photos, ...);
        // anything else, and ephemeral App Clip grants that cannot be upgraded, proceed.
        let capabilities = Self.capabilities(of: context.policy.feature)
        guard status != .ephemeral, capabilities.partialActions(for: status).contains(requested) else {
            return context.show(.proceed, .partialProceed)
        }
        if context.policy.feature == .photos, status == .limited, requested != .proceed,
            context.state.preventsAutomaticLimitedAccessAlert == false
        {
            // Without PHPhotoLibraryPreventAutomaticLimitedAccessAlert the OS asks about the selection itself
            // (once per app life cycle): the policy adds no re-ask on top of it.
            return context.show(.proceed, .systemOwnsLimitedReask)
        }
        if capabilities.upgradeAsksOnce, requested == .upgrade,
            context.state.history(of: .upgrade).lastOutcome == .continued
        {
            // requestFullAccessToEvents prompts only the first time: the upgrade was asked, it never is again.
            return context.show(.proceed, .upgradeAskedOnce)
        }
        switch requested {
        case .proceed:
            return context.show(.proceed, .partialProceed)
        case .contactAccessButton:
            // In-line in the app's own search results: no interruption, so no cadence.
            return context.show(.contactAccessButton, .partialButton, screen: .button)
        case .upgrade, .limitedPicker:
            // A limited picker is PhotosUI's for photos and ContactsUI's contactAccessPicker for contacts; both
            // exist wherever their `limited` status does (iOS 14 / iOS 18), which `statusTooNew` already checked.
            let action: DecisionAction =
                switch requested {
                // Limited contacts never re-prompt (requestAccess shows nothing): the contact access picker is the
                // only way to extend the set from the app (lint CT-1).
                case .upgrade:
                    context.policy.feature == .contacts && status == .limited ? .contactAccessPicker : .upgrade
                default: context.policy.feature == .contacts ? .contactAccessPicker : .limitedPicker
                }
            let rule = context.policy.cadence.upgrade
            switch CadenceEvaluator.verdict(rule: rule, history: context.state.history(of: .upgrade), now: context.now)
            {
            case .eligible:
                return context.show(action, .partialUpgradeEligible, screen: .upgrade)
            case .notBefore(let instant):
                return context.show(.proceed, .partialUpgradeNotDue, eligibleAt: instant)
            case .exhausted:
                return context.show(.proceed, .partialUpgradeNotDue)
            }
        }
    }

    /// The inputs every branch needs, and the one place a ``Decision`` is assembled.
    private struct Context {
        let policy: ResolvedFeature
        let state: ClientState
        let now: Instant

        func show(
            _ action: DecisionAction, _ reason: DecisionReason, screen: CopyScreen? = nil, eligibleAt: Instant? = nil,
            path: PermissionlessPath? = nil
        ) -> Decision {
            var copy: [CopyField: String] = [:]
            if let screen {
                // Sized once: growing 1 → 2 → 4 rehashes every field already in.
                let fields = screen.fields
                copy.reserveCapacity(fields.count)
                // One pass over the resolved texts (a few dozen) instead of a hashed `CopyKey` lookup per field.
                for (key, text) in policy.copy.texts where key.screen == screen && fields.contains(key.field) {
                    copy[key.field] = text
                }
                // The legacy two-button style is the only priming screen with a second label.
                if screen == .prime && policy.style == .single { copy[.cancelLabel] = nil }
            }
            let isSettings = action == .openSettings
            return Decision(
                feature: policy.feature,
                action: action,
                reason: reason,
                screen: screen,
                copy: copy,
                style: action == .prime ? policy.style : nil,
                variant: policy.variant,
                countsAgainst: action.cadenceKind,
                eligibleAt: eligibleAt,
                settingsDelayMs: isSettings ? policy.settings.delayMs : nil,
                leaveScreenFirst: isSettings ? policy.settings.leaveScreenFirst : nil,
                path: path
            )
        }
    }
}

extension DecisionAction {
    /// Whether the action leads to the system prompt (directly, or through a screen whose action fires it).
    var leadsToSystemPrompt: Bool {
        switch self {
        case .prime, .systemPrompt, .upgrade, .locationButton: true
        default: false
        }
    }
}
