/// What the user did the last time a screen was shown.
public enum ScreenOutcome: String, CaseIterable, Hashable, Sendable, Codable {
    /// The user took the screen's action (Continue, Open Settings, Upgrade).
    case continued
    /// The user left the screen (backgrounded the app, navigated away) without acting.
    case leftWithoutContinuing
    /// The user dismissed the screen explicitly ("Not Now", Cancel, close).
    case dismissed
}
