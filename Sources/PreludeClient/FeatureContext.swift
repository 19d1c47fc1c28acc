import PreludeCore

/// What the app knows about one feature at the moment it asks, beyond its authorization status.
public struct FeatureContext: Sendable, Hashable {
    /// Whether the device has the hardware or source (a camera, a photo library); false → `unsupported`.
    public var available: Bool
    /// The OS version for this feature, when it differs from the client's (rarely); nil uses the client's.
    public var osVersion: SemanticVersion?
    /// Overrides the ledger's record of whether the system prompt already happened (tracking, alarms, local
    /// network); nil uses it.
    public var systemPromptShown: Bool?
    /// Location: `CLServiceSession.Diagnostic.insufficientlyInUse` (iOS 18): the system would not prompt now.
    public var insufficientlyInUse: Bool
    /// Photos: whether the app's Info.plist sets `PHPhotoLibraryPreventAutomaticLimitedAccessAlert` (see
    /// ``UsageDescriptionCheck/preventsAutomaticLimitedAccessAlert``); nil when unknown.
    public var preventsAutomaticLimitedAccessAlert: Bool?
    /// Why the app asks: `.launch` while launching (the policy decides whether it may, HIG), else `.featureUse`.
    public var origin: RequestOrigin

    /// A context; the defaults suit almost every call.
    public init(
        available: Bool = true, osVersion: SemanticVersion? = nil, systemPromptShown: Bool? = nil,
        insufficientlyInUse: Bool = false, preventsAutomaticLimitedAccessAlert: Bool? = nil,
        origin: RequestOrigin = .featureUse
    ) {
        self.available = available
        self.osVersion = osVersion
        self.systemPromptShown = systemPromptShown
        self.insufficientlyInUse = insufficientlyInUse
        self.preventsAutomaticLimitedAccessAlert = preventsAutomaticLimitedAccessAlert
        self.origin = origin
    }
}
