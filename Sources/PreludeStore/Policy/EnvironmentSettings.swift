import PreludeCore

/// One environment of an app as stored (`environments`, migration 0011): its live revision and the rules a change
/// to it follows. The change-request path reads ``requiredApprovals`` and ``allowSelfApproval``; every publishing
/// path reads ``lintStrict``.
package struct EnvironmentSettings: Sendable, Equatable {
    /// The app.
    package var app: String
    /// The environment's name (``EnvironmentName``).
    package var name: String
    /// Its live revision number, nil before its first revision.
    package var liveRevision: Int?
    /// How many approvals a change needs, 0–5 (0: changes publish directly).
    package var requiredApprovals: Int
    /// Whether the author of a change may approve it.
    package var allowSelfApproval: Bool
    /// Whether a change whose policy has lint errors is refused.
    package var lintStrict: Bool
    /// When the environment was created (ms).
    package var createdAt: Int64
    /// When its live revision or settings last changed (ms).
    package var updatedAt: Int64
    /// How many revisions its chain has.
    package var revisionCount: Int

    /// The most approvals an environment may require.
    package static let maximumApprovals = 5

    /// Settings with every member given.
    package init(
        app: String, name: String, liveRevision: Int?, requiredApprovals: Int, allowSelfApproval: Bool,
        lintStrict: Bool, createdAt: Int64, updatedAt: Int64, revisionCount: Int
    ) {
        self.app = app
        self.name = name
        self.liveRevision = liveRevision
        self.requiredApprovals = requiredApprovals
        self.allowSelfApproval = allowSelfApproval
        self.lintStrict = lintStrict
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.revisionCount = revisionCount
    }

    /// A change of settings: nil members stay as they are.
    package struct Change: Sendable, Equatable {
        /// New required approvals (0–5).
        package var requiredApprovals: Int?
        /// New self-approval rule.
        package var allowSelfApproval: Bool?
        /// New strict-lint rule.
        package var lintStrict: Bool?

        /// A change of the given members.
        package init(requiredApprovals: Int? = nil, allowSelfApproval: Bool? = nil, lintStrict: Bool? = nil) {
            self.requiredApprovals = requiredApprovals
            self.allowSelfApproval = allowSelfApproval
            self.lintStrict = lintStrict
        }

        /// Whether the change sets nothing.
        package var isEmpty: Bool { requiredApprovals == nil && allowSelfApproval == nil && lintStrict == nil }
    }

    /// The governance settings (``GovernanceGate``).
    package var governance: GovernanceGate.Settings {
        GovernanceGate.Settings(
            requiredApprovals: requiredApprovals, allowSelfApproval: allowSelfApproval, lintStrict: lintStrict)
    }
}

extension EnvironmentSettings.Change {
    /// `settings` with this change applied.
    package func applied(to settings: GovernanceGate.Settings) -> GovernanceGate.Settings {
        GovernanceGate.Settings(
            requiredApprovals: requiredApprovals ?? settings.requiredApprovals,
            allowSelfApproval: allowSelfApproval ?? settings.allowSelfApproval,
            lintStrict: lintStrict ?? settings.lintStrict)
    }

    /// `{"requiredApprovals": {"from": 1, "to": 0}, ...}` for the members this change sets.
    package func auditDetail(before: EnvironmentSettings) -> JSONObject {
        var detail = JSONObject()
        if let value = requiredApprovals {
            detail["requiredApprovals"] = ["from": .integer(before.requiredApprovals), "to": .integer(value)]
        }
        if let value = allowSelfApproval {
            detail["allowSelfApproval"] = ["from": .bool(before.allowSelfApproval), "to": .bool(value)]
        }
        if let value = lintStrict {
            detail["lintStrict"] = ["from": .bool(before.lintStrict), "to": .bool(value)]
        }
        return detail
    }

    /// The change as stored in a `settings` change request: `{"requiredApprovals": 0, ...}`, the members it sets.
    package var jsonValue: JSONValue {
        var object = JSONObject()
        if let requiredApprovals { object["requiredApprovals"] = .integer(requiredApprovals) }
        if let allowSelfApproval { object["allowSelfApproval"] = .bool(allowSelfApproval) }
        if let lintStrict { object["lintStrict"] = .bool(lintStrict) }
        return .object(object)
    }
}
