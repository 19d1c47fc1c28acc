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
/// Ingestion calls ``record(batch:on:)`` once per batch: three statements per arm in the batch (read the installs'
/// steps, upsert the changed ones, upsert the counters).
/// ``record(appID:installID:type:feature:experiment:variant:receivedAt:on:)`` does the same for one event (one
/// primary-key lookup; when something changed, two upserts). All in the caller's transaction, so the raw events and
/// the aggregates commit or roll back together.
package struct ExperimentAggregator: Sendable {
    /// Creates an aggregator; it holds no state (everything is in the database).
    package init() {}

    /// Accounts for one newly stored event. Returns true when an aggregate changed.
    ///
    /// - Parameters:
    ///   - type: the public-API event name (``AnalyticsEvent`` raw values); unknown names mark exposure only.
    ///   - experiment, variant: the assignment the client reported; the event is ignored unless both are present.
    ///   - receivedAt: server time, unix milliseconds.
    @discardableResult
    package func record(
        appID: String, installID: String, type: String, feature: String, experiment: String?, variant: String?,
        receivedAt: Int64, on connection: Connection
    ) throws -> Bool {
        guard let experiment, !experiment.isEmpty, let variant, !variant.isEmpty else { return false }
        let app = SQLValue.text(appID)
        let key = SQLValue.text(experiment)
        let feature = SQLValue.text(feature)
        let arm = SQLValue.text(variant)
        let install = SQLValue.text(installID)
        let found = try connection.statement(Self.selectSteps).query([app, key, feature, arm, install]).first
        let old = FunnelSteps(rawValue: try found?.get(0, as: Int.self) ?? 0)
        let new = old.union(FunnelSteps.marked(byEvent: type))
        guard new != old else { return false }
        let received = SQLValue.integer(receivedAt)
        try connection.statement(Self.upsertSteps).execute([
            app, key, feature, arm, install, .integer(Int64(new.rawValue)), received,
        ])
        var delta = FunnelCounts()
        delta.add(from: old, to: new)
        try connection.statement(Self.upsertCounts).execute([
            app, key, feature, arm,
            .integer(Int64(delta.exposed)), .integer(Int64(delta.primeShown)), .integer(Int64(delta.primeContinued)),
            .integer(Int64(delta.primeDismissed)), .integer(Int64(delta.systemGranted)),
            .integer(Int64(delta.systemDenied)), .integer(Int64(delta.settingsOpened)),
            .integer(Int64(delta.returnedGranted)), .integer(Int64(delta.granted)), received, received,
        ])
        return true
    }

    private static let selectSteps = """
        SELECT steps FROM experiment_install_steps
        WHERE app_id = ? AND experiment_key = ? AND feature = ? AND variant = ? AND install_id = ?
        """

    private static let upsertSteps = """
        INSERT INTO experiment_install_steps
            (app_id, experiment_key, feature, variant, install_id, steps, first_seen_at)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (app_id, experiment_key, feature, variant, install_id) DO UPDATE SET steps = excluded.steps
        """

    static let upsertCounts = """
        INSERT INTO experiment_funnel_counts (app_id, experiment_key, feature, variant,
            exposed, prime_shown, prime_continued, prime_dismissed, system_granted, system_denied,
            settings_opened, returned_granted, granted, first_event_at, last_event_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (app_id, experiment_key, feature, variant) DO UPDATE SET
            exposed = exposed + excluded.exposed,
            prime_shown = prime_shown + excluded.prime_shown,
            prime_continued = prime_continued + excluded.prime_continued,
            prime_dismissed = prime_dismissed + excluded.prime_dismissed,
            system_granted = system_granted + excluded.system_granted,
            system_denied = system_denied + excluded.system_denied,
            settings_opened = settings_opened + excluded.settings_opened,
            returned_granted = returned_granted + excluded.returned_granted,
            granted = granted + excluded.granted,
            last_event_at = excluded.last_event_at
        """
}
