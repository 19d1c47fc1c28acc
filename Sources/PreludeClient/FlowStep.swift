import PreludeCore

/// What happened to a decision's screen, as the app reports it with ``PreludeClient/record(_:for:)``.
public enum FlowStep: String, Sendable, Hashable, CaseIterable {
    /// The screen was shown: counts against its cadence; sends the decision's `onShow` event (the exposure).
    case shown
    /// The user took the screen's action (Continue, Open Settings, Upgrade): `onContinue`.
    case continued
    /// The user dismissed it explicitly (Not Now, Cancel): `onDismiss`.
    case dismissed
    /// The user left it without acting (backgrounded, navigated away): recorded for cadence, no event.
    case leftWithoutContinuing
    /// The system prompt (or the return from Settings) ended granted: `onGranted`.
    case granted
    /// The system prompt ended denied: `onDenied`.
    case denied

    /// The event the decision's plan names for this step, if any.
    func event(in plan: AnalyticsPlan) -> AnalyticsEvent? {
        switch self {
        case .shown: plan.onShow
        case .continued: plan.onContinue
        case .dismissed: plan.onDismiss
        case .leftWithoutContinuing: nil
        case .granted: plan.onGranted
        case .denied: plan.onDenied
        }
    }

    /// The outcome this step records for the screen's cadence, if any.
    var outcome: ScreenOutcome? {
        switch self {
        case .continued: .continued
        case .dismissed: .dismissed
        case .leftWithoutContinuing: .leftWithoutContinuing
        case .shown, .granted, .denied: nil
        }
    }
}
