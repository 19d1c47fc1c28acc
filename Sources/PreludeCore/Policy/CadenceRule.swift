/// When a screen may be shown again: a minimum interval growing by a backoff factor, and a cap on showings.
///
/// The n-th re-showing (n ≥ 1) is allowed `minIntervalHours × backoff^(n-1)` hours after the previous one,
/// and never once `maxShows` showings happened. `maxShows == 0` means never show.
public struct CadenceRule: Sendable, Hashable, Codable {
    /// Allowed `minIntervalHours` (a year at most).
    public static let minIntervalRange: ClosedRange<Double> = 0...8760
    /// Allowed `backoff`.
    public static let backoffRange: ClosedRange<Double> = 1...10
    /// Allowed `maxShows`.
    public static let maxShowsRange: ClosedRange<Int> = 0...20

    /// Hours between the first and second showing.
    public var minIntervalHours: Double
    /// Factor by which the interval grows after each showing.
    public var backoff: Double
    /// The most showings ever.
    public var maxShows: Int

    /// A rule with the given values.
    public init(minIntervalHours: Double, backoff: Double, maxShows: Int) {
        self.minIntervalHours = minIntervalHours
        self.backoff = backoff
        self.maxShows = maxShows
    }

    /// This rule with the fields `override` sets replaced.
    public func applying(_ override: CadenceRuleOverride) -> CadenceRule {
        CadenceRule(
            minIntervalHours: override.minIntervalHours ?? minIntervalHours,
            backoff: override.backoff ?? backoff,
            maxShows: override.maxShows ?? maxShows
        )
    }
}
