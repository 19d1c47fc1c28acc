/// A screen (or control) whose words the policy supplies.
public enum CopyScreen: String, CaseIterable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The priming screen shown before the system alert.
    case prime
    /// The nudge towards Settings after a denial.
    case settings
    /// The explanatory empty state when access is denied and the nudge is not due.
    case denied
    /// The notice for a status the user cannot change (parental controls, MDM).
    case restricted
    /// The message when the device lacks the hardware or service.
    case unsupported
    /// The prompt to upgrade a partial grant to full access.
    case upgrade
    /// The caption beside a system button (LocationButton, ContactAccessButton).
    case button
    /// Location Services are off for the whole device: say to turn them on in Settings > Privacy & Security >
    /// Location Services (the app's own Settings page cannot fix it, so no Open Settings action).
    case servicesOff

    /// The texts this screen has, in canonical order.
    public var fields: [CopyField] {
        switch self {
        case .prime: [.title, .message, .continueLabel, .cancelLabel]
        case .settings: [.title, .message, .openLabel, .cancelLabel]
        case .denied, .restricted, .unsupported, .servicesOff: [.title, .message]
        case .upgrade: [.title, .message, .continueLabel, .cancelLabel]
        case .button: [.caption]
        }
    }

    /// The JSON name.
    public var description: String { rawValue }
}
