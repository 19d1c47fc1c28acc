/// What a change request proposes (docs/change-management.md, "What a change request can carry"). Every kind goes
/// through the same ``ChangeRequestMachine``; only what applying it does differs.
package enum ChangeRequestKind: String, Sendable, CaseIterable {
    /// A new policy document (the original kind): applying it publishes one revision.
    case policy
    /// New environment settings (`requiredApprovals`, `allowSelfApproval`, `lintStrict`): applying it changes them.
    case settings
    /// A guarded rollout's plan: applying it starts the rollout, whose steps then run on their own.
    case rollout

    /// The approval rules a request of this kind follows in an environment with `rules`. A settings request never
    /// counts its author's approval: it changes the gate itself, so someone else must agree.
    package func rules(_ rules: ApprovalRules) -> ApprovalRules {
        switch self {
        case .policy, .rollout: rules
        case .settings: ApprovalRules(requiredApprovals: rules.requiredApprovals, allowSelfApproval: false)
        }
    }

    /// Whether a request of this kind can go stale: only a policy document is based on a revision (a settings
    /// change names the values it sets; a rollout plan is ramped on whatever is live when it starts).
    package var isBasedOnRevision: Bool { self == .policy }
}
