/// What one feature can report and do, and since which OS version (iOS numbering).
public struct FeatureCapabilities: Sendable, Hashable {
    /// The feature described.
    public let feature: Feature
    /// The OS version whose SDK introduced the feature's authorization API.
    public let introduced: SemanticVersion
    /// The statuses the feature can report, each with the OS version where it appeared.
    public let statuses: [AuthorizationStatus: SemanticVersion]
    /// The system button `Strategy.button` maps to, with the OS version where it appeared; nil when none.
    public let button: (kind: ButtonKind, since: SemanticVersion)?
    /// Whether the device may lack the hardware or service, so the policy needs `unsupported` copy.
    public let mayBeUnavailable: Bool
    /// Whether the system asks only once per install (tracking): no cadence, no Settings nudge.
    public let asksOnce: Bool
    /// Whether the client's ledger, not the status, says that the one system prompt happened
    /// (`trackingPromptShown`): tracking (iOS 17.4 answered before the person chose), alarms (AlarmKit's
    /// `requestAuthorization()` prompts only if never asked, and its state may still read `notDetermined`), and
    /// the local network (no status API at all).
    public let promptRecordedByClient: Bool
    /// Whether the OS has an API that reports the status; false for the local network, whose status the client
    /// can only infer (a probe, or "prompted" in its ledger).
    public let statusKnowable: Bool
    /// Whether the system request's outcome tells what the person answered. False for HealthKit: its read access is
    /// never reported ("your app doesn't know whether someone granted or denied permission to read data",
    /// docs/catalogue.md) and `authorized` / `denied` are its sharing (write) statuses, so after the request the
    /// client records only that it happened (`systemPromptCompleted`); only the partial grant the app can discover
    /// (limited history, from `earliestAuthorizedSampleDate(for:)`) is recorded as a grant.
    public let requestAnswerKnowable: Bool
    /// Whether upgrading the partial grant may be asked only once: calendars' write-only → full access, since
    /// `requestFullAccessToEvents` prompts only the first time.
    public let upgradeAsksOnce: Bool
    /// The system UI that serves the feature's task without permission (strategy `permissionless`), with the OS
    /// version where it appeared; nil when none.
    public let permissionless: (path: PermissionlessPath, since: SemanticVersion)?
    /// The Info.plist purpose-string keys the feature's requests use (docs/catalogue.md).
    public let purposeStrings: [String]
    /// Apple's documentation page for the feature's authorization API (docs/catalogue.md).
    public let applePage: String
    /// An OS permission or an app-level consent.
    public let kind: FeatureKind
    /// Where the system itself may ask again after the person answered (tracking's expanded request, iOS 27.2):
    /// from which OS version, in which storefront regions (codes or group names such as `EU`); nil when never.
    /// Such a re-ask is the system's: no cadence of the policy ever triggers it.
    public let systemReask: SystemReask?
    /// A partial grant the app reports because no API does (HealthKit's limited history, iOS 27): documented in
    /// docs/catalogue.md; nil when none.
    public let reportedPartialGrant: String?

    /// Where and since when the system may ask again by itself.
    public struct SystemReask: Sendable, Hashable {
        /// The first OS version (iOS numbering) where it may.
        public let since: SemanticVersion
        /// The storefront regions where it may: codes or group names (``StorefrontRegion/groups``).
        public let regions: [String]
    }

    /// Whether the system may ask again by itself on `osVersion` in `region`. Unknown OS: no (the old rule
    /// holds); unknown region on an OS that may: yes — the engine must not assume the prompt can never come back.
    public func systemMayReask(osVersion: SemanticVersion?, region: StorefrontRegion?) -> Bool {
        guard let systemReask, let osVersion, osVersion >= systemReask.since else { return false }
        guard let region else { return true }
        return systemReask.regions.contains(where: region.matches(selector:))
    }

    /// The partial statuses this feature can report.
    public var partialStatuses: [AuthorizationStatus] {
        AuthorizationStatus.allCases.filter { $0.isPartial && statuses[$0] != nil }
    }

    /// Whether the feature can report `status` at all.
    public func reports(_ status: AuthorizationStatus) -> Bool { statuses[status] != nil }

    /// The strategies the feature supports (every OS permission supports `prime` and `direct`; a consent `prime`).
    public var strategies: [Strategy] {
        // An app-level consent has no system prompt to ask `direct`ly: its screen is the request.
        if kind == .appConsent { return [.prime] }
        var strategies: [Strategy] = [.prime, .direct]
        if button != nil { strategies.append(.button) }
        if permissionless != nil { strategies.append(.permissionless) }
        return strategies
    }

    /// The cadences the engine applies to this feature: every kind, except that a feature the system asks only
    /// once (tracking) has no Settings nudge and no partial grant, so only the priming screen's.
    public var cadenceKinds: [CadenceKind] { asksOnce ? [.prime] : CadenceKind.allCases }

    /// The copy screens the engine can never choose for this feature (the resolver leaves their texts out):
    /// the Settings nudge for a feature the system asks only once.
    public var screensNeverShown: Set<CopyScreen> { asksOnce ? [.settings] : [] }

    /// The partial actions allowed for `status`.
    public func partialActions(for status: AuthorizationStatus) -> [PartialAction] {
        var actions: [PartialAction] = [.proceed, .upgrade]
        if feature == .photos, status == .limited { actions.append(.limitedPicker) }
        // The contact access picker and ContactAccessButton both arrived with limited contacts, in iOS 18.
        if feature == .contacts, status == .limited { actions += [.limitedPicker, .contactAccessButton] }
        return actions
    }

    public static func == (lhs: FeatureCapabilities, rhs: FeatureCapabilities) -> Bool { lhs.feature == rhs.feature }
    public func hash(into hasher: inout Hasher) { hasher.combine(feature) }
}
