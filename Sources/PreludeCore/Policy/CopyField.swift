/// One text of a copy screen.
public enum CopyField: String, CaseIterable, Sendable, Hashable, Codable, CustomStringConvertible {
    case title
    case message
    /// The action that leads on (to the system alert, or to the upgrade request).
    case continueLabel
    /// The secondary action: the legacy two-button style's "Not Now", or the Settings nudge's "Cancel".
    case cancelLabel
    /// The Settings nudge's action that opens Settings.
    case openLabel
    /// The caption beside a system button.
    case caption

    /// The JSON name.
    public var description: String { rawValue }
}
