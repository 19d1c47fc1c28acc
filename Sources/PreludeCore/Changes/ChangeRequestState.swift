/// Where a change request is in its life (docs/change-management.md, "States").
///
/// `draft → review → approved → applied`; `rejected`, `cancelled` and `applied` are final; `stale` means the revision
/// the request was based on is no longer live, so it must be re-based (and reviewed again) before it can apply.
package enum ChangeRequestState: String, Sendable, CaseIterable {
    /// Being written by its author; not yet asking for review.
    case draft
    /// Waiting for approvals.
    case review
    /// Has the approvals its environment requires; may be applied or scheduled.
    case approved
    /// Published as a revision (final).
    case applied
    /// Refused by a reviewer (final).
    case rejected
    /// Withdrawn (final).
    case cancelled
    /// Its base revision was no longer live when it was to be applied; re-base it.
    case stale

    /// Whether nothing can happen to the request any more.
    package var isFinal: Bool {
        switch self {
        case .applied, .rejected, .cancelled: true
        case .draft, .review, .approved, .stale: false
        }
    }
}
