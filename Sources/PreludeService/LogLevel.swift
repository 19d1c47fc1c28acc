/// Severity of a log line, lowest first. Lines below the configured level are dropped.
package enum LogLevel: String, Sendable, CaseIterable, Comparable {
    /// Diagnostic detail.
    case debug
    /// Normal events: start, stop, migrations applied.
    case info
    /// Normal but significant events.
    case notice
    /// Something unexpected that the service survives.
    case warning
    /// A failure.
    case error

    private var rank: Int { Self.allCases.firstIndex(of: self)! }

    /// Orders by severity.
    package static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rank < rhs.rank }
}
