/// A two-sided confidence interval [lower, upper] for a proportion or a difference of proportions.
public struct ConfidenceInterval: Sendable, Hashable {
    /// The lower bound.
    public var lower: Double
    /// The upper bound.
    public var upper: Double

    /// Creates an interval; `lower` must not exceed `upper`.
    public init(lower: Double, upper: Double) {
        precondition(lower <= upper, "interval bounds out of order")
        self.lower = lower
        self.upper = upper
    }

    /// Whether `value` lies inside the interval, bounds included.
    public func contains(_ value: Double) -> Bool { lower <= value && value <= upper }
}
