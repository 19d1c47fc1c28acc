import PreludeCore

/// One guarded rollout as stored in `rollouts` (migration 0009): the change, the plan and the state.
package struct Rollout: Sendable {
    /// The rollout's id, unique across apps.
    package var id: Int64
    /// The app.
    package var appID: String
    /// The environment whose policy it ramps (`production` until environments exist).
    package var environment: String
    /// The key of the experiment that serves it in the policy (variants ``controlVariant`` and ``rolloutVariant``).
    package var experimentKey: String
    /// The feature it changes.
    package var feature: Feature
    /// What the new arm changes: a variant's `set` (feature settings), and what completion writes into the feature.
    package var change: JSONValue
    /// Steps and analysis settings, fixed at creation.
    package var plan: RolloutPlan
    /// The audience (a condition's JSON, ``RolloutAudience``) an install must match to enter the rollout; nil for
    /// every install (and for every rollout stored before migration 0019).
    package var audience: JSONValue?
    /// Where it is.
    package var state: RolloutState
    /// The revision live when it started: the one a rollback returns to (when nothing else changed since).
    package var baseRevision: Int?
    /// The guard's last reading (``RolloutReading/jsonValue``), if it was evaluated.
    package var lastReading: JSONValue?
    /// When the guard last evaluated it (Unix ms).
    package var lastEvaluatedAt: Int64?
    /// The token that created it.
    package var createdBy: String
    /// Creation and last change (Unix ms).
    package var createdAt: Int64
    package var updatedAt: Int64

    /// The old behaviour's variant name in the rollout's experiment.
    package static let controlVariant = "control"
    /// The new behaviour's variant name.
    package static let rolloutVariant = "rollout"

    /// Creates a rollout value.
    package init(
        id: Int64, appID: String, environment: String, experimentKey: String, feature: Feature, change: JSONValue,
        plan: RolloutPlan, state: RolloutState, baseRevision: Int?, lastReading: JSONValue?, lastEvaluatedAt: Int64?,
        createdBy: String, createdAt: Int64, updatedAt: Int64, audience: JSONValue? = nil
    ) {
        self.id = id
        self.appID = appID
        self.environment = environment
        self.experimentKey = experimentKey
        self.feature = feature
        self.change = change
        self.plan = plan
        self.audience = audience
        self.state = state
        self.baseRevision = baseRevision
        self.lastReading = lastReading
        self.lastEvaluatedAt = lastEvaluatedAt
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The change as served and as completion merges it: without the copy of carved-out segments
    /// (``RolloutCarveOut/variantSet(_:excluding:)``).
    package var servedChange: JSONValue { RolloutCarveOut.variantSet(change, excluding: state.excludedSegments) }

    /// The experiment that serves guarded step `step`: weights and coverage from ``RolloutPlan/assignment(step:)``,
    /// the audience its `condition` (only matching installs are hashed into the arms), the new arm's `set` the
    /// change. The plan's `alpha` and `minimumEffect` stay in the rollout (the guard reads
    /// them there), so the served document has no member a PreludeClient built before them would refuse.
    package func experiment(step: Int) -> JSONValue {
        let (weights, coverage) = plan.assignment(step: step)
        return .object(
            JSONObject(
                [
                    ("key", .string(experimentKey)), ("feature", .string(feature.rawValue)),
                    ("coverage", .number(coverage)),
                ] + (audience.map { [("condition", $0)] } ?? []) + [
                    (
                        "variants",
                        .array([
                            .object(
                                JSONObject([("name", .string(Self.controlVariant)), ("weight", .number(weights[0]))])),
                            .object(
                                JSONObject([
                                    ("name", .string(Self.rolloutVariant)), ("weight", .number(weights[1])),
                                    ("set", servedChange),
                                ])),
                        ])
                    )
                ]))
    }
}
