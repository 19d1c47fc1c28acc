/// The layout of the priming screen.
public enum PrimingStyle: String, CaseIterable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// One action ("Continue") that leads to the system alert; Apple's current guidance.
    case single
    /// The legacy "Allow" / "Not Now" pair; supported, flagged by the linter.
    case twoButton

    /// The JSON name.
    public var description: String { rawValue }
}
