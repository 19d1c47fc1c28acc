import PreludeCore
import PreludeStorage

extension ExperimentAggregator {
    /// Adds one arm's funnel increments to its rows of `experiment_segment_counts` (migration 0014), for both
    /// dimensions: `deltas` maps the segment each install counts in (its first event's in the arm) to the increments
    /// of those installs.
    ///
    /// A value not seen before in the experiment's dimension is kept only while the experiment has fewer than
    /// ``EventSegment/maximumStoredValues`` distinct values there; past that it counts as
    /// ``EventSegment/otherValue``, in every arm alike (the decision is per experiment, so arms stay comparable).
    static func upsertSegments(
        _ app: SQLValue, _ environment: SQLValue, _ experiment: SQLValue, _ feature: SQLValue, _ variant: SQLValue,
        deltas: [EventSegment: FunnelCounts], on connection: Connection
    ) throws {
        var byValue: [SegmentBreakdown.Dimension: [String: FunnelCounts]] = [:]
        func add(_ delta: FunnelCounts, to value: String, of dimension: SegmentBreakdown.Dimension) {
            byValue[dimension, default: [:]][value] = (byValue[dimension]?[value] ?? FunnelCounts()) + delta
        }
        for (segment, delta) in deltas {
            add(delta, to: segment.osMajor.map(String.init) ?? EventSegment.unknownValue, of: .osMajor)
            add(delta, to: segment.locale ?? EventSegment.unknownValue, of: .locale)
        }
        let statement = try connection.statement(upsertSegmentSQL)
        for dimension in SegmentBreakdown.Dimension.allCases {
            // Sorted, so which values make the cap does not depend on dictionary order.
            for (value, delta) in (byValue[dimension] ?? [:]).sorted(by: { $0.key < $1.key }) {
                try statement.execute(
                    [
                        app, environment, experiment, feature, variant, .text(dimension.rawValue), .text(value),
                        .integer(Int64(EventSegment.maximumStoredValues)),
                    ] + counterValues(delta))
            }
        }
    }

    // ?7 is kept when it is 'unknown', already a value of the experiment's dimension, or while the dimension has
    // fewer than ?8 named values; otherwise it becomes 'other'. The key's order (…, dimension, value, variant) makes
    // both lookups a range of the primary key. `WHERE true`: SQLite's upsert "Parsing Ambiguity".
    private static let upsertSegmentSQL = """
        INSERT INTO experiment_segment_counts (app_id, environment, experiment_key, feature, variant, dimension, value,
            \(counterColumnList))
        SELECT ?1, ?2, ?3, ?4, ?5, ?6,
            CASE WHEN ?7 = 'unknown'
                OR EXISTS (SELECT 1 FROM experiment_segment_counts WHERE app_id = ?1 AND environment = ?2
                    AND experiment_key = ?3 AND feature = ?4 AND dimension = ?6 AND value = ?7)
                OR (SELECT count(DISTINCT value) FROM experiment_segment_counts WHERE app_id = ?1 AND environment = ?2
                    AND experiment_key = ?3 AND feature = ?4 AND dimension = ?6 AND value NOT IN ('unknown', 'other'))
                    < ?8
            THEN ?7 ELSE 'other' END,
            \(counterColumns.indices.map { "?\($0 + 9)" }.joined(separator: ", "))
        WHERE true
        ON CONFLICT (app_id, environment, experiment_key, feature, dimension, value, variant) DO UPDATE SET
            \(addingCounters("experiment_segment_counts"))
        """
}
