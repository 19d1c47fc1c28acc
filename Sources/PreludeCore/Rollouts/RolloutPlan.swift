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
    /// The most extra denied installs the rollout may cause (``RolloutHarmBound``): the guard acts
    /// (``RolloutActions/harmBudget``) as soon as the bound exceeds it, whatever α says. Nil: no budget.
    public var harmBudget: Int?
    /// The dimensions whose values are also guarded one by one, Holm-corrected (docs/rollouts.md, "Per-segment
    /// guarding"); empty: only all installs together.
    public var segmentGuard: [SegmentBreakdown.Dimension]
    /// What each kind of finding does.
    public var actions: RolloutActions
    /// How long a step may go without a new install in the new arm before the finding `noTraffic` (24 h).
    public var noTrafficGraceMillis: Int64
    /// The share of the experiment's events reporting another variant above which `mislabelledEvents` is found
    /// (0.05).
    public var mislabelledShare: Double
    /// The environment's template the plan was made from, if any (docs/rollouts.md, "Templates").
    public var template: String?

    /// Creates a plan.
    public init(
        steps: [Step], alpha: Double = 0.05, minimumEffect: Double = ExperimentAnalysis.defaultMinimumEffect,
        requiresApproval: Bool = false, harmBudget: Int? = nil, segmentGuard: [SegmentBreakdown.Dimension] = [],
        actions: RolloutActions = RolloutActions(), noTrafficGraceMillis: Int64 = Self.defaultNoTrafficGraceMillis,
        mislabelledShare: Double = Self.defaultMislabelledShare, template: String? = nil
    ) {
        self.steps = steps
        self.alpha = alpha
        self.minimumEffect = minimumEffect
        self.requiresApproval = requiresApproval
        self.harmBudget = harmBudget
        self.segmentGuard = segmentGuard
        self.actions = actions
        self.noTrafficGraceMillis = noTrafficGraceMillis
        self.mislabelledShare = mislabelledShare
        self.template = template
    }

    /// The default grace before `noTraffic`: 24 hours.
    public static let defaultNoTrafficGraceMillis: Int64 = 86_400_000
    /// The default mislabelled share: 5 %.
    public static let defaultMislabelledShare = 0.05
    /// Mislabelled events are judged once the experiment has this many events (mislabelled or counted).
    public static let minimumEventsForMislabelling = 200
    /// The largest harm budget: ten million installs.
    public static let largestHarmBudget = 10_000_000
    /// How many values of each guarded dimension are tested: the most exposed ones (docs/rollouts.md,
    /// "Per-segment guarding"). Fixed, so the Holm family has a fixed size.
    public static let segmentsPerDimension = 8

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
        if let harmBudget, harmBudget < 1 || harmBudget > Self.largestHarmBudget {
            problems.append(("harmBudget", "installs, an integer from 1 to \(Self.largestHarmBudget)"))
        }
        if Set(segmentGuard).count != segmentGuard.count {
            problems.append(("segments", "each dimension at most once"))
        }
        if noTrafficGraceMillis < 60_000 || noTrafficGraceMillis > Self.longestHoldMillis {
            problems.append(("noTrafficGraceSeconds", "an integer from 60 to 2592000 (30 days)"))
        }
        if !(mislabelledShare.isFinite && mislabelledShare > 0 && mislabelledShare < 1) {
            problems.append(("mislabelledShare", "a share above 0 and below 1, e.g. 0.05"))
        }
        problems += actions.problems()
        return problems
    }

    /// The longest hold of a step: 30 days.
    public static let longestHoldMillis: Int64 = 30 * 86_400_000

    /// The sample-ratio test's share of ``alpha``: min(0.001, α/10), the industry's SRM threshold when α allows.
    public var sampleRatioAlpha: Double { min(0.001, alpha / 10) }
    /// How many parts the rest of α (α − ``sampleRatioAlpha``) is split into: the grant and denial tests over all
    /// installs, the segment family when ``segmentGuard`` is set, the signal when its action holds.
    public var stoppingParts: Int { 2 + (segmentGuard.isEmpty ? 0 : 1) + (actions.signal == .hold ? 1 : 0) }
    /// Each harm test's share of ``alpha`` (grant rate lower, denial rate higher): (α − ``sampleRatioAlpha``) /
    /// ``stoppingParts``, so that every stopping test together stops a harmless change by mistake with probability
    /// at most α. Without segments and a holding signal: (α − ``sampleRatioAlpha``) / 2, as before them.
    public var harmAlpha: Double { (alpha - sampleRatioAlpha) / Double(stoppingParts) }
    /// The segment family's share of ``alpha``, Holm-corrected over ``segmentFamilySize`` tests (0 without
    /// segments).
    public var segmentAlpha: Double { segmentGuard.isEmpty ? 0 : harmAlpha }
    /// The signal test's level: ``harmAlpha`` (when it only warns it is outside the α guarantee: a warning stops
    /// nothing).
    public var signalAlpha: Double { harmAlpha }
    /// The Holm family's fixed size: two tests (grant, denial) for each of ``segmentsPerDimension`` values of each
    /// guarded dimension; values not tested count as p = 1.
    public var segmentFamilySize: Int { 2 * Self.segmentsPerDimension * segmentGuard.count }
}
