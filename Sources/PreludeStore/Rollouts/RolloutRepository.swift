import PreludeCore
import PreludeStorage

/// Every SQL statement about rollouts (`rollouts`, migration 0009) and the two arms' counters the guard reads.
package struct RolloutRepository: Sendable {
    /// Why a rollout cannot be created.
    package enum Refusal: Error, Sendable, Hashable {
        /// Another rollout of the app and environment is live.
        case liveRolloutExists(id: Int64)
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
        plan: RolloutPlan, createdBy: String, at now: Int64
    ) throws -> Rollout {
        try database.write { db in
            if let live = try db.queryOne(
                "SELECT id FROM rollouts WHERE app_id = ? AND environment = ? AND status IN \(Self.liveStatuses)",
                [.text(appID), .text(environment)])
            {
                throw Refusal.liveRolloutExists(id: try live.get(0, as: Int64.self))
            }
            let counted = try db.scalar(
                "SELECT count(*) FROM experiment_funnel_counts WHERE app_id = ? AND experiment_key = ?",
                [.text(appID), .text(experimentKey)], as: Int64.self)
            guard counted == 0 else { throw Refusal.keyHasData(experimentKey) }
            try db.execute(
                """
                INSERT INTO rollouts (app_id, environment, experiment_key, feature, change, plan, status,
                    created_by, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, 'draft', ?, ?, ?)
                """,
                [
                    .text(appID), .text(environment), .text(experimentKey), .text(feature.rawValue),
                    .text(change.serialized()), .text(plan.jsonValue.serialized()), .text(createdBy), .integer(now),
                    .integer(now),
                ])
            return Rollout(
                id: db.lastInsertRowID, appID: appID, environment: environment, experimentKey: experimentKey,
                feature: feature, change: change, plan: plan, state: RolloutState(), baseRevision: nil,
                lastReading: nil, lastEvaluatedAt: nil, createdBy: createdBy, createdAt: now, updatedAt: now)
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

    /// Stores the state, the last reading and the base revision of `rollout`.
    package func save(_ rollout: Rollout, at now: Int64) throws {
        let tripped = JSONValue.array(rollout.state.trippedBy.map { .string($0.rawValue) })
        try database.write { db in
            try db.execute(
                """
                UPDATE rollouts SET status = ?, step = ?, step_started_at = ?, step_start_exposed = ?,
                    tripped_by = ?, base_revision = ?, last_reading = ?, last_evaluated_at = ?, updated_at = ?
                WHERE id = ?
                """,
                [
                    .text(rollout.state.status.rawValue), .integer(Int64(rollout.state.step)),
                    rollout.state.stepStartedAt.map(SQLValue.integer) ?? .null,
                    .integer(Int64(rollout.state.stepStartExposed)), .text(tripped.serialized()),
                    rollout.baseRevision.map { SQLValue.integer(Int64($0)) } ?? .null,
                    rollout.lastReading.map { SQLValue.text($0.serialized()) } ?? .null,
                    rollout.lastEvaluatedAt.map(SQLValue.integer) ?? .null, .integer(now), .integer(rollout.id),
                ])
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

    private static let liveStatuses = "('draft', 'running', 'paused', 'awaitingApproval')"

    private static let columns = """
        id, app_id, environment, experiment_key, feature, change, plan, status, step, step_started_at,
        step_start_exposed, tripped_by, base_revision, last_reading, last_evaluated_at, created_by, created_at,
        updated_at
        """

    private static func decode(_ row: Row) throws -> Rollout {
        let id = try row.get(0, as: Int64.self)
        // A stored plan and feature passed the same rules when the rollout was created.
        guard let plan = RolloutPlan.decode(try JSONValue(parsing: try row.get(6, as: String.self))).plan,
            let feature = Feature(rawValue: try row.get(4, as: String.self))
        else { throw Refusal.unreadable(id: id) }
        let tripped = try JSONValue(parsing: try row.get(11, as: String.self)).arrayValue ?? []
        let state = RolloutState(
            status: RolloutState.Status(rawValue: try row.get(7, as: String.self)) ?? .paused,
            step: try row.get(8, as: Int.self), stepStartedAt: try row.get(9, as: Int64?.self),
            stepStartExposed: try row.get(10, as: Int.self),
            trippedBy: tripped.compactMap { $0.stringValue.flatMap(RolloutReading.Finding.init(rawValue:)) })
        return Rollout(
            id: id, appID: try row.get(1, as: String.self),
            environment: try row.get(2, as: String.self), experimentKey: try row.get(3, as: String.self),
            feature: feature,
            change: try JSONValue(parsing: try row.get(5, as: String.self)),
            plan: plan,
            state: state, baseRevision: try row.get(12, as: Int?.self),
            lastReading: try row.get(13, as: String?.self).flatMap { try? JSONValue(parsing: $0) },
            lastEvaluatedAt: try row.get(14, as: Int64?.self), createdBy: try row.get(15, as: String.self),
            createdAt: try row.get(16, as: Int64.self), updatedAt: try row.get(17, as: Int64.self))
    }
}
