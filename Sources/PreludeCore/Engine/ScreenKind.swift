/// The kinds of screen a cadence governs, each counted separately in the client's history.
public enum ScreenKind: String, CaseIterable, Hashable, Sendable, Codable {
    /// The priming screen shown again after the user left it without continuing.
    case primeLeftWithoutContinuing
    /// The nudge towards Settings after a denial.
    case settingsNudge
    /// The prompt to upgrade a partial grant (limited, provisional, when-in-use, reduced accuracy, write-only).
    case upgradePrompt
}
