import PreludeCore
import PreludeStorage

/// One experiment's daily rows in one environment (migrations 0010, 0011): counter increments per arm and day, and
/// events per arm and day.
package struct ExperimentDailyCounts: Sendable {
    /// Per arm of `feature`, its (day, increments) rows by day.
    package var increments: [String: [(day: Int, counts: FunnelCounts)]]
    /// Events per day over the arms of `feature`.
    package var events: [(day: Int, events: Int)]

    /// Loads the rows of `experiment` under `feature`: two primary-key range reads, O(arms × days).
    package static func load(
        appID: String, environment: String, experiment: String, feature: String, on connection: Connection
    ) throws -> ExperimentDailyCounts {
        let key: [SQLValue] = [.text(appID), .text(environment), .text(experiment), .text(feature)]
        var increments: [String: [(day: Int, counts: FunnelCounts)]] = [:]
        for row in try connection.statement(selectIncrements).query(key) {
            let variant = try row.get(0, as: String.self)
            let day = try row.get(1, as: Int.self)
            let counts = try FunnelCounts(counterColumnsOf: row, from: 2)
            increments[variant, default: []].append((day, counts))
        }
        let events = try connection.statement(selectEvents).query(key)
            .map { (day: try $0.get(0, as: Int.self), events: try $0.get(1, as: Int.self)) }
        return ExperimentDailyCounts(increments: increments, events: events)
    }

    private static let selectIncrements = """
        SELECT variant, day, \(ExperimentAggregator.counterColumnList)
        FROM experiment_daily_counts WHERE app_id = ? AND environment = ? AND experiment_key = ? AND feature = ?
        ORDER BY variant, day
        """

    private static let selectEvents = """
        SELECT day, sum(events) FROM experiment_daily_events
        WHERE app_id = ? AND environment = ? AND experiment_key = ? AND feature = ?
        GROUP BY day ORDER BY day
        """
}
