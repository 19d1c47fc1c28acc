/// The change-request state machine (docs/change-management.md): every transition is a pure function of the
/// request's status, the environment's ``ApprovalRules`` and the inputs (who, the live revision, now), returning the
/// next status or a ``ChangeRequestRefusal``. The store persists what it returns; nothing here reads a clock.
///
/// ```
/// draft ──submit──▶ review ──approve (enough)──▶ approved ──apply──▶ applied
///   │  ◀──────edit── (approvals cleared) ◀──edit──┘   │
///   └──cancel──▶ cancelled ◀── review/approved/stale ──┘
/// review/approved ──reject──▶ rejected      apply with the base no longer live ──▶ stale ──rebase──▶ review
/// ```
package enum ChangeRequestMachine {
    /// What ``apply(_:rules:liveRevision:bypass:)`` decided.
    package enum ApplyVerdict: Sendable, Equatable {
        /// Publish the proposed document; afterwards the request is `applied`.
        case publish
        /// The base revision is not live: store the returned status (state `stale`) and refuse the apply.
        case stale(ChangeRequestStatus)
    }

    /// A new request: `draft`, or submitted at once (``submit(_:rules:)``).
    package static func create(
        author: String, baseRevision: Int?, submit: Bool, rules: ApprovalRules
    ) -> ChangeRequestStatus {
        let draft = ChangeRequestStatus(state: .draft, author: author, baseRevision: baseRevision)
        return submit ? settle(draft, state: .review, rules: rules) : draft
    }

    /// `draft → review` (or straight to `approved` when the environment requires no approval).
    package static func submit(_ status: ChangeRequestStatus, rules: ApprovalRules) throws(ChangeRequestRefusal)
        -> ChangeRequestStatus
    {
        guard status.state == .draft else { throw .wrongState(action: "submit", state: status.state) }
        return settle(status, state: .review, rules: rules)
    }

    /// A new proposed document: allowed in `draft`, `review` and `approved`. Every approval and the schedule are
    /// cleared; a request that was in review or approved goes back to review (approved at once without required
    /// approvals), a draft stays a draft.
    package static func edit(_ status: ChangeRequestStatus, rules: ApprovalRules) throws(ChangeRequestRefusal)
        -> ChangeRequestStatus
    {
        switch status.state {
        case .draft:
            var next = status
            next.approvers = []
            next.scheduledAt = nil
            return next
        case .review, .approved:
            var next = status
            next.approvers = []
            next.scheduledAt = nil
            return settle(next, state: .review, rules: rules)
        case .applied, .rejected, .cancelled, .stale:
            throw .wrongState(action: "edit", state: status.state)
        }
    }

    /// One approval by `approver`, in `review` or `approved`; the request becomes `approved` once the approvals that
    /// count reach the environment's requirement.
    package static func approve(_ status: ChangeRequestStatus, by approver: String, rules: ApprovalRules)
        throws(ChangeRequestRefusal) -> ChangeRequestStatus
    {
        guard status.state == .review || status.state == .approved else {
            throw .wrongState(action: "approve", state: status.state)
        }
        if approver == status.author, !rules.allowSelfApproval { throw .selfApproval }
        guard !status.approvers.contains(approver) else { throw .alreadyApproved(approver) }
        var next = status
        next.approvers.append(approver)
        return settle(next, state: .review, rules: rules)
    }

    /// `review`/`approved` → `rejected`.
    package static func reject(_ status: ChangeRequestStatus) throws(ChangeRequestRefusal) -> ChangeRequestStatus {
        guard status.state == .review || status.state == .approved else {
            throw .wrongState(action: "reject", state: status.state)
        }
        var next = status
        next.state = .rejected
        next.scheduledAt = nil
        return next
    }

    /// Any state that is not final → `cancelled`.
    package static func cancel(_ status: ChangeRequestStatus) throws(ChangeRequestRefusal) -> ChangeRequestStatus {
        guard !status.state.isFinal else { throw .wrongState(action: "cancel", state: status.state) }
        var next = status
        next.state = .cancelled
        next.scheduledAt = nil
        return next
    }

    /// Sets (or with nil clears) the instant an approved request is applied at. Scheduling needs the approvals the
    /// environment requires now, and an instant after `now`.
    package static func schedule(
        _ status: ChangeRequestStatus, at instant: Int64?, now: Int64, rules: ApprovalRules
    ) throws(ChangeRequestRefusal) -> ChangeRequestStatus {
        guard status.state == .approved else { throw .wrongState(action: "schedule", state: status.state) }
        try requireApprovals(status, rules: rules)
        if let instant, instant <= now { throw .scheduleInPast(at: instant, now: now) }
        var next = status
        next.scheduledAt = instant
        return next
    }

    /// Whether the request may be published now over `liveRevision`. Without `bypass` it must be `approved` with
    /// the approvals the environment requires now; with `bypass` (a token allowed to skip approval, audited loudly)
    /// a draft or a request in review may be applied too. A base revision that is no longer live makes it `stale`
    /// (never merged silently): the caller stores that and refuses.
    package static func apply(
        _ status: ChangeRequestStatus, rules: ApprovalRules, liveRevision: Int?, bypass: Bool
    ) throws(ChangeRequestRefusal) -> ApplyVerdict {
        switch status.state {
        case .approved: if !bypass { try requireApprovals(status, rules: rules) }
        case .draft, .review:
            if !bypass {
                guard status.state == .review else { throw .wrongState(action: "apply", state: status.state) }
                try requireApprovals(status, rules: rules)
            }
        case .applied, .rejected, .cancelled, .stale: throw .wrongState(action: "apply", state: status.state)
        }
        guard status.baseRevision == liveRevision else {
            var stale = status
            stale.state = .stale
            stale.scheduledAt = nil
            return .stale(stale)
        }
        return .publish
    }

    /// The status after a successful publish.
    package static func applied(_ status: ChangeRequestStatus) -> ChangeRequestStatus {
        var next = status
        next.state = .applied
        next.scheduledAt = nil
        return next
    }

    /// Bases the request on `liveRevision` (its proposal was rebuilt by the caller): from `stale`, or from any
    /// open state whose base is no longer live. Approvals and the schedule are cleared; it goes to review again.
    package static func rebase(_ status: ChangeRequestStatus, liveRevision: Int?, rules: ApprovalRules)
        throws(ChangeRequestRefusal) -> ChangeRequestStatus
    {
        guard !status.state.isFinal else { throw .wrongState(action: "rebase", state: status.state) }
        var next = status
        next.baseRevision = liveRevision
        next.approvers = []
        next.scheduledAt = nil
        return status.state == .draft ? next : settle(next, state: .review, rules: rules)
    }

    private static func requireApprovals(_ status: ChangeRequestStatus, rules: ApprovalRules)
        throws(ChangeRequestRefusal)
    {
        let counted = rules.counted(status.approvers, author: status.author).count
        guard counted >= rules.requiredApprovals else {
            throw .notApproved(required: rules.requiredApprovals, counted: counted)
        }
    }

    /// `state`, or `approved` when the approvals that count already satisfy the rules.
    private static func settle(_ status: ChangeRequestStatus, state: ChangeRequestState, rules: ApprovalRules)
        -> ChangeRequestStatus
    {
        var next = status
        next.state = rules.isSatisfied(by: status.approvers, author: status.author) ? .approved : state
        return next
    }
}
