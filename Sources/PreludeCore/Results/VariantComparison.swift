/// A variant's rate (grant or task completion) against the control's: the difference, its intervals, the fixed-horizon test, and the
/// always-valid sequential test behind the verdict.
public struct VariantComparison: Sendable, Hashable {
    /// The absolute difference of grant rates, variant − control (0.05 = five percentage points).
    public var difference: Double
    /// Newcombe's hybrid score interval for ``difference`` at the report's confidence level.
    public var differenceInterval: ConfidenceInterval
    /// The difference relative to the control's rate (0.125 = 12.5 % higher), or `nil` when the control's rate is 0.
    public var relativeDifference: Double?
    /// The pooled two-proportion z statistic (positive when the variant grants more).
    public var zStatistic: Double
    /// The two-sided p-value of the pooled two-proportion z-test: valid only when read once, at the planned sample.
    public var pValue: Double
    /// The always-valid p-value of the mixture SPRT (``SequentialTest``): the verdict follows it, and it stays valid
    /// however often the results are looked at.
    public var sequentialPValue: Double
    /// The always-valid confidence sequence for ``difference`` at the report's confidence level.
    public var sequentialInterval: ConfidenceInterval
    /// ``sequentialPValue`` after Holm's step-down correction over every comparison of the report on the same
    /// metric (``MultipleComparisons/holm(_:)``); equal to it when there is one comparison. The verdict follows this.
    public var adjustedSequentialPValue: Double

    /// Creates a comparison.
    public init(
        difference: Double, differenceInterval: ConfidenceInterval, relativeDifference: Double?, zStatistic: Double,
        pValue: Double, sequentialPValue: Double, sequentialInterval: ConfidenceInterval,
        adjustedSequentialPValue: Double? = nil
    ) {
        self.adjustedSequentialPValue = adjustedSequentialPValue ?? sequentialPValue
        self.sequentialPValue = sequentialPValue
        self.sequentialInterval = sequentialInterval
        self.difference = difference
        self.differenceInterval = differenceInterval
        self.relativeDifference = relativeDifference
        self.zStatistic = zStatistic
        self.pValue = pValue
    }
}
