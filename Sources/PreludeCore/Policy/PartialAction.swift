/// What the app does when a feature is only partly granted.
public enum PartialAction: String, CaseIterable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Use what was granted; show nothing.
    case proceed
    /// Show the upgrade screen (its own cadence) asking for full access.
    case upgrade
    /// Present the system's limited-access picker: photos `limited` (PHPicker / `presentLimitedLibraryPicker`,
    /// decision action `limitedPicker`), contacts `limited` on iOS 18 (`contactAccessPicker`, decision action
    /// `contactAccessPicker`).
    case limitedPicker
    /// Offer the ContactAccessButton to add contacts to the limited set (contacts, limited, iOS 18).
    case contactAccessButton

    /// The JSON name.
    public var description: String { rawValue }
}
