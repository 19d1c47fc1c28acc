/// A permission an app can ask for; the keys of the policy document's `features` object.
public enum Feature: String, CaseIterable, Sendable, Hashable, Codable, CustomStringConvertible {
    case camera
    case microphone
    case photos
    case contacts
    case locationWhenInUse
    case locationAlways
    case notifications
    case tracking
    case bluetooth
    case calendars
    case reminders
    case motion
    case speech
    case health
    case localNetwork
    /// AlarmKit (iOS 26): alarms and timers that sound through Focus and silent mode.
    case alarms
    /// An app-level consent (kind ``FeatureKind/appConsent``): sending personal data to a third-party AI service
    /// (App Review 5.1.2(i), November 2025). No OS prompt: the app's own consent screen asks, and the app records
    /// the answer.
    case aiDataSharing

    /// The JSON name.
    public var description: String { rawValue }

    /// What the catalogue knows about this feature.
    public var capabilities: FeatureCapabilities { FeatureCatalogue.capabilities(of: self) }
}
