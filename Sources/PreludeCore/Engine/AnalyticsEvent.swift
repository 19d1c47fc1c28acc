/// The analytics events a client emits along a permission flow; the names are those of the public events API.
public enum AnalyticsEvent: String, CaseIterable, Hashable, Sendable, Codable {
    /// The priming screen appeared.
    case primeShown
    /// The user took the priming screen's action (Continue), which leads to the system alert.
    case primeAccepted
    /// The user left the priming screen without continuing ("Not Now" in the two-button style, or navigating away).
    case primeDismissed
    /// The system alert was answered with a grant (full or partial).
    case systemGranted
    /// The system alert was answered with a refusal.
    case systemDenied
    /// The system's request returned without a decision: tracking's expanded request (iOS 27.2) left through its
    /// "Additional Information" action. Not an answer: the ledger is unchanged, no `systemDenied` is sent.
    case systemExitedWithoutDecision
    /// The system's request completed, and what the person answered cannot be known: HealthKit's read access
    /// (``FeatureCapabilities/requestAnswerKnowable``), where a refusal and an empty store look the same and
    /// `authorized` / `denied` describe only sharing (writing). Neither a grant nor a refusal: the ledger records that
    /// the prompt happened; the funnel counts the install as exposed, never in `systemGranted` or `systemDenied`.
    case systemPromptCompleted
    /// The Settings nudge appeared after a denial.
    case settingsShown
    /// The user tapped the Settings nudge's action and the app opened its Settings page.
    case settingsOpened
    /// The user closed the Settings nudge.
    case settingsDismissed
    /// The user came back from Settings with the permission granted.
    case returnedGranted
    /// The denied explanation (empty state) appeared.
    case deniedShown
    /// The restricted explanation appeared.
    case restrictedShown
    /// The "unsupported on this device" message appeared.
    case unsupportedShown
    /// The upgrade prompt after a partial grant appeared.
    case upgradeShown
    /// The user took the upgrade prompt's action.
    case upgradeAccepted
    /// The user closed the upgrade prompt.
    case upgradeDismissed
    /// A system in-line button (LocationButton, ContactAccessButton) was displayed.
    case buttonShown
    /// The system's limited-access picker was presented.
    case limitedPickerShown
    /// The "turn on Location Services" explanation appeared (Location Services off device-wide).
    case servicesOffShown
    /// The app became active and found the feature's authorization status changed outside the app (in Settings,
    /// by device management), not as the outcome of its own Settings nudge (that is `returnedGranted`).
    case statusChangedOutsideApp
    /// The app began a task the feature serves (attach a photo, add an event), whatever the decision then shows:
    /// the denominator of the task-completion rate (docs/results.md, "Task success"). Sent by the app, through
    /// ``PreludeClient``'s `recordTask` or `PermissionFlow`'s `taskStarted`, never named by a decision.
    case taskStarted
    /// The app finished the task it started (the photo is attached, the event added): with ``taskStarted``, the
    /// measure of "ask less" arms, which have no grant to count.
    case taskCompleted

    /// The experiment funnel step this event marks beyond exposure, or nil when it marks exposure only (every event
    /// of the feature from an assigned install exposes it; docs/results.md). The one place events meet the funnel:
    /// a new event does not compile until it says which step it counts for (docs/architecture.md, "A new counted
    /// event type").
    public var funnelStep: FunnelStep? {
        switch self {
        case .primeShown: .primeShown
        case .primeAccepted: .primeContinued
        case .primeDismissed: .primeDismissed
        case .systemGranted: .systemGranted
        case .systemDenied: .systemDenied
        case .settingsOpened: .settingsOpened
        case .returnedGranted: .returnedGranted
        case .taskStarted: .taskStarted
        case .taskCompleted: .taskCompleted
        case .systemExitedWithoutDecision, .systemPromptCompleted, .settingsShown, .settingsDismissed, .deniedShown,
            .restrictedShown, .unsupportedShown, .upgradeShown, .upgradeAccepted, .upgradeDismissed, .buttonShown,
            .limitedPickerShown, .servicesOffShown, .statusChangedOutsideApp:
            nil
        }
    }

    /// Whether this is `taskStarted` or `taskCompleted`, the events that may name a task.
    public var isTaskEvent: Bool { self == .taskStarted || self == .taskCompleted }
}
