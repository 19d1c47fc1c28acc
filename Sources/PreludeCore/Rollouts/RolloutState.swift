/// Where a rollout is: its status, its step, and since when. Everything the scheduler needs to resume after a
/// restart; stored with the rollout.
public struct RolloutState: Sendable, Hashable {
    /// A rollout's lifecycle.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// Created, nothing served yet.
        case draft
        /// Ramping: the guard watches and steps advance.
        case running
        /// Held at its step by an operator: the guard still watches (harm still rolls back), steps do not advance.
        case paused
        /// Every step passed (or benefit shown) and the plan wants an operator's `complete`.
        case awaitingApproval
        /// The change is served to everyone.
        case completed
        /// The guard tripped: the previous revision is served again.
        case rolledBack
        /// Stopped by an operator: the previous revision is served again.
        case aborted

        /// Whether nothing more can happen.
        public var isTerminal: Bool { self == .completed || self == .rolledBack || self == .aborted }
    }

    /// The status.
    public var status: Status
    /// The guarded step served (index into ``RolloutPlan/guardedSteps``); 0 before the start.
    public var step: Int
    /// When the step began (Unix milliseconds); nil before the start.
    public var stepStartedAt: Int64?
    /// The new arm's exposed installs when the step began: the step's own exposures are counted from there.
    public var stepStartExposed: Int
    /// What tripped the guard, for ``Status/rolledBack``; empty otherwise.
    public var trippedBy: [RolloutReading.Finding]
    /// What held the rollout (paused by the guard, ``RolloutActions/Response/hold``); emptied by `resume`.
    public var heldBy: [RolloutReading.Finding]
    /// The kinds of finding already acted on by a hold or a warning: they do not hold or warn again (an operator
    /// who resumes after a hold has seen it).
    public var handled: [RolloutReading.Finding]
    /// The segments carved out (``RolloutActions/Response/exclude``): they keep the old screen.
    public var excludedSegments: [RolloutSegment]

    /// Creates a state; the defaults are a fresh draft.
    public init(
        status: Status = .draft, step: Int = 0, stepStartedAt: Int64? = nil, stepStartExposed: Int = 0,
        trippedBy: [RolloutReading.Finding] = [], heldBy: [RolloutReading.Finding] = [],
        handled: [RolloutReading.Finding] = [], excludedSegments: [RolloutSegment] = []
    ) {
        self.status = status
        self.step = step
        self.stepStartedAt = stepStartedAt
        self.stepStartExposed = stepStartExposed
        self.trippedBy = trippedBy
        self.heldBy = heldBy
        self.handled = handled
        self.excludedSegments = excludedSegments
    }
}
