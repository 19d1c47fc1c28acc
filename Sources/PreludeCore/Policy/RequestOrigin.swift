/// Where a decision request comes from: the HIG asks apps to request access when the feature is used, and at
/// launch only when the app cannot work without the resource (reference PA-8, seed hig-accessing-user-data).
public enum RequestOrigin: String, CaseIterable, Sendable, Hashable, Codable {
    /// The person is using the feature now (the default).
    case featureUse
    /// The app is launching; the policy's `access.askAtLaunch` says whether the feature may ask now.
    case launch
}
