import PreludeCore
import PreludeStorage

extension FunnelCounter {
    /// The figure's counter column in `experiment_funnel_counts`, `experiment_daily_counts` and
    /// `experiment_segment_counts` (migrations 0002, 0010, 0014). A new figure does not compile until it names its
    /// column, which a migration must add to the three tables (docs/architecture.md, "A new counted event type").
    var column: String {
        switch self {
        case .exposed: "exposed"
        case .primeShown: "prime_shown"
        case .primeContinued: "prime_continued"
        case .primeDismissed: "prime_dismissed"
        case .systemGranted: "system_granted"
        case .systemDenied: "system_denied"
        case .settingsOpened: "settings_opened"
        case .returnedGranted: "returned_granted"
        case .granted: "granted"
        case .taskStarted: "task_started"
        case .taskCompleted: "task_completed"
        }
    }
}

extension FunnelCounts {
    /// The figures of a row whose columns from `first` on are ``ExperimentAggregator/counterColumnList``, in order:
    /// how every reader of the counter tables reads them.
    init(counterColumnsOf row: Row, from first: Int) throws {
        self.init()
        for (offset, counter) in FunnelCounter.allCases.enumerated() {
            self[counter] = try row.get(first + offset, as: Int.self)
        }
    }
}
