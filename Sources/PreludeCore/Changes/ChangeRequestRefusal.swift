/// Why the change-request state machine refused a transition; nothing changes. Each maps to one problem type of the
/// admin API (docs/change-management.md, "Refusals").
package enum ChangeRequestRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The transition is not possible from this state (`action` in `state`).
    case wrongState(action: String, state: ChangeRequestState)
    /// The author approving their own request where the environment forbids it.
    case selfApproval
    /// The same approver approving twice.
    case alreadyApproved(String)
    /// Applying or scheduling a request without the approvals the environment requires now.
    case notApproved(required: Int, counted: Int)
    /// A schedule instant that is not in the future (`at`, `now`: ms since the epoch).
    case scheduleInPast(at: Int64, now: Int64)

    package var description: String {
        switch self {
        case .wrongState(let action, let state):
            "a change request in state \(state.rawValue) cannot be \(Self.pastParticiple(action))"
        case .selfApproval:
            "the environment does not allow authors to approve their own change requests"
        case .alreadyApproved(let name): "\(name) has already approved this change request"
        case .notApproved(let required, let counted):
            "the change request needs \(required) approval\(required == 1 ? "" : "s") and has \(counted)"
        case .scheduleInPast(let at, let now):
            "the schedule instant (\(RFC3339.string(milliseconds: at))) is not after now "
                + "(\(RFC3339.string(milliseconds: now))); apply it instead"
        }
    }

    private static func pastParticiple(_ action: String) -> String {
        switch action {
        case "submit": "submitted"
        case "edit": "edited"
        case "approve": "approved"
        case "reject": "rejected"
        case "cancel": "cancelled"
        case "schedule": "scheduled"
        case "apply": "applied"
        case "rebase": "re-based"
        default: action
        }
    }
}
