/// A figure of ``FunnelCounts``, in funnel order: the one list of what is counted. ``FunnelCounts``' fields, sums
/// and increments, the stored counter columns and the readers (the results JSON, table and page) all iterate it, and
/// every place that must know a figure switches over it exhaustively, so a new one does not compile until each place
/// says what it does with it (docs/architecture.md, "A new counted event type").
public enum FunnelCounter: String, CaseIterable, Sendable, Hashable {
    /// Installs exposed to the variant (the denominator).
    case exposed
    /// Installs that saw the priming screen.
    case primeShown
    /// Installs that took the priming screen's action (Continue).
    case primeContinued
    /// Installs that left the priming screen without continuing (or tapped "Not now").
    case primeDismissed
    /// Installs that answered the system alert with a grant (full or partial).
    case systemGranted
    /// Installs that answered the system alert with a refusal.
    case systemDenied
    /// Installs that opened Settings from the nudge after a denial.
    case settingsOpened
    /// Installs that came back from Settings with the permission granted.
    case returnedGranted
    /// Installs granted by either path: systemGranted ∪ returnedGranted (the grant-rate numerator).
    case granted
    /// Installs that started a task (the task-completion denominator).
    case taskStarted
    /// Installs that started a task and completed one (the task-completion numerator).
    case taskCompleted

    /// The figure counting the installs that reached `step`.
    public init(_ step: FunnelStep) {
        switch step {
        case .exposed: self = .exposed
        case .primeShown: self = .primeShown
        case .primeContinued: self = .primeContinued
        case .primeDismissed: self = .primeDismissed
        case .systemGranted: self = .systemGranted
        case .systemDenied: self = .systemDenied
        case .settingsOpened: self = .settingsOpened
        case .returnedGranted: self = .returnedGranted
        case .taskStarted: self = .taskStarted
        case .taskCompleted: self = .taskCompleted
        }
    }

    /// The name in JSON (`funnel` objects of the results) and in the results page's `data-field`.
    public var name: String { rawValue }

    /// Whether an install that reached `steps` counts in this figure.
    public func counts(_ steps: FunnelSteps) -> Bool {
        switch self {
        case .exposed: steps.contains(.exposed)
        case .primeShown: steps.contains(.primeShown)
        case .primeContinued: steps.contains(.primeContinued)
        case .primeDismissed: steps.contains(.primeDismissed)
        case .systemGranted: steps.contains(.systemGranted)
        case .systemDenied: steps.contains(.systemDenied)
        case .settingsOpened: steps.contains(.settingsOpened)
        case .returnedGranted: steps.contains(.returnedGranted)
        case .granted: steps.isGranted
        case .taskStarted: steps.contains(.taskStarted)
        case .taskCompleted: steps.isTaskCompleted
        }
    }

    /// The measure whose tables show the figure.
    public enum Measure: Sendable {
        /// The grant funnel (denominator `exposed`).
        case grant
        /// Task success (shown only when some install started a task).
        case taskCompletion
    }

    /// The measure whose tables show the figure.
    public var measure: Measure {
        switch self {
        case .exposed, .primeShown, .primeContinued, .primeDismissed, .systemGranted, .systemDenied, .settingsOpened,
            .returnedGranted, .granted:
            .grant
        case .taskStarted, .taskCompleted: .taskCompletion
        }
    }

    /// The column heading of `prelude results`' plain-text funnel table.
    public var label: String {
        switch self {
        case .exposed: "exposed"
        case .primeShown: "shown"
        case .primeContinued: "continued"
        case .primeDismissed: "dismissed"
        case .systemGranted: "sys granted"
        case .systemDenied: "sys denied"
        case .settingsOpened: "settings"
        case .returnedGranted: "returned"
        case .granted: "granted"
        case .taskStarted: "task started"
        case .taskCompleted: "task done"
        }
    }
}
