/// How serious a lint finding is, from docs/lint.md ("E", "W", "I").
public enum LintSeverity: String, CaseIterable, Hashable, Comparable, Sendable, Codable {
    /// Likely App Review rejection; `prelude policy lint` exits 1.
    case error
    /// Against Apple's guidance; fails only with `--strict`.
    case warning
    /// A suggestion.
    case info

    private var rank: Int {
        switch self {
        case .error: 2
        case .warning: 1
        case .info: 0
        }
    }

    /// Orders by seriousness: `info < warning < error`.
    public static func < (lhs: LintSeverity, rhs: LintSeverity) -> Bool { lhs.rank < rhs.rank }
}
