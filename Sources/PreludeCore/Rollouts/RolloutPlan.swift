/// How a rollout ramps and what its guard tolerates: the steps, and the analysis settings fixed before the data.
///
/// Steps are shares of all installs (percent) that get the new behaviour, strictly increasing. Every step below 100
/// is **guarded**: the change is served as an experiment whose two arms grow together (``assignment(step:)``), held
/// at least ``Step/minimumHoldMillis`` and until the new arm gained ``Step/minimumExposed`` installs. A last step of
/// 100 means completion, and so does passing the last guarded step. docs/rollouts.md describes the whole design.
public struct RolloutPlan: Sendable, Hashable {
    /// One step of the ramp.
    public struct Step: Sendable, Hashable {
        /// Share of all installs given the new behaviour, in percent (0, 100].
        public var percent: Double
        /// The least time the step is held, in milliseconds.
        public var minimumHoldMillis: Int64
        /// The least number of installs newly exposed in the new arm during the step before it may advance.
        public var minimumExposed: Int

        /// Creates a step.
        public init(percent: Double, minimumHoldMillis: Int64, minimumExposed: Int) {
            self.percent = percent
            self.minimumHoldMillis = minimumHoldMillis
            self.minimumExposed = minimumExposed
        }
    }

    /// The steps, strictly increasing.
    public var steps: [Step]
    /// The chance, over the whole rollout, that a change that harms nobody is stopped by mistake (0.05).
    public var alpha: Double
    /// The smallest grant-rate (and denial-rate) change the guard is tuned to catch; sets the mixing variance τ² of
    /// the sequential tests (0.02).
    public var minimumEffect: Double
    /// Whether completion waits for an operator's `complete` (status `awaitingApproval`) instead of publishing itself.
    public var requiresApproval: Bool

    /// Creates a plan.
    public init(
        steps: [Step], alpha: Double = 0.05, minimumEffect: Double = ExperimentAnalysis.defaultMinimumEffect,
        requiresApproval: Bool = false
    ) {
        self.steps = steps
        self.alpha = alpha
        self.minimumEffect = minimumEffect
        self.requiresApproval = requiresApproval
    }

    /// Below this many exposed installs in either arm the grant and denial tests do not run (100, as the experiment
    /// verdict's `minimumExposures`): their normal approximation is poor on tiny samples. The sample-ratio test is
    /// exact and runs from the first install.
    public static let minimumExposedPerArm = 100

    /// The steps below 100 %: the ones the guard watches.
    public var guardedSteps: [Step] { steps.filter { $0.percent < 100 } }

    /// The new arm's weight in percent: the largest guarded step. Each guarded step serves weights
    /// [100 − this, this] with coverage `percent / this`, so both arms keep one split all the rollout long.
    public var rolloutWeight: Double { guardedSteps.last?.percent ?? 0 }

    /// The planned share of the new arm among exposed installs of the experiment: ``rolloutWeight`` / 100.
    public var plannedShare: Double { rolloutWeight / 100 }

    /// The variant weights (percent) and coverage of guarded step `index`: weights [control, rollout] =
    /// [100 − ``rolloutWeight``, ``rolloutWeight``], coverage = percent / ``rolloutWeight``.
    ///
    /// With the documented bucket ranges (docs/bucketing.md) the control covers [0, coverage·w_c) and the new arm
    /// [w_c, w_c + coverage·w_r): raising the coverage only extends both ranges, so a ramp adds installs to each arm
    /// and never moves one from an arm to the other; the installs outside both keep the old behaviour (no variant).
    public func assignment(step index: Int) -> (weights: [Double], coverage: Double) {
        let guarded = guardedSteps
        precondition(guarded.indices.contains(index), "a guarded step")
        let weight = rolloutWeight
        return ([100 - weight, weight], guarded[index].percent / weight)
    }

    /// The plan's problems as (member path, sentence); empty when usable.
    public func problems() -> [(member: String, message: String)] {
        var problems: [(member: String, message: String)] = []
        if steps.isEmpty { problems.append(("steps", "a rollout needs at least one step")) }
        if steps.count > 20 { problems.append(("steps", "a rollout has at most 20 steps; found \(steps.count)")) }
        var previous = 0.0
        for (index, step) in steps.enumerated() {
            if !(step.percent.isFinite && step.percent > previous && step.percent <= 100) {
                problems.append(
                    (
                        "steps/\(index)/percent",
                        "steps are percentages strictly increasing from above 0 up to 100; found "
                            + "\(JSONValue.number(step.percent)) after \(JSONValue.number(previous))"
                    ))
            }
            if step.percent.isFinite { previous = max(previous, step.percent) }
            if step.minimumHoldMillis < 0 || step.minimumHoldMillis > Self.longestHoldMillis {
                problems.append(("steps/\(index)/minimumHoldSeconds", "must be from 0 to 2592000 (30 days)"))
            }
            if step.minimumExposed < 0 || step.minimumExposed > 100_000_000 {
                problems.append(("steps/\(index)/minimumExposed", "must be from 0 to 100000000"))
            }
        }
        if !steps.isEmpty, guardedSteps.isEmpty {
            problems.append(("steps", "at least one step must be below 100 %: that is where the guard watches"))
        }
        if let weight = guardedSteps.last?.percent, weight < 1 || weight > 99 {
            problems.append(
                ("steps", "the largest step below 100 % must be from 1 to 99 %: it sets the split of the two arms"))
        }
        if !Experiment.isValidAlpha(alpha) {
            problems.append(("alpha", "must be a significance level from 0.0001 to 0.2"))
        }
        if !ExperimentAnalysis.isValidMinimumEffect(minimumEffect) {
            problems.append(("minimumEffect", ExperimentAnalysis.minimumEffectRule))
        }
        return problems
    }

    /// The longest hold of a step: 30 days.
    public static let longestHoldMillis: Int64 = 30 * 86_400_000

    /// The sample-ratio test's share of ``alpha``: min(0.001, α/10), the industry's SRM threshold when α allows.
    public var sampleRatioAlpha: Double { min(0.001, alpha / 10) }
    /// Each harm test's share of ``alpha`` (grant rate lower, denial rate higher): (α − ``sampleRatioAlpha``) / 2, so
    /// that the three stopping tests together stop a harmless change by mistake with probability at most α.
    public var harmAlpha: Double { (alpha - sampleRatioAlpha) / 2 }
}
