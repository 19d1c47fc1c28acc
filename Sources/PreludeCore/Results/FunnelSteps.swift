/// The funnel steps one install has reached in one variant, as a bit set: the unit of incremental aggregation.
///
/// The service keeps one `FunnelSteps` per (experiment, feature, variant, install). Each incoming event ORs its
/// step into that set; only a step that was not yet set changes the variant's ``FunnelCounts``, by
/// ``FunnelCounts/add(from:to:)``. Replaying an event (same client event id, or simply the same step again) sets
/// nothing new, so duplicates change nothing. The raw value is stable: it is what gets stored.
public struct FunnelSteps: OptionSet, Sendable, Hashable {
    /// The stored bits.
    public let rawValue: Int

    /// Creates a set from its stored bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The set of one step.
    public init(_ step: FunnelStep) { rawValue = 1 << step.rawValue }

    /// Any event for the feature while assigned to the variant.
    public static let exposed = FunnelSteps(.exposed)
    /// `primeShown`.
    public static let primeShown = FunnelSteps(.primeShown)
    /// `primeAccepted`.
    public static let primeContinued = FunnelSteps(.primeContinued)
    /// `primeDismissed`.
    public static let primeDismissed = FunnelSteps(.primeDismissed)
    /// `systemGranted`.
    public static let systemGranted = FunnelSteps(.systemGranted)
    /// `systemDenied`.
    public static let systemDenied = FunnelSteps(.systemDenied)
    /// `settingsOpened`.
    public static let settingsOpened = FunnelSteps(.settingsOpened)
    /// `returnedGranted`.
    public static let returnedGranted = FunnelSteps(.returnedGranted)
    /// `taskStarted`.
    public static let taskStarted = FunnelSteps(.taskStarted)
    /// `taskCompleted`.
    public static let taskCompleted = FunnelSteps(.taskCompleted)

    /// The steps an event marks: always ``exposed``, plus the event's own step (``AnalyticsEvent/funnelStep``).
    /// Other events of the feature (`settingsShown`, `deniedShown`, `unsupportedShown`, ...) mark exposure only: the
    /// install reached the feature, so the variant could act on it.
    public static func marked(by event: AnalyticsEvent) -> FunnelSteps {
        event.funnelStep.map { [.exposed, FunnelSteps($0)] } ?? .exposed
    }

    /// The steps an event with this public-API name marks (``marked(by:)``); a name this build does not know marks
    /// exposure only.
    public static func marked(byEvent name: String) -> FunnelSteps {
        AnalyticsEvent(rawValue: name).map(marked(by:)) ?? .exposed
    }

    /// Whether the install ended granted by either path.
    public var isGranted: Bool { !isDisjoint(with: [.systemGranted, .returnedGranted]) }

    /// Whether the install started a task and completed one (in either order of arrival: events can be sent out of
    /// order by the offline queue).
    public var isTaskCompleted: Bool { isSuperset(of: [.taskStarted, .taskCompleted]) }
}

extension FunnelCounts {
    /// The counts of a set of installs, each given by the steps it reached (installs with no step are ignored).
    public init(installs: some Sequence<FunnelSteps>) {
        self.init()
        for steps in installs { add(from: [], to: steps) }
    }

    /// Accounts for one install moving from `old` to `new` steps (`new` ⊇ `old`): each figure whose rule the install
    /// newly meets (``FunnelCounter/counts(_:)``) gains one — a newly reached step, `granted` when the install becomes
    /// granted by either path for the first time, `taskCompleted` when it has both started and completed a task.
    public mutating func add(from old: FunnelSteps, to new: FunnelSteps) {
        precondition(new.isSuperset(of: old), "funnel steps only accumulate")
        guard new != old else { return }
        for counter in FunnelCounter.allCases where counter.counts(new) && !counter.counts(old) {
            self[counter] += 1
        }
    }
}
