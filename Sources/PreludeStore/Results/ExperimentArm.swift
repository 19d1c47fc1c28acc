import PreludeCore
import PreludeStorage

/// One arm's aggregated funnel as stored in `experiment_funnel_counts`: unique installs per step.
package struct ExperimentArm: Sendable, Hashable {
    /// The feature the arm's events were about (the experiment's feature, unless clients mislabel events).
    package var feature: String
    /// The variant name the clients reported.
    package var variant: String
    /// The unique-install counts.
    package var counts: FunnelCounts

    /// Creates an arm.
    package init(feature: String, variant: String, counts: FunnelCounts) {
        self.feature = feature
        self.variant = variant
        self.counts = counts
    }

    /// Every stored arm of one experiment, by feature then variant: a primary-key range read, O(arms).
    package static func load(appID: String, environment: String, experiment: String, on connection: Connection) throws
        -> [ExperimentArm]
    {
        try connection.statement(selectArms).query([.text(appID), .text(environment), .text(experiment)]).map { row in
            ExperimentArm(
                feature: try row.get(0, as: String.self), variant: try row.get(1, as: String.self),
                counts: FunnelCounts(
                    exposed: try row.get(2, as: Int.self), primeShown: try row.get(3, as: Int.self),
                    primeContinued: try row.get(4, as: Int.self), primeDismissed: try row.get(5, as: Int.self),
                    systemGranted: try row.get(6, as: Int.self), systemDenied: try row.get(7, as: Int.self),
                    settingsOpened: try row.get(8, as: Int.self), returnedGranted: try row.get(9, as: Int.self),
                    granted: try row.get(10, as: Int.self), taskStarted: try row.get(11, as: Int.self),
                    taskCompleted: try row.get(12, as: Int.self)))
        }
    }

    private static let selectArms = """
        SELECT feature, variant, exposed, prime_shown, prime_continued, prime_dismissed, system_granted,
            system_denied, settings_opened, returned_granted, granted, task_started, task_completed
        FROM experiment_funnel_counts WHERE app_id = ? AND environment = ? AND experiment_key = ?
        ORDER BY feature, variant
        """
}
