/// Whether a screen governed by a cadence may be shown now.
public enum CadenceVerdict: Hashable, Sendable {
    /// The screen may be shown now.
    case eligible
    /// The screen may be shown again from this instant on.
    case notBefore(Instant)
    /// The screen has been shown the maximum number of times and will not be shown again.
    case exhausted
}
