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
    /// The reported OS is older than the app's deployment target (`app.minimumOS`), so the app cannot run there.
    case osBelowMinimum(os: SemanticVersion, minimum: SemanticVersion)
    /// `available: false` for a feature every device has (the catalogue's `mayBeUnavailable` is false).
    case alwaysAvailable(Feature)
    /// A location-only member (`insufficientlyInUse`) on another feature.
    case locationOnly(Feature, member: String)
    /// A photos-only member (`preventsAutomaticLimitedAccessAlert`) on another feature.
    case photosOnly(Feature, member: String)

    /// The client-state member the error is about (the last token of decide's pointer): `feature`, `osVersion`,
    /// `available`, the location- or photos-only member, else `status`.
    public var member: String {
        switch self {
        case .featureNotConfigured: "feature"
        case .osBelowMinimum: "osVersion"
        case .alwaysAvailable: "available"
        case .locationOnly(_, let member), .photosOnly(_, let member): member
        case .featureMismatch, .statusNotReported, .statusTooNew: "status"
        }
    }

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
        case .osBelowMinimum(let os, let minimum):
            "The client reports iOS \(os), but the app's policy says it runs on iOS \(minimum) or later (app.minimumOS)."
        case .alwaysAvailable(let feature):
            "The feature \(feature) is on every device, so it cannot be unavailable; send available: true."
        case .locationOnly(let feature, let member):
            "\(member) is a location diagnostic (CLServiceSession); \(feature) cannot report it."
        case .photosOnly(let feature, let member):
            "\(member) is about the photo library's limited-access alert; \(feature) cannot report it."
        }
    }
}
