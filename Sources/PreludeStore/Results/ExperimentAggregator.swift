import PreludeCore
import PreludeStorage

/// Keeps the experiment funnels (migration 0002) up to date as events are stored, so results never scan raw events.
///
/// Called inside the event-ingestion write transaction for **newly inserted** events (a duplicate client event
/// id inserts nothing and never gets here). An event counts when it carries both an experiment key and a variant:
/// the install is then *exposed* to that variant — it reached the experiment's feature while assigned to the arm
/// (docs/results.md, "Exposure") — and the event's own funnel step, if any, is added to the install's
/// ``FunnelSteps``. Only steps the install had not reached yet move the arm's counters
/// (``FunnelCounts/add(from:to:)``), so a replayed step or a re-sent event changes nothing.
///
/// Ingestion calls ``record(batch:on:)`` once per batch: five statements per arm in the batch (read the installs'
/// steps, upsert the changed ones, upsert the counters, the day's increments (`experiment_daily_counts`) and the
/// day's event count (`experiment_daily_events`)); an arm whose installs reached nothing new writes only the last.
/// An arm is per environment (migration 0011): staging's events never count in production's arms.
/// ``record(appID:environment:installID:type:feature:experiment:variant:receivedAt:segment:on:)`` does the same for one event
/// (one
/// primary-key lookup; when something changed, two upserts). All in the caller's transaction, so the raw events and
/// the aggregates commit or roll back together.
///
/// Mislabelled events (docs/results.md, "Mislabelled events"): with `livePolicy`, an event whose experiment is in the
/// app's live policy, on that experiment's feature, is checked against the install's deterministic assignment —
/// ``Bucketing/assign(seed:installId:weights:coverage:)`` of the experiment's seed and the install id over the
/// variant weights and coverage of the policy live when the event is stored. An event reporting another variant
/// (or any variant while the install is outside the coverage) is counted in `experiment_mislabelled_events`
/// (migration 0005) and kept out of the arms.
package struct ExperimentAggregator: Sendable {
    /// The live policy of an app's environment at ingestion time, or nil (unknown app, or no check wanted).
    package typealias LivePolicy = @Sendable (_ appID: String, _ environment: String) -> PolicyDocument?

    /// The live policy provider (nil: no label check).
    let livePolicy: LivePolicy?

    /// Creates an aggregator; it holds no state (everything is in the database). Without `livePolicy` every
    /// event's variant label is trusted.
    package init(livePolicy: LivePolicy? = nil) {
        self.livePolicy = livePolicy
    }

    /// What an event's variant label is worth against the install's assignment.
    package enum LabelCheck: Equatable {
        /// The label is the install's assignment, or cannot be checked (the experiment is not in the live policy,
        /// or the event is about another feature): the event counts in its arm.
        case trusted
        /// The install is assigned `expected` (nil: outside the coverage, in no variant); the event is not counted
        /// in any arm.
        case mislabelled(expected: String?)
    }

    /// Checks `variant` for `installID` against `experiment` of `document`.
    package static func check(
        installID: String, feature: String, experiment key: String, variant: String, in document: PolicyDocument?
    ) -> LabelCheck {
        guard let document, let experiment = document.experiments.first(where: { $0.key == key }),
            experiment.feature.rawValue == feature, !experiment.variants.isEmpty
        else { return .trusted }
        let index = Bucketing.assign(
            seed: experiment.hashSeed, installId: installID, weights: experiment.variants.map(\.weight),
            coverage: experiment.coverage)
        let expected = index.map { experiment.variants[$0].name }
        return expected == variant ? .trusted : .mislabelled(expected: expected)
    }

    /// Counts one mislabelled event (`experiment_mislabelled_events`, one row per reported/expected pair).
    static func recordMislabelled(
        appID: String, environment: String, experiment: String, feature: String, reported: String, expected: String?,
        events: Int, receivedAt: Int64, on connection: Connection
    ) throws {
        try connection.statement(upsertMislabelled).execute([
            .text(appID), .text(environment), .text(experiment), .text(feature), .text(reported), .text(expected ?? ""),
            .integer(Int64(events)), .integer(receivedAt),
        ])
    }

    private static let upsertMislabelled = """
        INSERT INTO experiment_mislabelled_events
            (app_id, environment, experiment_key, feature, reported_variant, expected_variant, events, last_event_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (app_id, environment, experiment_key, feature, reported_variant, expected_variant) DO UPDATE SET
            events = experiment_mislabelled_events.events + excluded.events,
            last_event_at = CASE WHEN excluded.last_event_at > experiment_mislabelled_events.last_event_at
                THEN excluded.last_event_at ELSE experiment_mislabelled_events.last_event_at END
        """

    /// Accounts for one newly stored event. Returns true when an aggregate changed.
    ///
    /// - Parameters:
    ///   - type: the public-API event name (``AnalyticsEvent`` raw values); unknown names mark exposure only.
    ///   - experiment, variant: the assignment the client reported; the event is ignored unless both are present.
    ///   - receivedAt: server time, unix milliseconds.
    @discardableResult
    package func record(
        appID: String, environment: String = EnvironmentName.production, installID: String, type: String,
        feature: String, experiment: String?, variant: String?, receivedAt: Int64,
        segment: EventSegment = EventSegment(), on connection: Connection
    ) throws -> Bool {
        guard let experiment, !experiment.isEmpty, let variant, !variant.isEmpty else { return false }
        try Self.serializeCounters(on: connection)
        if let livePolicy,
            case .mislabelled(let expected) = Self.check(
                installID: installID, feature: feature, experiment: experiment, variant: variant,
                in: livePolicy(appID, environment))
        {
            try Self.recordMislabelled(
                appID: appID, environment: environment, experiment: experiment, feature: feature, reported: variant,
                expected: expected,
                events: 1, receivedAt: receivedAt, on: connection)
            return true
        }
        let app = SQLValue.text(appID)
        let env = SQLValue.text(environment)
        let key = SQLValue.text(experiment)
        let feature = SQLValue.text(feature)
        let arm = SQLValue.text(variant)
        let install = SQLValue.text(installID)
        let found = try connection.statement(Self.selectSteps).query([app, env, key, feature, arm, install]).first
        let old = FunnelSteps(rawValue: try found?.get(0, as: Int.self) ?? 0)
        // The install counts in the segment stored with it, or (new to the arm) in this event's.
        let installSegment =
            try found.map {
                EventSegment(osMajor: try $0.get(1, as: Int?.self), locale: try $0.get(2, as: String?.self))
            } ?? segment
        let new = old.union(FunnelSteps.marked(byEvent: type))
        let day = Self.day(ofMilliseconds: receivedAt)
        try Self.countEvents(app, env, key, feature, arm, day: day, events: 1, on: connection)
        guard new != old else { return false }
        let received = SQLValue.integer(receivedAt)
        try connection.statement(Self.upsertSteps).execute([
            app, env, key, feature, arm, install, .integer(Int64(new.rawValue)), received,
            segment.osMajor.map { .integer(Int64($0)) } ?? .null, segment.locale.map(SQLValue.text) ?? .null,
        ])
        var delta = FunnelCounts()
        delta.add(from: old, to: new)
        try connection.statement(Self.upsertCounts).execute(
            [app, env, key, feature, arm] + Self.counterValues(delta) + [received, received])
        try Self.upsertDaily(app, env, key, feature, arm, day: day, delta: delta, on: connection)
        try Self.upsertSegments(app, env, key, feature, arm, deltas: [installSegment: delta], on: connection)
        return true
    }

    /// Waits until no other process's transaction is writing experiment aggregates, and holds that until this
    /// transaction ends (``Connection/serializeWithOtherProcesses(key:)``; nothing on SQLite, where one process
    /// writes). Nodes of a cluster ingest at once: an install's steps are read, unioned with the batch's and written
    /// back, so two nodes taking events of one install at the same moment would both count its step as new; and a
    /// group commit of several batches writes the counter rows of each batch's arms in turn, so two nodes could take
    /// two arms' rows in opposite orders and deadlock. One lock for all the aggregates removes both (docs/storage.md,
    /// "Nodes ingesting at once").
    static func serializeCounters(on connection: Connection) throws {
        try connection.serializeWithOtherProcesses(key: countersLockKey)
    }

    /// The advisory lock key of the experiment aggregates ("counters" in ASCII).
    static let countersLockKey: Int64 = 0x63_6F_75_6E_74_65_72_73

    private static let selectSteps = """
        SELECT steps, os_major, locale FROM experiment_install_steps
        WHERE app_id = ? AND environment = ? AND experiment_key = ? AND feature = ? AND variant = ? AND install_id = ?
        """

    private static let upsertSteps = """
        INSERT INTO experiment_install_steps
            (app_id, environment, experiment_key, feature, variant, install_id, steps, first_seen_at, os_major, locale)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (app_id, environment, experiment_key, feature, variant, install_id)
        DO UPDATE SET steps = excluded.steps
        """

    /// The UTC day (days since 1970-01-01) of a unix-millisecond time: the key of `experiment_daily_counts`.
    package static func day(ofMilliseconds milliseconds: Int64) -> Int64 {
        milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000
    }

    /// Adds one arm's counter increments of one day (`experiment_daily_counts`, migrations 0010, 0011).
    static func upsertDaily(
        _ app: SQLValue, _ environment: SQLValue, _ experiment: SQLValue, _ feature: SQLValue, _ variant: SQLValue,
        day: Int64, delta: FunnelCounts, on connection: Connection
    ) throws {
        try connection.statement(upsertDailySQL).execute(
            [app, environment, experiment, feature, variant, .integer(day)] + counterValues(delta))
    }

    /// Adds `events` newly stored events of one arm on one day (`experiment_daily_events`, migrations 0010, 0011).
    static func countEvents(
        _ app: SQLValue, _ environment: SQLValue, _ experiment: SQLValue, _ feature: SQLValue, _ variant: SQLValue,
        day: Int64, events: Int, on connection: Connection
    ) throws {
        try connection.statement(upsertDailyEventsSQL).execute([
            app, environment, experiment, feature, variant, .integer(day), .integer(Int64(events)),
        ])
    }

    private static let upsertDailyEventsSQL = """
        INSERT INTO experiment_daily_events (app_id, environment, experiment_key, feature, variant, day, events)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (app_id, environment, experiment_key, feature, variant, day)
        DO UPDATE SET events = experiment_daily_events.events + excluded.events
        """

    /// The counter columns of `experiment_funnel_counts`, `experiment_daily_counts` and `experiment_segment_counts`
    /// (migrations 0002, 0010, 0014), in the order of ``FunnelCounter`` (``FunnelCounts/fields``): the one list the
    /// upserts and the readers are built from.
    static let counterColumns = FunnelCounter.allCases.map(\.column)

    /// The counter columns for an INSERT's or a SELECT's column list: `exposed, prime_shown, …`.
    static let counterColumnList = counterColumns.joined(separator: ", ")

    /// What an upsert of `table` adds in `DO UPDATE SET`: `exposed = table.exposed + excluded.exposed, …` for every
    /// counter (the stored row's column named with its table: PostgreSQL finds a bare name ambiguous there).
    static func addingCounters(_ table: String) -> String {
        counterColumns.map { "\($0) = \(table).\($0) + excluded.\($0)" }.joined(separator: ",\n    ")
    }

    /// One `?` per counter column.
    static let counterPlaceholders = Array(repeating: "?", count: counterColumns.count).joined(separator: ", ")

    /// The values bound to ``counterColumnList``'s placeholders: `delta`'s counts in the same order.
    static func counterValues(_ delta: FunnelCounts) -> [SQLValue] {
        delta.fields.map { .integer(Int64($0.value)) }
    }

    private static let upsertDailySQL = """
        INSERT INTO experiment_daily_counts (app_id, environment, experiment_key, feature, variant, day,
            \(counterColumnList))
        VALUES (?, ?, ?, ?, ?, ?, \(counterPlaceholders))
        ON CONFLICT (app_id, environment, experiment_key, feature, variant, day) DO UPDATE SET
            \(addingCounters("experiment_daily_counts"))
        """

    static let upsertCounts = """
        INSERT INTO experiment_funnel_counts (app_id, environment, experiment_key, feature, variant,
            \(counterColumnList), first_event_at, last_event_at)
        VALUES (?, ?, ?, ?, ?, \(counterPlaceholders), ?, ?)
        ON CONFLICT (app_id, environment, experiment_key, feature, variant) DO UPDATE SET
            \(addingCounters("experiment_funnel_counts")),
            last_event_at = excluded.last_event_at
        """
}
