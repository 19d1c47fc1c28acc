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
    /// taskCompleted / taskStarted, or `nil` when no install started a task (docs/results.md, "Task success").
    public var taskCompletionRate: Double?
    /// The Wilson score interval of ``taskCompletionRate``, or `nil` when no install started a task.
    public var taskCompletionRateInterval: ConfidenceInterval?
    /// The task-completion rate against the control's, with the same intervals and sequential test as the grant
    /// rate; `nil` for the control and when either arm has no started task.
    public var taskComparison: VariantComparison?
    /// The verdict on task completion against the control (its own sequential test, at least `minimumExposures`
    /// installs that started a task in each arm); `nil` for the control itself.
    public var taskVerdict: ExperimentVerdict?

    /// Creates a result.
    public init(
        name: String, isControl: Bool, weight: Double, funnel: FunnelCounts, grantRate: Double?,
        grantRateInterval: ConfidenceInterval?, comparison: VariantComparison?, verdict: ExperimentVerdict?,
        additionalInstallsPerArm: Int?, taskCompletionRate: Double? = nil,
        taskCompletionRateInterval: ConfidenceInterval? = nil, taskComparison: VariantComparison? = nil,
        taskVerdict: ExperimentVerdict? = nil
    ) {
        self.taskCompletionRate = taskCompletionRate
        self.taskCompletionRateInterval = taskCompletionRateInterval
        self.taskComparison = taskComparison
        self.taskVerdict = taskVerdict
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
