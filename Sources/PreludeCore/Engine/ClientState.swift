/// What a client reports about one feature when it asks what to show.
public struct ClientState: Hashable, Sendable {
    /// The feature asked about.
    public var feature: Feature
    /// The authorization status the OS reports, normalised (`fullAccess` and `authorizedAlways` are `authorized`).
    public var status: AuthorizationStatus
    /// Whether the device has the hardware or source (camera, photo library, Bluetooth radio, ...).
    public var available: Bool
    /// The OS version (iOS numbering); nil when unknown, which skips OS-dependent choices
    /// (buttons then fall back to priming).
    public var osVersion: SemanticVersion?
    /// How often and when each cadence-governed screen was shown, and what the user did.
    public var history: [CadenceKind: ScreenHistory]
    /// Whether the one system prompt of this install already happened, by the client's ledger: for the features
    /// whose status cannot be trusted for it (``FeatureCapabilities/promptRecordedByClient``: tracking, alarms,
    /// local network). The JSON name predates alarms and the local network.
    public var trackingPromptShown: Bool
    /// Where the request comes from: the feature in use (default) or the app's launch.
    public var origin: RequestOrigin
    /// Location: `CLServiceSession.Diagnostic.insufficientlyInUse` (iOS 18): the app is not in use enough for the
    /// system to show its prompt now, so nothing that leads to the prompt is shown.
    public var insufficientlyInUse: Bool
    /// Photos: whether the app's Info.plist sets `PHPhotoLibraryPreventAutomaticLimitedAccessAlert`; nil when the
    /// client does not say (clients before this member). `false` means the OS re-asks about the limited library
    /// itself, so the policy adds no re-ask of its own.
    public var preventsAutomaticLimitedAccessAlert: Bool?
    /// The storefront's country; nil when unknown. Taken from the request's context (``DecideContract``), like the
    /// OS version: tracking's expanded request on iOS 27.2 depends on it (docs/catalogue.md).
    public var region: StorefrontRegion?

    /// Creates a client state; unspecified history means "never shown".
    public init(
        feature: Feature,
        status: AuthorizationStatus,
        available: Bool = true,
        osVersion: SemanticVersion? = nil,
        history: [CadenceKind: ScreenHistory] = [:],
        trackingPromptShown: Bool = false,
        origin: RequestOrigin = .featureUse,
        insufficientlyInUse: Bool = false,
        preventsAutomaticLimitedAccessAlert: Bool? = nil,
        region: StorefrontRegion? = nil
    ) {
        self.feature = feature
        self.status = status
        self.available = available
        self.osVersion = osVersion
        self.history = history
        self.trackingPromptShown = trackingPromptShown
        self.origin = origin
        self.insufficientlyInUse = insufficientlyInUse
        self.preventsAutomaticLimitedAccessAlert = preventsAutomaticLimitedAccessAlert
        self.region = region
    }

    /// The history of `kind`, `.never` when the client sent none.
    public func history(of kind: CadenceKind) -> ScreenHistory { history[kind] ?? .never }
}
