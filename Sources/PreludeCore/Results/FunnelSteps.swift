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

    /// Any event for the feature while assigned to the variant.
    public static let exposed = FunnelSteps(rawValue: 1 << 0)
    /// `primeShown`.
    public static let primeShown = FunnelSteps(rawValue: 1 << 1)
    /// `primeAccepted`.
    public static let primeContinued = FunnelSteps(rawValue: 1 << 2)
    /// `primeDismissed`.
    public static let primeDismissed = FunnelSteps(rawValue: 1 << 3)
    /// `systemGranted`.
    public static let systemGranted = FunnelSteps(rawValue: 1 << 4)
    /// `systemDenied`.
    public static let systemDenied = FunnelSteps(rawValue: 1 << 5)
    /// `settingsOpened`.
    public static let settingsOpened = FunnelSteps(rawValue: 1 << 6)
    /// `returnedGranted`.
    public static let returnedGranted = FunnelSteps(rawValue: 1 << 7)
    /// `taskStarted`.
    public static let taskStarted = FunnelSteps(rawValue: 1 << 8)
    /// `taskCompleted`.
    public static let taskCompleted = FunnelSteps(rawValue: 1 << 9)

    /// The steps an event with this public-API name marks: always ``exposed``, plus its own step when it is one of
    /// the funnel's. Other events of the feature (`settingsShown`, `deniedShown`, `unsupportedShown`, ...) mark
    /// exposure only: the install reached the feature, so the variant could act on it.
    public static func marked(byEvent name: String) -> FunnelSteps {
        switch name {
        case "primeShown": [.exposed, .primeShown]
        case "primeAccepted": [.exposed, .primeContinued]
        case "primeDismissed": [.exposed, .primeDismissed]
        case "systemGranted": [.exposed, .systemGranted]
        case "systemDenied": [.exposed, .systemDenied]
        case "settingsOpened": [.exposed, .settingsOpened]
        case "returnedGranted": [.exposed, .returnedGranted]
        case "taskStarted": [.exposed, .taskStarted]
        case "taskCompleted": [.exposed, .taskCompleted]
        default: .exposed
        }
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

    /// Accounts for one install moving from `old` to `new` steps (`new` ⊇ `old`): each newly reached step adds one
    /// install, and `granted` gains one when the install becomes granted by either path for the first time.
    public mutating func add(from old: FunnelSteps, to new: FunnelSteps) {
        precondition(new.isSuperset(of: old), "funnel steps only accumulate")
        let reached = new.subtracting(old)
        guard !reached.isEmpty else { return }
        if reached.contains(.exposed) { exposed += 1 }
        if reached.contains(.primeShown) { primeShown += 1 }
        if reached.contains(.primeContinued) { primeContinued += 1 }
        if reached.contains(.primeDismissed) { primeDismissed += 1 }
        if reached.contains(.systemGranted) { systemGranted += 1 }
        if reached.contains(.systemDenied) { systemDenied += 1 }
        if reached.contains(.settingsOpened) { settingsOpened += 1 }
        if reached.contains(.returnedGranted) { returnedGranted += 1 }
        if new.isGranted && !old.isGranted { granted += 1 }
        if reached.contains(.taskStarted) { taskStarted += 1 }
        if new.isTaskCompleted && !old.isTaskCompleted { taskCompleted += 1 }
    }
}
