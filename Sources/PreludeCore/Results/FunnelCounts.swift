/// One variant's permission funnel, every figure a count of unique installs (never of raw events).
///
/// An install counts once in a field when it emitted that event at least once while assigned to the variant, so
/// an install that dismissed the priming screen once and continued later counts in both `primeDismissed` and
/// `primeContinued`. Definitions (event names of the public events API):
/// - `exposed`: installs that emitted any event for the experiment's feature while assigned to the variant — they
///   reached the feature, so the variant could act on them. The denominator of every rate.
/// - `primeShown` (`primeShown`), `primeContinued` (`primeAccepted`), `primeDismissed` (`primeDismissed`: left the
///   priming screen without continuing, or "Not now" in the two-button style).
/// - `systemGranted` (`systemGranted`), `systemDenied` (`systemDenied`), `settingsOpened` (`settingsOpened`),
///   `returnedGranted` (`returnedGranted`: came back from Settings with the permission granted).
/// - `granted`: installs that ended up granted by either path — the union of the `systemGranted` and
///   `returnedGranted` installs, each install once. It is the numerator of the grant rate, so it is given
///   separately: it cannot be derived from the two counts alone when some installs did both.
/// - `taskStarted` (`taskStarted`): installs that began a task the feature serves; `taskCompleted`: installs that
///   started a task **and** completed one (`taskCompleted`), so it never exceeds `taskStarted`. Their ratio is the
///   task-completion rate, the measure of "ask less" arms that have no grant to count (docs/results.md, "Task
///   success").
public struct FunnelCounts: Sendable, Hashable {
    /// Installs exposed to the variant (the denominator).
    public var exposed: Int
    /// Installs that saw the priming screen.
    public var primeShown: Int
    /// Installs that took the priming screen's action (Continue).
    public var primeContinued: Int
    /// Installs that left the priming screen without continuing (or tapped "Not now").
    public var primeDismissed: Int
    /// Installs that answered the system alert with a grant (full or partial).
    public var systemGranted: Int
    /// Installs that answered the system alert with a refusal.
    public var systemDenied: Int
    /// Installs that opened Settings from the nudge after a denial.
    public var settingsOpened: Int
    /// Installs that came back from Settings with the permission granted.
    public var returnedGranted: Int
    /// Installs granted by either path: systemGranted ∪ returnedGranted (the grant-rate numerator).
    public var granted: Int
    /// Installs that started a task (the task-completion denominator).
    public var taskStarted: Int
    /// Installs that started a task and completed one (the task-completion numerator).
    public var taskCompleted: Int

    /// Creates a funnel; every field defaults to zero. Use ``validationProblems()`` to check consistency.
    public init(
        exposed: Int = 0, primeShown: Int = 0, primeContinued: Int = 0, primeDismissed: Int = 0,
        systemGranted: Int = 0, systemDenied: Int = 0, settingsOpened: Int = 0, returnedGranted: Int = 0,
        granted: Int = 0, taskStarted: Int = 0, taskCompleted: Int = 0
    ) {
        self.taskStarted = taskStarted
        self.taskCompleted = taskCompleted
        self.exposed = exposed
        self.primeShown = primeShown
        self.primeContinued = primeContinued
        self.primeDismissed = primeDismissed
        self.systemGranted = systemGranted
        self.systemDenied = systemDenied
        self.settingsOpened = settingsOpened
        self.returnedGranted = returnedGranted
        self.granted = granted
    }

    /// The largest count the analysis accepts, 2⁴⁰ (about 1.1 trillion installs): every sum and product of counts it
    /// forms then fits an `Int` and keeps a `Double`'s integer precision.
    public static let largestCount = 1 << 40

    /// The fields in funnel order (``FunnelCounter``) with their JSON names.
    public var fields: [(name: String, value: Int)] { FunnelCounter.allCases.map { ($0.name, self[$0]) } }

    /// One figure. The one place that maps each ``FunnelCounter`` to its property: a new figure does not compile
    /// until it has one.
    public subscript(counter: FunnelCounter) -> Int {
        get { self[keyPath: Self.property(of: counter)] }
        set { self[keyPath: Self.property(of: counter)] = newValue }
    }

    private static func property(of counter: FunnelCounter) -> WritableKeyPath<FunnelCounts, Int> {
        switch counter {
        case .exposed: \.exposed
        case .primeShown: \.primeShown
        case .primeContinued: \.primeContinued
        case .primeDismissed: \.primeDismissed
        case .systemGranted: \.systemGranted
        case .systemDenied: \.systemDenied
        case .settingsOpened: \.settingsOpened
        case .returnedGranted: \.returnedGranted
        case .granted: \.granted
        case .taskStarted: \.taskStarted
        case .taskCompleted: \.taskCompleted
        }
    }

    /// What makes these counts impossible for unique installs, one sentence each; empty when they are consistent.
    ///
    /// Every count is non-negative, at most ``largestCount`` and at most `exposed` (an install that emitted an event is exposed), and
    /// max(systemGranted, returnedGranted) ≤ granted ≤ systemGranted + returnedGranted (a union's size), and
    /// taskCompleted ≤ taskStarted.
    public func validationProblems() -> [String] {
        var problems: [String] = []
        for (name, value) in fields where value < 0 {
            problems.append("\(name) is negative (\(value))")
        }
        let tooLarge = fields.filter { $0.value > Self.largestCount }
        guard tooLarge.isEmpty else {
            // Sums below would overflow; no real experiment comes near a trillion installs per arm.
            return problems + tooLarge.map { "\($0.name) (\($0.value)) exceeds the largest count analysed (2^40)" }
        }
        for (name, value) in fields.dropFirst() where value > exposed {
            problems.append("\(name) (\(value)) exceeds exposed (\(exposed))")
        }
        if granted < max(systemGranted, returnedGranted) {
            problems.append(
                "granted (\(granted)) is below max(systemGranted, returnedGranted) = \(max(systemGranted, returnedGranted))"
            )
        }
        if granted > systemGranted + returnedGranted {
            problems.append(
                "granted (\(granted)) exceeds systemGranted + returnedGranted = \(systemGranted + returnedGranted)")
        }
        if taskCompleted > taskStarted {
            problems.append("taskCompleted (\(taskCompleted)) exceeds taskStarted (\(taskStarted))")
        }
        return problems
    }

    /// The sum of two funnels, figure by figure (a day's increments added to the running total).
    public static func + (lhs: FunnelCounts, rhs: FunnelCounts) -> FunnelCounts {
        var sum = lhs
        for counter in FunnelCounter.allCases { sum[counter] += rhs[counter] }
        return sum
    }
}
