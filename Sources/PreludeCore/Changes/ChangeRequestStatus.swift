/// What the change-request state machine knows of a request: everything a transition reads or changes, nothing of
/// the proposed document itself (``ChangeRequestMachine``).
package struct ChangeRequestStatus: Sendable, Equatable {
    /// Its state.
    package var state: ChangeRequestState
    /// Who proposed it (a token name).
    package var author: String
    /// Who approved it, in order; cleared by every edit and re-base.
    package var approvers: [String]
    /// The revision it was based on (nil: the environment had no live revision).
    package var baseRevision: Int?
    /// When it is to be applied (ms since the epoch), nil when not scheduled.
    package var scheduledAt: Int64?

    /// A status.
    package init(
        state: ChangeRequestState, author: String, approvers: [String] = [], baseRevision: Int?,
        scheduledAt: Int64? = nil
    ) {
        self.state = state
        self.author = author
        self.approvers = approvers
        self.baseRevision = baseRevision
        self.scheduledAt = scheduledAt
    }
}
