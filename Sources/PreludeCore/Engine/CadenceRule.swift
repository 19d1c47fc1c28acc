/// The re-show rule for one screen kind: a minimum interval that grows by a backoff factor, and a cap.
///
/// The k-th re-show (k ≥ 1, i.e. the (k+1)-th showing) is allowed once
/// `minimumInterval × backoff^(k-1)` seconds have passed since the last showing.
public struct CadenceRule: Hashable, Sendable, Codable {
    /// Seconds between the first showing and the first re-show.
    public var minimumInterval: Double
    /// Factor by which each following interval grows (1 = constant interval).
    public var backoff: Double
    /// The most times the screen may ever be shown; `nil` for no cap.
    public var maximumShowings: Int?

    /// Creates a rule. Values are expected to be validated by the policy validator;
    /// the preconditions catch programmer errors only.
    public init(minimumInterval: Double, backoff: Double = 1, maximumShowings: Int?) {
        precondition(minimumInterval >= 0 && minimumInterval.isFinite, "minimumInterval must be finite and ≥ 0")
        precondition(backoff >= 1 && backoff.isFinite, "backoff must be finite and ≥ 1")
        precondition(maximumShowings.map { $0 >= 0 } ?? true, "maximumShowings must be ≥ 0")
        self.minimumInterval = minimumInterval
        self.backoff = backoff
        self.maximumShowings = maximumShowings
    }

    /// The interval that must pass before the k-th re-show (k ≥ 1).
    public func interval(beforeReshow k: Int) -> Double {
        precondition(k >= 1, "re-shows are counted from 1")
        var interval = minimumInterval
        // Repeated multiplication rather than pow() keeps PreludeCore free of Foundation.
        for _ in 1..<k { interval *= backoff }
        return interval
    }
}
