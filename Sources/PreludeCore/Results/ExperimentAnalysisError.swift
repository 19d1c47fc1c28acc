/// Why an experiment's inputs cannot be analysed; ``description`` names the offending variant or setting.
public enum ExperimentAnalysisError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No variants were given.
    case noVariants
    /// Two variants share a name.
    case duplicateVariant(String)
    /// The control's name is not among the variants.
    case unknownControl(String)
    /// A weight is negative, NaN or infinite.
    case invalidWeight(variant: String, weight: Double)
    /// All weights are zero.
    case zeroTotalWeight
    /// The minimum effect is not an absolute rate difference strictly between 0 and 1.
    case invalidMinimumEffect(Double)
    /// A setting is out of its range (alpha and power in (0, 1), minimum exposures ≥ 1, SRM threshold in (0, 1)).
    case invalidSetting(name: String, value: Double)
    /// A variant's counts are impossible for unique installs.
    case inconsistentCounts(variant: String, problems: [String])

    /// A sentence for an operator.
    public var description: String {
        switch self {
        case .noVariants:
            "the experiment has no variants to analyse"
        case .duplicateVariant(let name):
            "variant \"\(name)\" appears more than once"
        case .unknownControl(let name):
            "control variant \"\(name)\" is not one of the experiment's variants"
        case .invalidWeight(let variant, let weight):
            "variant \"\(variant)\" has weight \(weight); weights must be finite and non-negative"
        case .zeroTotalWeight:
            "the variants' weights sum to 0; at least one weight must be positive"
        case .invalidMinimumEffect(let value):
            "minimum effect \(value) " + ExperimentAnalysis.minimumEffectRule
        case .invalidSetting(let name, let value):
            "setting \(name) = \(value) is out of range"
        case .inconsistentCounts(let variant, let problems):
            "variant \"\(variant)\" has impossible funnel counts: " + problems.joined(separator: "; ")
        }
    }
}
