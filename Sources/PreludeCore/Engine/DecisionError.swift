/// A client state the engine cannot decide on, because no device could report it.
public enum DecisionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The app's policy does not configure the feature.
    case featureNotConfigured(Feature)
    /// The state is about another feature than the policy.
    case featureMismatch(policy: Feature, state: Feature)
    /// The feature never reports this status (e.g. `provisional` for the camera).
    case statusNotReported(feature: Feature, status: AuthorizationStatus)
    /// The status exists only from a later OS version than the one reported (e.g. limited contacts on iOS 17).
    case statusTooNew(feature: Feature, status: AuthorizationStatus, since: SemanticVersion, os: SemanticVersion)

    /// A sentence for the problem+json detail.
    public var description: String {
        switch self {
        case .featureNotConfigured(let feature):
            "The policy does not configure the feature \(feature)."
        case .featureMismatch(let policy, let state):
            "The client state is for \(state) but the policy is for \(policy)."
        case .statusNotReported(let feature, let status):
            "The feature \(feature) never reports the status \(status)."
        case .statusTooNew(let feature, let status, let since, let os):
            "The status \(status) of \(feature) exists from iOS \(since) on, but the client reports iOS \(os)."
        }
    }
}
