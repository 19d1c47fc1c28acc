/// Some fields of a `CadenceRule`, as written in the document; unset fields inherit.
public struct CadenceRuleOverride: Sendable, Hashable {
    /// Overrides `CadenceRule.minIntervalHours`.
    public var minIntervalHours: Double?
    /// Overrides `CadenceRule.backoff`.
    public var backoff: Double?
    /// Overrides `CadenceRule.maxShows`.
    public var maxShows: Int?

    /// An override of the given fields.
    public init(minIntervalHours: Double? = nil, backoff: Double? = nil, maxShows: Int? = nil) {
        self.minIntervalHours = minIntervalHours
        self.backoff = backoff
        self.maxShows = maxShows
    }

    /// Whether no field is set.
    public var isEmpty: Bool { minIntervalHours == nil && backoff == nil && maxShows == nil }

    /// This override with `other`'s set fields winning.
    public func merging(_ other: CadenceRuleOverride) -> CadenceRuleOverride {
        CadenceRuleOverride(
            minIntervalHours: other.minIntervalHours ?? minIntervalHours,
            backoff: other.backoff ?? backoff,
            maxShows: other.maxShows ?? maxShows
        )
    }
}
