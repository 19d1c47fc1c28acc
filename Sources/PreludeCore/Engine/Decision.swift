/// What the client shows now for one feature, with everything it needs to show it.
public struct Decision: Hashable, Sendable {
    /// The feature decided about.
    public var feature: Feature
    /// What to show.
    public var action: DecisionAction
    /// Why, as a stable code ("cadenceWaiting", "hardwareUnavailable", ...), for logs and tests.
    public var reason: DecisionReason
    /// The screen whose copy `copy` holds; nil when nothing is shown.
    public var screen: CopyScreen?
    /// The copy of that screen in the client's locale, by field; empty when nothing is shown.
    public var copy: [CopyField: String]
    /// The priming layout, for `prime`.
    public var style: PrimingStyle?
    /// For `permissionless` and `systemPicker`: the system UI to present.
    public var path: PermissionlessPath?
    /// The experiment variant, when the install is in one.
    public var variant: VariantAssignment?
    /// The cadence this showing counts against: the client adds one to that history when it shows the screen.
    public var countsAgainst: CadenceKind?
    /// For `wait` (and for `deniedScreen` or `proceed` when a nudge is only postponed): when the
    /// cadence-governed screen becomes eligible again; nil when it never will (exhausted).
    public var eligibleAt: Instant?
    /// For `openSettings`: milliseconds between the tap and opening the Settings URL.
    public var settingsDelayMs: Int?
    /// For `openSettings`: whether to leave the feature's screen before showing the nudge.
    public var leaveScreenFirst: Bool?
    /// The events the client emits along the screen.
    public var events: AnalyticsPlan

    /// Creates a decision.
    public init(
        feature: Feature, action: DecisionAction, reason: DecisionReason, screen: CopyScreen? = nil,
        copy: [CopyField: String] = [:], style: PrimingStyle? = nil, variant: VariantAssignment? = nil,
        countsAgainst: CadenceKind? = nil, eligibleAt: Instant? = nil, settingsDelayMs: Int? = nil,
        leaveScreenFirst: Bool? = nil, events: AnalyticsPlan? = nil, path: PermissionlessPath? = nil
    ) {
        self.feature = feature
        self.action = action
        self.reason = reason
        self.screen = screen
        self.copy = copy
        self.style = style
        self.path = path
        self.variant = variant
        self.countsAgainst = countsAgainst
        self.eligibleAt = eligibleAt
        self.settingsDelayMs = settingsDelayMs
        self.leaveScreenFirst = leaveScreenFirst
        self.events = events ?? AnalyticsPlan.forAction(action)
    }
}
