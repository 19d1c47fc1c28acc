/// A step of the permission funnel an install can reach. The raw value is the step's bit in ``FunnelSteps``, which is
/// stored: a new step takes the next number, none is ever renumbered.
public enum FunnelStep: Int, CaseIterable, Sendable, Hashable {
    /// Any event for the feature while assigned to the variant.
    case exposed = 0
    /// `primeShown`.
    case primeShown = 1
    /// `primeAccepted`.
    case primeContinued = 2
    /// `primeDismissed`.
    case primeDismissed = 3
    /// `systemGranted`.
    case systemGranted = 4
    /// `systemDenied`.
    case systemDenied = 5
    /// `settingsOpened`.
    case settingsOpened = 6
    /// `returnedGranted`.
    case returnedGranted = 7
    /// `taskStarted`.
    case taskStarted = 8
    /// `taskCompleted`.
    case taskCompleted = 9
}
