/// Which ``AnalyticsEvent`` the client emits at each step of the screen a decision asks for.
///
/// `nil` means the step does not exist for that screen (a denied empty state has no action).
public struct AnalyticsPlan: Hashable, Sendable {
    /// Emitted when the screen appears.
    public var onShow: AnalyticsEvent?
    /// Emitted when the user takes the screen's action.
    public var onContinue: AnalyticsEvent?
    /// Emitted when the user leaves or dismisses the screen without acting.
    public var onDismiss: AnalyticsEvent?
    /// Emitted when the flow ends with the permission granted.
    public var onGranted: AnalyticsEvent?
    /// Emitted when the flow ends with the permission refused.
    public var onDenied: AnalyticsEvent?

    /// Creates a plan.
    public init(
        onShow: AnalyticsEvent? = nil, onContinue: AnalyticsEvent? = nil, onDismiss: AnalyticsEvent? = nil,
        onGranted: AnalyticsEvent? = nil, onDenied: AnalyticsEvent? = nil
    ) {
        self.onShow = onShow
        self.onContinue = onContinue
        self.onDismiss = onDismiss
        self.onGranted = onGranted
        self.onDenied = onDenied
    }

    /// Nothing to emit (proceed, wait).
    public static let none = AnalyticsPlan()

    /// Every event of the plan, in flow order.
    public var events: [AnalyticsEvent] {
        [onShow, onContinue, onDismiss, onGranted, onDenied].compactMap { $0 }
    }

    /// The plan for each action.
    public static func forAction(_ action: DecisionAction) -> AnalyticsPlan {
        switch action {
        case .proceed, .wait, .askInContext, .systemPicker, .permissionless: .none
        case .locationServicesOff: AnalyticsPlan(onShow: .servicesOffShown)
        case .unsupported: AnalyticsPlan(onShow: .unsupportedShown)
        case .prime:
            AnalyticsPlan(
                onShow: .primeShown, onContinue: .primeAccepted, onDismiss: .primeDismissed,
                onGranted: .systemGranted, onDenied: .systemDenied)
        case .systemPrompt: AnalyticsPlan(onGranted: .systemGranted, onDenied: .systemDenied)
        case .locationButton, .contactAccessButton:
            AnalyticsPlan(onShow: .buttonShown, onGranted: .systemGranted, onDenied: .systemDenied)
        case .openSettings:
            AnalyticsPlan(
                onShow: .settingsShown, onContinue: .settingsOpened, onDismiss: .settingsDismissed,
                onGranted: .returnedGranted)
        case .deniedScreen: AnalyticsPlan(onShow: .deniedShown)
        case .restrictedNotice: AnalyticsPlan(onShow: .restrictedShown)
        case .upgrade:
            AnalyticsPlan(
                onShow: .upgradeShown, onContinue: .upgradeAccepted, onDismiss: .upgradeDismissed,
                onGranted: .systemGranted, onDenied: .systemDenied)
        case .limitedPicker, .contactAccessPicker: AnalyticsPlan(onShow: .limitedPickerShown, onGranted: .systemGranted)
        }
    }
}
