import PreludeCore
import PreludeStorage

/// One experiment's arms per segment value, as stored in `experiment_segment_counts` (migration 0014): what the
/// breakdowns (``SegmentBreakdown``) are computed from.
package enum ExperimentSegmentCounts {
    /// One row: an arm's funnel in one value of one dimension.
    package typealias Row = (
        dimension: SegmentBreakdown.Dimension, value: String, variant: String, counts: FunnelCounts
    )

    /// Every row of the experiment's `feature`: a primary-key range read, O(values × arms) — at most
    /// ``EventSegment/maximumStoredValues`` + 2 values per dimension.
    package static func load(
        appID: String, environment: String, experiment: String, feature: String, on connection: Connection
    ) throws -> [Row] {
        try connection.statement(selectRows).query([
            .text(appID), .text(environment), .text(experiment), .text(feature),
        ]).compactMap { row in
            guard let dimension = SegmentBreakdown.Dimension(rawValue: try row.get(0, as: String.self)) else {
                return nil
            }
            return (
                dimension, try row.get(1, as: String.self), try row.get(2, as: String.self),
                FunnelCounts(
                    exposed: try row.get(3, as: Int.self), primeShown: try row.get(4, as: Int.self),
                    primeContinued: try row.get(5, as: Int.self), primeDismissed: try row.get(6, as: Int.self),
                    systemGranted: try row.get(7, as: Int.self), systemDenied: try row.get(8, as: Int.self),
                    settingsOpened: try row.get(9, as: Int.self), returnedGranted: try row.get(10, as: Int.self),
                    granted: try row.get(11, as: Int.self), taskStarted: try row.get(12, as: Int.self),
                    taskCompleted: try row.get(13, as: Int.self))
            )
        }
    }

    private static let selectRows = """
        SELECT dimension, value, variant, exposed, prime_shown, prime_continued, prime_dismissed, system_granted,
            system_denied, settings_opened, returned_granted, granted, task_started, task_completed
        FROM experiment_segment_counts
        WHERE app_id = ? AND environment = ? AND experiment_key = ? AND feature = ?
        ORDER BY dimension, value, variant
        """
}
