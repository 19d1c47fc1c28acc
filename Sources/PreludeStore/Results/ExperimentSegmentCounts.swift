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
                try FunnelCounts(counterColumnsOf: row, from: 3)
            )
        }
    }

    private static let selectRows = """
        SELECT dimension, value, variant, \(ExperimentAggregator.counterColumnList)
        FROM experiment_segment_counts
        WHERE app_id = ? AND environment = ? AND experiment_key = ? AND feature = ?
        ORDER BY dimension, value, variant
        """
}
