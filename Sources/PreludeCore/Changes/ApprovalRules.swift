/// How many approvals a change to an environment needs and whether its author may give one: an environment's
/// settings `requiredApprovals` (0–5) and `allowSelfApproval` (docs/change-management.md).
package struct ApprovalRules: Sendable, Equatable {
    /// The most approvals an environment may require.
    package static let maximumRequired = 5

    /// Approvals needed before a request may be applied (0: none, a submitted request is approved at once).
    package var requiredApprovals: Int
    /// Whether the author's own approval counts.
    package var allowSelfApproval: Bool

    /// Rules; `requiredApprovals` must be in 0...``maximumRequired``.
    package init(requiredApprovals: Int, allowSelfApproval: Bool) {
        precondition((0...Self.maximumRequired).contains(requiredApprovals), "requiredApprovals out of range")
        self.requiredApprovals = requiredApprovals
        self.allowSelfApproval = allowSelfApproval
    }

    /// No approval needed: every change may be published directly.
    package static let none = ApprovalRules(requiredApprovals: 0, allowSelfApproval: true)

    /// The approvals of `approvers` that count for a request by `author`: distinct names, without the author's own
    /// unless self-approval is allowed.
    package func counted(_ approvers: [String], author: String) -> [String] {
        var seen: Set<String> = []
        return approvers.filter { name in
            guard allowSelfApproval || name != author else { return false }
            return seen.insert(name).inserted
        }
    }

    /// Whether `approvers` are enough for a request by `author`.
    package func isSatisfied(by approvers: [String], author: String) -> Bool {
        counted(approvers, author: author).count >= requiredApprovals
    }

    /// Whether a change must go through a change request: at least one approval is required.
    package var requiresChangeRequest: Bool { requiredApprovals > 0 }
}
