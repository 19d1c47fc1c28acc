import PreludeCore
import PreludeStorage

/// Every SQL statement about rollouts (`rollouts`, migrations 0009, 0018 and 0019) and the counters the guard
/// reads: the two arms, their segments, and the experiment's mislabelled and counted events.
package struct RolloutRepository: Sendable {
    /// Why a rollout cannot be created.
    package enum Refusal: Error, Sendable, Hashable {
        /// Another rollout (`id`) of the app and environment is live.
        case liveRolloutExists(id: Int64, app: String)
        /// The experiment key already has counted installs: its results would mix with the rollout's.
        case keyHasData(String)
        /// A stored row this build cannot read (an unknown feature or an unreadable plan).
        case unreadable(id: Int64)
    }

    private let database: Database

    /// A repository over an open, migrated database.
    package init(database: Database) { self.database = database }

    /// Stores a new draft rollout; refused when one is live for the app and environment, or when the key has data.
    package func create(
        appID: String, environment: String, experimentKey: String, feature: Feature, change: JSONValue,
        plan: RolloutPlan, audience: JSONValue? = nil, createdBy: String, at now: Int64
    ) throws -> Rollout {
        try database.write { db in
            if let live = try db.queryOne(
                "SELECT id FROM rollouts WHERE app_id = ? AND environment = ? AND status IN \(Self.liveStatuses)",
                [.text(appID), .text(environment)])
            {
                throw Refusal.liveRolloutExists(id: try live.get(0, as: Int64.self), app: appID)
            }
            let counted = try db.scalar(
                "SELECT count(*) FROM experiment_funnel_counts WHERE app_id = ? AND experiment_key = ?",
                [.text(appID), .text(experimentKey)], as: Int64.self)
            guard counted == 0 else { throw Refusal.keyHasData(experimentKey) }
            let id = try db.insertReturningID(
                """
                INSERT INTO rollouts (app_id, environment, experiment_key, feature, change, plan, status,
                    created_by, created_at, updated_at, audience)
                VALUES (?, ?, ?, ?, ?, ?, 'draft', ?, ?, ?, ?)
                RETURNING id
                """,
                [
                    .text(appID), .text(environment), .text(experimentKey), .text(feature.rawValue),
                    .text(change.serialized()), .text(plan.jsonValue.serialized()), .text(createdBy), .integer(now),
                    .integer(now), audience.map { SQLValue.text($0.serialized()) } ?? .null,
                ])
            return Rollout(
                id: id, appID: appID, environment: environment, experimentKey: experimentKey,
                feature: feature, change: change, plan: plan, state: RolloutState(), baseRevision: nil,
                lastReading: nil, lastEvaluatedAt: nil, createdBy: createdBy, createdAt: now, updatedAt: now,
                audience: audience)
        }
    }

    /// One rollout of an app and environment, or nil.
    package func rollout(id: Int64, appID: String, environment: String) throws -> Rollout? {
        try database.read { db in
            try db.query(
                "SELECT \(Self.columns) FROM rollouts WHERE id = ? AND app_id = ? AND environment = ?",
                [.integer(id), .text(appID), .text(environment)]
            ).first.map(Self.decode)
        }
    }

    /// The rollouts of an app and environment, newest first.
    package func rollouts(appID: String, environment: String) throws -> [Rollout] {
        try database.read { db in
            try db.query(
                "SELECT \(Self.columns) FROM rollouts WHERE app_id = ? AND environment = ? ORDER BY id DESC",
                [.text(appID), .text(environment)]
            ).map(Self.decode)
        }
    }

    /// Every live rollout (draft excluded: nothing to evaluate), oldest first: what the scheduler evaluates.
    package func active() throws -> [Rollout] {
        try database.read { db in
            try db.query(
                """
                SELECT \(Self.columns) FROM rollouts
                WHERE status IN ('running', 'paused', 'awaitingApproval') ORDER BY id
                """
            ).map(Self.decode)
        }
    }

    /// What the guard tells besides a publication (a hold, a warning): one audit record and a webhook delivery per
    /// subscriber of each event type, written in the transaction that stores the state.
    package struct Notice: Sendable {
        /// The audit record's actor and action (`rollout.held`, `rollout.warned`).
        package var actor: String
        package var action: String
        /// The audit record's detail, also each delivery's `data`.
        package var detail: JSONValue
        /// The webhook event types told.
        package var events: [WebhookEventType]

        /// Creates a notice.
        package init(actor: String, action: String, detail: JSONValue, events: [WebhookEventType]) {
            self.actor = actor
            self.action = action
            self.detail = detail
            self.events = events
        }
    }

    /// Stores the state, the last reading and the base revision of `rollout`, with `notices` in the same
    /// transaction.
    package func save(_ rollout: Rollout, at now: Int64, notices: [Notice] = []) throws {
        func list(_ findings: [RolloutReading.Finding]) -> SQLValue {
            .text(JSONValue.array(findings.map { .string($0.rawValue) }).serialized())
        }
        let excluded = JSONValue.array(rollout.state.excludedSegments.map { .string($0.description) })
        try database.write { db in
            try db.execute(
                """
                UPDATE rollouts SET status = ?, step = ?, step_started_at = ?, step_start_exposed = ?,
                    tripped_by = ?, base_revision = ?, last_reading = ?, last_evaluated_at = ?, updated_at = ?,
                    held_by = ?, handled = ?, excluded_segments = ?
                WHERE id = ?
                """,
                [
                    .text(rollout.state.status.rawValue), .integer(Int64(rollout.state.step)),
                    rollout.state.stepStartedAt.map(SQLValue.integer) ?? .null,
                    .integer(Int64(rollout.state.stepStartExposed)), list(rollout.state.trippedBy),
                    rollout.baseRevision.map { SQLValue.integer(Int64($0)) } ?? .null,
                    rollout.lastReading.map { SQLValue.text($0.serialized()) } ?? .null,
                    rollout.lastEvaluatedAt.map(SQLValue.integer) ?? .null, .integer(now),
                    list(rollout.state.heldBy), list(rollout.state.handled), .text(excluded.serialized()),
                    .integer(rollout.id),
                ])
            for notice in notices {
                try AuditLog.append(
                    db, actor: notice.actor, app: rollout.appID, environment: rollout.environment,
                    action: notice.action, revision: nil, detail: notice.detail, at: now)
                for type in notice.events {
                    try WebhookOutbox.enqueue(
                        db, app: rollout.appID, environment: rollout.environment, type: type, data: notice.detail,
                        at: now)
                }
            }
        }
    }

    /// Everything one guard evaluation of `rollout` reads (``RolloutObservation``): the arms, their segments when
    /// the plan guards segments (a primary-key range read, O(values × arms)), the mislabelled events and the
    /// counted events of the experiment.
    package func observation(of rollout: Rollout) throws -> RolloutObservation {
        let (control, treated) = try arms(of: rollout)
        return try database.read { db in
            var segments: [RolloutSegmentCounts] = []
            if !rollout.plan.segmentGuard.isEmpty {
                var byValue: [RolloutSegment: (FunnelCounts, FunnelCounts)] = [:]
                for row in try ExperimentSegmentCounts.load(
                    appID: rollout.appID, environment: rollout.environment, experiment: rollout.experimentKey,
                    feature: rollout.feature.rawValue, on: db)
                where rollout.plan.segmentGuard.contains(row.dimension) {
                    let segment = RolloutSegment(row.dimension, row.value)
                    var pair = byValue[segment] ?? (FunnelCounts(), FunnelCounts())
                    if row.variant == Rollout.controlVariant { pair.0 = pair.0 + row.counts }
                    if row.variant == Rollout.rolloutVariant { pair.1 = pair.1 + row.counts }
                    byValue[segment] = pair
                }
                segments = byValue.sorted { $0.key < $1.key }.map {
                    RolloutSegmentCounts(segment: $0.key, control: $0.value.0, rollout: $0.value.1)
                }
            }
            let mislabelled = try MislabelledEvents.load(
                appID: rollout.appID, environment: rollout.environment, experiment: rollout.experimentKey, on: db)
            let events = try db.scalar(
                """
                SELECT coalesce(sum(events), 0) FROM experiment_daily_events
                WHERE app_id = ? AND environment = ? AND experiment_key = ? AND feature = ?
                """,
                [
                    .text(rollout.appID), .text(rollout.environment), .text(rollout.experimentKey),
                    .text(rollout.feature.rawValue),
                ], as: Int64.self)
            return RolloutObservation(
                control: control, rollout: treated, segments: segments, mislabelledEvents: mislabelled.total,
                events: Int(events ?? 0))
        }
    }

    /// The control and new arms' counters of `rollout`'s experiment (zero while nothing was counted): two rows read
    /// by primary key, whatever the event volume.
    package func arms(of rollout: Rollout) throws -> (control: FunnelCounts, rollout: FunnelCounts) {
        let arms = try database.read { db in
            try ExperimentArm.load(
                appID: rollout.appID, environment: rollout.environment, experiment: rollout.experimentKey, on: db)
        }
        func counts(_ variant: String) -> FunnelCounts {
            arms.first { $0.feature == rollout.feature.rawValue && $0.variant == variant }?.counts ?? FunnelCounts()
        }
        return (counts(Rollout.controlVariant), counts(Rollout.rolloutVariant))
    }

    /// The feature's recent traffic and rates in the environment, from its experiments' daily aggregates (every
    /// experiment and arm on the feature, the last `days` days with data up to `today`): exposed, granted and
    /// denied installs and how many days they span; nil when nothing was counted.
    package func baseline(appID: String, environment: String, feature: Feature, today: Int, days: Int = 14) throws
        -> (exposed: Int, granted: Int, denied: Int, days: Int)?
    {
        try database.read { db in
            guard
                let row = try db.queryOne(
                    """
                    SELECT coalesce(sum(exposed), 0), coalesce(sum(granted), 0), coalesce(sum(system_denied), 0),
                        count(DISTINCT day), min(day)
                    FROM experiment_daily_counts
                    WHERE app_id = ? AND environment = ? AND feature = ? AND day > ? AND day <= ?
                    """,
                    [
                        .text(appID), .text(environment), .text(feature.rawValue), .integer(Int64(today - days)),
                        .integer(Int64(today)),
                    ])
            else { return nil }
            let exposed = try row.get(0, as: Int.self)
            guard exposed > 0, let first = try row.get(4, as: Int?.self) else { return nil }
            // The span from the first day with data through today (today counts whole: a lower traffic estimate).
            return (exposed, try row.get(1, as: Int.self), try row.get(2, as: Int.self), today - first + 1)
        }
    }

    private static let liveStatuses = "('draft', 'running', 'paused', 'awaitingApproval')"

    private static let columns = """
        id, app_id, environment, experiment_key, feature, change, plan, status, step, step_started_at,
        step_start_exposed, tripped_by, base_revision, last_reading, last_evaluated_at, created_by, created_at,
        updated_at, held_by, handled, excluded_segments, audience
        """

    private static func decode(_ row: Row) throws -> Rollout {
        let id = try row.get(0, as: Int64.self)
        // A stored plan and feature passed the same rules when the rollout was created.
        let storedPlan = try JSONValue(parsing: try row.get(6, as: String.self))
        guard var plan = RolloutPlan.decode(storedPlan).plan,
            let feature = Feature(rawValue: try row.get(4, as: String.self))
        else { throw Refusal.unreadable(id: id) }
        if storedPlan["actions"] == nil {
            // Stored before actions per finding (0.3.0): its guard rolled back on a sample-ratio mismatch and knew
            // nothing of traffic or mislabelling; it keeps doing so, and the new findings only warn.
            plan.actions = RolloutActions(sampleRatioMismatch: .rollback, noTraffic: .warn, mislabelledEvents: .warn)
        }
        func findings(_ column: Int) throws -> [RolloutReading.Finding] {
            (try JSONValue(parsing: try row.get(column, as: String.self)).arrayValue ?? [])
                .compactMap { $0.stringValue.flatMap(RolloutReading.Finding.init(rawValue:)) }
        }
        let excluded = (try JSONValue(parsing: try row.get(20, as: String.self)).arrayValue ?? [])
            .compactMap { $0.stringValue.flatMap(RolloutSegment.init) }
        let state = RolloutState(
            status: RolloutState.Status(rawValue: try row.get(7, as: String.self)) ?? .paused,
            step: try row.get(8, as: Int.self), stepStartedAt: try row.get(9, as: Int64?.self),
            stepStartExposed: try row.get(10, as: Int.self), trippedBy: try findings(11), heldBy: try findings(18),
            handled: try findings(19), excludedSegments: excluded)
        return Rollout(
            id: id, appID: try row.get(1, as: String.self),
            environment: try row.get(2, as: String.self), experimentKey: try row.get(3, as: String.self),
            feature: feature,
            change: try JSONValue(parsing: try row.get(5, as: String.self)),
            plan: plan,
            state: state, baseRevision: try row.get(12, as: Int?.self),
            lastReading: try row.get(13, as: String?.self).flatMap { try? JSONValue(parsing: $0) },
            lastEvaluatedAt: try row.get(14, as: Int64?.self), createdBy: try row.get(15, as: String.self),
            createdAt: try row.get(16, as: Int64.self), updatedAt: try row.get(17, as: Int64.self),
            audience: try row.get(21, as: String?.self).map { try JSONValue(parsing: $0) })
    }
}
