import PreludeCore
import PreludeStorage

/// The events of one experiment whose variant disagreed with the install's assignment (docs/results.md,
/// "Mislabelled events"), as counted at ingestion in `experiment_mislabelled_events`; none of them is in the arms.
package struct MislabelledEvents: Sendable, Hashable {
    /// One reported/expected pair.
    package struct Row: Sendable, Hashable {
        /// The feature the events were about.
        package var feature: String
        /// The variant the events reported.
        package var reported: String
        /// The variant the install is assigned, or nil when it is outside the experiment's coverage.
        package var expected: String?
        /// How many events.
        package var events: Int
    }

    /// The pairs, by feature, reported variant, expected variant.
    package var rows: [Row]

    /// Creates counts.
    package init(rows: [Row] = []) { self.rows = rows }

    /// Every mislabelled event of the experiment.
    package var total: Int { rows.reduce(0) { $0 + $1.events } }

    /// The rows of one experiment: a primary-key range read.
    package static func load(appID: String, environment: String, experiment: String, on connection: Connection)
        throws -> MislabelledEvents
    {
        let rows = try connection.statement(select).query([.text(appID), .text(environment), .text(experiment)]).map {
            row in
            let expected = try row.get(2, as: String.self)
            return Row(
                feature: try row.get(0, as: String.self), reported: try row.get(1, as: String.self),
                expected: expected.isEmpty ? nil : expected, events: try row.get(3, as: Int.self))
        }
        return MislabelledEvents(rows: rows)
    }

    /// `{"events": total, "byVariant": [{"feature", "reported", "expected" (null: not enrolled), "events"}]}`.
    package var jsonValue: JSONValue {
        [
            "events": .integer(total),
            "byVariant": .array(
                rows.map {
                    [
                        "feature": .string($0.feature), "reported": .string($0.reported),
                        "expected": $0.expected.map(JSONValue.string) ?? .null, "events": .integer($0.events),
                    ]
                }),
        ]
    }

    /// One line for the terminal table, or nil when there is none.
    package var summary: String? {
        guard total > 0 else { return nil }
        let parts = rows.map { row in
            "\(row.events) reported \(row.reported) but \(row.expected.map { "are assigned \($0)" } ?? "are not enrolled")"
        }
        return "Mislabelled: \(total) event\(total == 1 ? "" : "s") reported a variant other than the install's "
            + "assignment (\(parts.joined(separator: "; "))); not counted in any arm."
    }

    private static let select = """
        SELECT feature, reported_variant, expected_variant, events FROM experiment_mislabelled_events
        WHERE app_id = ? AND environment = ? AND experiment_key = ?
        ORDER BY feature, reported_variant, expected_variant
        """
}
