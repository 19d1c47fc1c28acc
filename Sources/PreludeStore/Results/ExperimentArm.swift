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
                counts: try FunnelCounts(counterColumnsOf: row, from: 2))
        }
    }

    private static let selectArms = """
        SELECT feature, variant, \(ExperimentAggregator.counterColumnList)
        FROM experiment_funnel_counts WHERE app_id = ? AND environment = ? AND experiment_key = ?
        ORDER BY feature, variant
        """
}
