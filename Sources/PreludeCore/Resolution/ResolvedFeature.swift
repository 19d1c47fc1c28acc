/// Everything a client needs to decide offline for one feature: the effective settings after defaults,
/// targeting and its variant, with localised copy.
public struct ResolvedFeature: Sendable, Hashable {
    /// The feature.
    public var feature: Feature
    /// The effective strategy; `button` only when the client's OS has the feature's button.
    public var strategy: Strategy
    /// Whether the document chose `button` and the client's OS lacks it (or is unknown), so `strategy` fell back
    /// to `prime`; the engine then answers `buttonUnavailableFallback`.
    public var buttonFallback: Bool
    /// The system button to show when `strategy == .button`.
    public var button: ButtonKind?
    /// The priming screen's layout.
    public var style: PrimingStyle
    /// Cadence per screen kind (not applied for a feature the system asks only once).
    public var cadence: Cadence
    /// How to open Settings after a denial.
    public var settings: SettingsBehaviour
    /// The action for each partial status the feature can report (`proceed` unless the policy says otherwise).
    public var partial: [AuthorizationStatus: PartialAction]
    /// The localised texts.
    public var copy: ResolvedCopy
    /// The variant applied, if the install is enrolled in this feature's experiment.
    public var variant: VariantAssignment?
    /// The names of the targeting rules that matched, in the order applied.
    public var appliedRules: [String]
    /// The lowest OS a client of the app runs (``AppInfo/effectiveMinimumOS``); the engine refuses older ones.
    public var minimumOS: SemanticVersion
    /// When and why the feature asks (the feature entry's `access`).
    public var access: FeatureAccess
    /// The `ask` rule that applied, nil when none did (asked at first use).
    public var ask: AskRule?
    /// Whether the client met the `ask` rule when resolved (always true without one).
    public var momentReached: Bool

    /// A resolved feature with the given parts.
    public init(
        feature: Feature,
        strategy: Strategy,
        button: ButtonKind? = nil,
        style: PrimingStyle = .single,
        cadence: Cadence = .builtIn,
        settings: SettingsBehaviour = .builtIn,
        partial: [AuthorizationStatus: PartialAction] = [:],
        copy: ResolvedCopy = ResolvedCopy(),
        variant: VariantAssignment? = nil,
        appliedRules: [String] = [],
        buttonFallback: Bool = false,
        minimumOS: SemanticVersion = AppInfo.defaultMinimumOS,
        access: FeatureAccess = FeatureAccess(),
        ask: AskRule? = nil,
        momentReached: Bool = true
    ) {
        self.ask = ask
        self.momentReached = momentReached
        self.feature = feature
        self.strategy = strategy
        self.button = button
        self.style = style
        self.cadence = cadence
        self.settings = settings
        self.partial = partial
        self.copy = copy
        self.variant = variant
        self.appliedRules = appliedRules
        self.buttonFallback = buttonFallback
        self.minimumOS = minimumOS
        self.access = access
    }

    /// The action for partial status `status` (`proceed` when unset).
    public func partialAction(for status: AuthorizationStatus) -> PartialAction {
        partial[status] ?? .proceed
    }

    /// The JSON form the public endpoint renders.
    public var jsonValue: JSONValue {
        var object = JSONObject()
        let capabilities = feature.capabilities
        object["strategy"] = .string(strategy.rawValue)
        if buttonFallback { object["fallbackFrom"] = .string(Strategy.button.rawValue) }
        if let button { object["button"] = .string(button.rawValue) }
        object["style"] = .string(style.rawValue)
        // Only the cadences the engine applies: tracking (asked once) has the priming screen's alone.
        var cadenceObject = JSONObject()
        for kind in capabilities.cadenceKinds {
            let rule = cadence[kind]
            cadenceObject[kind.rawValue] = [
                "minIntervalHours": .number(rule.minIntervalHours), "backoff": .number(rule.backoff),
                "maxShows": .integer(rule.maxShows),
            ]
        }
        object["cadence"] = .object(cadenceObject)
        // The Settings behaviour only where the engine can answer `openSettings` (never for tracking).
        if !capabilities.asksOnce {
            object["settings"] = [
                "delayMs": .integer(settings.delayMs), "leaveScreenFirst": .bool(settings.leaveScreenFirst),
            ]
        }
        var partialObject = JSONObject()
        for status in feature.capabilities.partialStatuses {
            partialObject[status.rawValue] = .string(partialAction(for: status).rawValue)
        }
        if !partialObject.isEmpty { object["partial"] = .object(partialObject) }
        object["copy"] = copy.jsonValue
        if let variant { object["variant"] = variant.jsonValue }
        if !appliedRules.isEmpty { object["rules"] = .array(appliedRules.map(JSONValue.string)) }
        if let ask, ask != .anytime {
            object["ask"] = ask.jsonValue
            object["momentReached"] = .bool(momentReached)
        }
        if !access.isDefault { object["access"] = access.jsonValue }
        return .object(object)
    }
}
