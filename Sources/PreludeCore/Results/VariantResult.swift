/// Everything the report says about one variant.
public struct VariantResult: Sendable, Hashable {
    /// The variant's name.
    public var name: String
    /// Whether this is the control every other variant is compared with.
    public var isControl: Bool
    /// The configured weight, normalized so the experiment's weights sum to 1.
    public var weight: Double
    /// The funnel, in unique installs.
    public var funnel: FunnelCounts
    /// granted / exposed, or `nil` when nobody was exposed.
    public var grantRate: Double?
    /// The Wilson score interval of ``grantRate`` at the report's confidence level, or `nil` when nobody was exposed.
    public var grantRateInterval: ConfidenceInterval?
    /// The comparison with the control; `nil` for the control itself, and when either arm has no exposures.
    public var comparison: VariantComparison?
    /// The verdict against the control; `nil` for the control itself.
    public var verdict: ExperimentVerdict?
    /// Installs still needed in each of this arm and the control to detect the report's minimum effect:
    /// max(0, required per arm − min(exposed here, exposed in control)); `nil` for the control itself and when the
    /// control's rate is unknown.
    public var additionalInstallsPerArm: Int?

    /// Creates a result.
    public init(
        name: String, isControl: Bool, weight: Double, funnel: FunnelCounts, grantRate: Double?,
        grantRateInterval: ConfidenceInterval?, comparison: VariantComparison?, verdict: ExperimentVerdict?,
        additionalInstallsPerArm: Int?
    ) {
        self.name = name
        self.isControl = isControl
        self.weight = weight
        self.funnel = funnel
        self.grantRate = grantRate
        self.grantRateInterval = grantRateInterval
        self.comparison = comparison
        self.verdict = verdict
        self.additionalInstallsPerArm = additionalInstallsPerArm
    }
}
