/// Who may change an environment's governance and start a rollout on it (docs/change-management.md, "Who may do
/// what"). Pure: the caller passes the environment's settings now and what the actor holds.
///
/// - Loosening governance (`requiredApprovals` down, `allowSelfApproval` turned on, `lintStrict` turned off) of an
///   environment that requires approvals needs the `bypass` capability or an approved change request of kind
///   `settings`; tightening is always allowed to writers.
/// - Starting a rollout on an environment that requires approvals needs an approved change request carrying its
///   plan, or `bypass`. Its later steps, completion and any rollback need nothing more.
package enum GovernanceGate {
    /// An environment's governance settings.
    package struct Settings: Sendable, Equatable {
        /// Approvals a change needs (0–5).
        package var requiredApprovals: Int
        /// Whether an author's own approval counts.
        package var allowSelfApproval: Bool
        /// Whether a lint error refuses a publish.
        package var lintStrict: Bool

        /// Settings.
        package init(requiredApprovals: Int, allowSelfApproval: Bool, lintStrict: Bool) {
            self.requiredApprovals = requiredApprovals
            self.allowSelfApproval = allowSelfApproval
            self.lintStrict = lintStrict
        }

        /// Whether changes need approval.
        package var requiresApproval: Bool { requiredApprovals > 0 }
    }

    /// What the actor holds beyond the `write` scope.
    package enum Authority: Sendable, Equatable {
        /// A write token without `bypass`.
        case writer
        /// A write token with the `bypass` capability (audited loudly).
        case bypass
        /// An approved change request (its id) that carries this change.
        case changeRequest(Int64)
    }

    /// What the gate decided.
    package enum Verdict: Sendable, Equatable {
        /// Allowed: the environment does not require approval, or nothing is loosened.
        case allowed
        /// Allowed only because of the actor's authority (audit it: `bypass`, or the change request).
        case allowedBy(Authority)
    }

    /// Why the gate refused; nothing may change.
    package enum Refusal: Error, Sendable, Equatable {
        /// The change loosens `members` of an environment requiring `requiredApprovals`.
        case loosens(members: [String], requiredApprovals: Int)
        /// A rollout would start on an environment requiring `requiredApprovals`.
        case rolloutNeedsApproval(requiredApprovals: Int)
    }

    /// The members `proposed` loosens compared with `current`, in the order `requiredApprovals`,
    /// `allowSelfApproval`, `lintStrict`.
    package static func loosened(from current: Settings, to proposed: Settings) -> [String] {
        var members: [String] = []
        if proposed.requiredApprovals < current.requiredApprovals { members.append("requiredApprovals") }
        if proposed.allowSelfApproval, !current.allowSelfApproval { members.append("allowSelfApproval") }
        if !proposed.lintStrict, current.lintStrict { members.append("lintStrict") }
        return members
    }

    /// Whether `authority` may change `current` into `proposed`: loosening an environment that requires approvals
    /// (judged by `current`, before the change) needs `bypass` or an approved change request.
    package static func settingsChange(current: Settings, proposed: Settings, authority: Authority)
        throws(Refusal) -> Verdict
    {
        let loosened = loosened(from: current, to: proposed)
        guard current.requiresApproval, !loosened.isEmpty else { return .allowed }
        switch authority {
        case .writer: throw .loosens(members: loosened, requiredApprovals: current.requiredApprovals)
        case .bypass, .changeRequest: return .allowedBy(authority)
        }
    }

    /// Whether `authority` may start a rollout (publish its first step) on an environment with `settings`.
    package static func rolloutStart(_ settings: Settings, authority: Authority) throws(Refusal) -> Verdict {
        guard settings.requiresApproval else { return .allowed }
        switch authority {
        case .writer: throw .rolloutNeedsApproval(requiredApprovals: settings.requiredApprovals)
        case .bypass, .changeRequest: return .allowedBy(authority)
        }
    }
}
