/// The plain reading of one variant against the control.
public enum ExperimentVerdict: String, Sendable, Hashable, CaseIterable {
    /// The grant rate is significantly higher than the control's (always-valid p < alpha, positive difference).
    case better
    /// The grant rate is significantly lower than the control's (always-valid p < alpha, negative difference).
    case worse
    /// No significant difference yet. Looking again later is fine: the test stays valid at every look.
    case notSignificant
    /// Too few exposed installs in this variant or in the control to test at all.
    case insufficientData

    /// Words for a terminal table.
    public var label: String {
        switch self {
        case .better: "better"
        case .worse: "worse"
        case .notSignificant: "not significant yet"
        case .insufficientData: "insufficient data"
        }
    }
}
