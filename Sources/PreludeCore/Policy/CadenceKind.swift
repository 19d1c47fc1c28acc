/// A screen kind whose showings a cadence governs.
public enum CadenceKind: String, CaseIterable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The priming screen, shown again after the user left it without continuing.
    case prime
    /// The Settings nudge after a denial.
    case settings
    /// The upgrade prompt after a partial grant.
    case upgrade

    /// The JSON name.
    public var description: String { rawValue }
}
