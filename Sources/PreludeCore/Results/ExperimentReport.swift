/// The results of one experiment on one feature: per-variant funnels and grant rates, comparisons with the control,
/// and the sample-ratio check. Built by ``ExperimentAnalysis/analyze(experimentKey:feature:variants:controlName:minimumEffect:settings:)``.
public struct ExperimentReport: Sendable, Hashable {
    /// The experiment's key.
    public var experimentKey: String
    /// The feature the experiment runs on (e.g. "camera").
    public var feature: String
    /// The control variant's name.
    public var controlName: String
    /// The thresholds the report was computed with.
    public var settings: ExperimentAnalysis.Settings
    /// The smallest absolute change in grant rate worth detecting (0.02 = 2 points), for the sample-size figures.
    public var minimumEffect: Double
    /// The variants in the order given, the control among them.
    public var variants: [VariantResult]
    /// Exposures against the configured weights.
    public var sampleRatio: SampleRatioCheck
    /// Installs per arm a two-arm test needs to detect ``minimumEffect`` from the control's rate at the report's
    /// alpha and power; `nil` while the control has no exposures.
    public var requiredInstallsPerArm: Int?

    /// The confidence level of every interval, 1 − alpha (0.95).
    public var confidenceLevel: Double { 1 - settings.alpha }

    /// Installs exposed across all variants.
    public var totalExposed: Int { variants.reduce(0) { $0 + $1.funnel.exposed } }

    /// The control's result.
    public var control: VariantResult { variants.first { $0.isControl }! }

    /// False when the sample-ratio check failed: then no other figure of the report can be trusted.
    public var isTrustworthy: Bool { !sampleRatio.isMismatch }

    /// Creates a report.
    public init(
        experimentKey: String, feature: String, controlName: String, settings: ExperimentAnalysis.Settings,
        minimumEffect: Double, variants: [VariantResult], sampleRatio: SampleRatioCheck, requiredInstallsPerArm: Int?
    ) {
        precondition(variants.filter(\.isControl).count == 1, "a report has exactly one control")
        self.experimentKey = experimentKey
        self.feature = feature
        self.controlName = controlName
        self.settings = settings
        self.minimumEffect = minimumEffect
        self.variants = variants
        self.sampleRatio = sampleRatio
        self.requiredInstallsPerArm = requiredInstallsPerArm
    }
}
