import PreludeCore

/// A change request as stored in `change_requests` (migration 0013).
package struct ChangeRequestRecord: Sendable, Equatable {
    /// Its id (unique across apps and environments).
    package var id: Int64
    /// The app.
    package var app: String
    /// The environment it changes.
    package var environment: String
    /// What it proposes (migration 0016): a policy document, settings, or a rollout's plan.
    package var kind: ChangeRequestKind
    /// Its state.
    package var state: ChangeRequestState
    /// Bumped by every change; the request's ETag is built from it.
    package var version: Int
    /// The live revision it was based on (nil: none was live).
    package var baseRevision: Int?
    /// The proposed document, canonical JSON text (for a `settings` request the settings it sets, for a `rollout`
    /// request the rollout's id and plan).
    package var document: String
    /// The JSON Merge Patch (text) it was made from, if it was.
    package var patch: String?
    /// Its patch against the base revision, JSON text (`[{op, pointer, from?, to?}]`, `JSONMerge.patch`): what a
    /// re-base re-applies. nil for a request stored by a build before migration 0017 (derived when needed).
    package var changes: String?
    /// Who proposed it (a token name, `cli` from the command line).
    package var author: String
    /// The proposing token's id.
    package var authorTokenID: Int64?
    /// What it is for.
    package var message: String?
    /// The lint findings of the proposal, JSON text (an array).
    package var findings: String
    /// The approvals of the current proposal, in order.
    package var approvals: [ChangeRequestApproval]
    /// When it is to be applied (ms), if scheduled.
    package var scheduledAt: Int64?
    /// The revision it became, once applied.
    package var appliedRevision: Int?
    /// Who rejected or cancelled it.
    package var closedBy: String?
    /// Why it was rejected or cancelled.
    package var reason: String?
    /// When it was created (ms).
    package var createdAt: Int64
    /// When it last changed (ms).
    package var updatedAt: Int64

    /// A record.
    package init(
        id: Int64, app: String, environment: String, state: ChangeRequestState, version: Int, baseRevision: Int?,
        document: String, patch: String?, changes: String? = nil, author: String, authorTokenID: Int64?,
        message: String?, findings: String,
        approvals: [ChangeRequestApproval], scheduledAt: Int64?, appliedRevision: Int?, closedBy: String?,
        reason: String?, createdAt: Int64, updatedAt: Int64, kind: ChangeRequestKind = .policy
    ) {
        self.id = id
        self.app = app
        self.environment = environment
        self.kind = kind
        self.state = state
        self.version = version
        self.baseRevision = baseRevision
        self.document = document
        self.patch = patch
        self.changes = changes
        self.author = author
        self.authorTokenID = authorTokenID
        self.message = message
        self.findings = findings
        self.approvals = approvals
        self.scheduledAt = scheduledAt
        self.appliedRevision = appliedRevision
        self.closedBy = closedBy
        self.reason = reason
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// What the state machine reads (``ChangeRequestMachine``).
    package var status: ChangeRequestStatus {
        get {
            ChangeRequestStatus(
                state: state, author: author, approvers: approvals.map(\.approver), baseRevision: baseRevision,
                scheduledAt: scheduledAt)
        }
        set {
            state = newValue.state
            baseRevision = newValue.baseRevision
            scheduledAt = newValue.scheduledAt
            // The machine only appends approvers or clears them; the caller adds the new approval's details.
            approvals = approvals.filter { newValue.approvers.contains($0.approver) }
        }
    }
}
