import PreludeCore
import PreludeHTTP
import PreludeStore

/// The problem documents of change management (RFC 9457), one stable `type` per refusal
/// (docs/change-management.md, "Refusals").
package enum ChangeRequestProblem {
    /// No change request with this id in this environment.
    package static let unknownType = "urn:prelude:problem:unknown-change-request"
    /// No such environment for this app.
    package static let unknownEnvironmentType = "urn:prelude:problem:unknown-environment"
    /// The transition is not possible from the request's state.
    package static let wrongStateType = "urn:prelude:problem:change-request-state"
    /// The author approving their own request where the environment forbids it.
    package static let selfApprovalType = "urn:prelude:problem:self-approval"
    /// The approver already approved.
    package static let alreadyApprovedType = "urn:prelude:problem:already-approved"
    /// Applying or scheduling without the required approvals.
    package static let notApprovedType = "urn:prelude:problem:not-approved"
    /// The base revision is no longer live: the request is now `stale`.
    package static let staleType = "urn:prelude:problem:stale-change-request"
    /// `If-Match` does not name the request's current version, or another write changed it first.
    package static let changedType = "urn:prelude:problem:change-request-changed"
    /// A direct write to an environment that requires approval.
    package static let approvalRequiredType = "urn:prelude:problem:approval-required"
    /// Loosening the governance of an environment that requires approvals, without `bypass` or a change request.
    package static let settingsApprovalRequiredType = "urn:prelude:problem:settings-approval-required"
    /// A transition that a request of this kind does not have (editing the proposal of a settings request).
    package static let wrongKindType = "urn:prelude:problem:change-request-kind"
    /// A re-base where the request and the live revision changed the same member differently.
    package static let rebaseConflictType = "urn:prelude:problem:rebase-conflict"

    /// 404 for an unknown request.
    package static func unknown(_ id: String, app: String, environment: String) -> ProblemDetails {
        ProblemDetails(
            status: .notFound, type: unknownType, title: "Unknown change request",
            detail: "app \"\(app)\" has no change request \(id) in environment \"\(environment)\"")
    }

    /// 404 for an environment the app does not have.
    package static func unknownEnvironment(_ environment: String, app: String) -> ProblemDetails {
        ProblemDetails(
            status: .notFound, type: unknownEnvironmentType, title: "Unknown environment",
            detail: "app \"\(app)\" has no environment \"\(environment)\"")
    }

    /// The problem answering a refusal of the state machine.
    package static func problem(for refusal: ChangeRequestRefusal) -> ProblemDetails {
        switch refusal {
        case .wrongState:
            ProblemDetails(
                status: .conflict, type: wrongStateType, title: "Not possible in this state",
                detail: refusal.description + "; nothing was changed")
        case .selfApproval:
            ProblemDetails(
                status: .forbidden, type: selfApprovalType, title: "Self-approval is not allowed",
                detail: refusal.description + " (environment setting allowSelfApproval); ask another approver")
        case .alreadyApproved:
            ProblemDetails(
                status: .conflict, type: alreadyApprovedType, title: "Already approved",
                detail: refusal.description + "; nothing was changed")
        case .notApproved:
            ProblemDetails(
                status: .conflict, type: notApprovedType, title: "Not approved",
                detail: refusal.description + "; nothing was changed")
        case .scheduleInPast:
            AdminProblem.invalidRequest(
                refusal.description, pointer: "/at", code: "schedule.past", status: .unprocessableContent)
        }
    }

    /// 409: the base revision is not live any more; the request was marked stale.
    package static func stale(id: Int64, base: Int?, live: Int?) -> ProblemDetails {
        ProblemDetails(
            status: .conflict, type: staleType, title: "The change request is stale",
            detail: "change request \(id) was based on revision \(base.map(String.init) ?? "none"), but revision "
                + "\(live.map(String.init) ?? "none") is live now; it is marked stale and was not applied. "
                + "POST …/change-requests/\(id)/rebase to base it on the live revision and review it again")
    }

    /// 409: re-basing request `id` from revision `base` onto `live` met `conflicts` (``JSONMerge``): each is a field
    /// problem at its pointer saying what each side holds there. Nothing was changed.
    package static func rebaseConflict(id: Int64, base: Int?, live: Int?, conflicts: [JSONMerge.Conflict])
        -> ProblemDetails
    {
        let baseName = base.map { "revision \($0)" } ?? "no revision"
        let liveName = live.map { "revision \($0)" } ?? "the live revision"
        let count = conflicts.count
        return ProblemDetails(
            status: .conflict, type: rebaseConflictType, title: "The change request conflicts with the live revision",
            detail: "change request \(id) and \(liveName) both changed \(count) member\(count == 1 ? "" : "s") since "
                + "\(baseName), differently: "
                + conflicts.prefix(5).map(\.pointer.description).joined(separator: ", ")
                + (count > 5 ? ", …" : "") + ". Nothing was changed: decide what "
                + "\(count == 1 ? "this member" : "these members") should hold, cancel the request and propose the "
                + "change again from \(liveName)",
            errors: conflicts.map { conflict in
                FieldProblem(
                    pointer: conflict.pointer.description, code: "rebase.conflict",
                    detail: "this request makes it \(conflict.ours), \(liveName) has \(conflict.theirs) "
                        + "(\(baseName) had \(conflict.base))")
            })
    }

    /// 412/409: the request changed since the caller read it.
    package static func changed(id: Int64, current: String?, status: HTTPStatus = .preconditionFailed)
        -> ProblemDetails
    {
        var headers = HTTPHeaders()
        if let current { headers.set("ETag", current) }
        return ProblemDetails(
            status: status, type: changedType, title: "The change request changed",
            detail: "change request \(id) changed since it was read"
                + (current.map { " (now \($0))" } ?? "") + "; re-read it and retry; nothing was changed",
            headers: headers)
    }

    /// 409 for a direct policy write to an environment that requires approvals.
    package static func approvalRequired(app: String, environment: String, required: Int) -> ProblemDetails {
        ProblemDetails(
            status: .conflict, type: approvalRequiredType, title: "This environment requires approval",
            detail: "environment \"\(environment)\" of app \"\(app)\" requires \(required) approval"
                + "\(required == 1 ? "" : "s") for every change: propose it with POST "
                + "/v1/admin/apps/\(app)/environments/\(environment)/change-requests (a token with the bypass scope "
                + "may write directly; that is audited); nothing was changed")
    }

    /// 403 for a settings change that loosens the gate of an environment requiring approvals, from a token without
    /// `bypass` (docs/change-management.md, "Who may do what"): names each loosened member (also in `errors`, with
    /// its pointer) and the two ways to make the change.
    package static func settingsApprovalRequired(
        app: String, environment: String, members: [String], requiredApprovals: Int, change: JSONValue
    ) -> ProblemDetails {
        let named = members.map { member in
            switch member {
            case "requiredApprovals": "lowering requiredApprovals"
            case "allowSelfApproval": "turning allowSelfApproval on"
            case "lintStrict": "turning lintStrict off"
            default: member
            }
        }
        return ProblemDetails(
            status: .forbidden, type: settingsApprovalRequiredType,
            title: "Loosening this environment's governance needs approval",
            detail: "environment \"\(environment)\" of app \"\(app)\" requires \(requiredApprovals) approval"
                + "\(requiredApprovals == 1 ? "" : "s"), and \(named.joined(separator: " and ")) loosens its gate: "
                + "that needs a write token with the bypass capability, or an approved change request — POST "
                + "/v1/admin/apps/\(app)/environments/\(environment)/change-requests with {\"settings\": "
                + "\(change.serialized())}, approved by someone else, then applied. Tightening needs neither; "
                + "nothing was changed",
            errors: members.map { member in
                FieldProblem(
                    pointer: "/" + member, code: "governance.loosened",
                    detail: "\(member) loosens the approval gate of \(environment)")
            },
            headers: ["WWW-Authenticate": #"Bearer realm="prelude", error="insufficient_scope", scope="bypass""#])
    }

    /// 409 for starting a rollout on an environment that requires approvals without an approved plan.
    package static func rolloutApprovalRequired(
        app: String, environment: String, rollout: Int64, requiredApprovals: Int, changeRequest: Int64?
    ) -> ProblemDetails {
        let path = "/v1/admin/apps/\(app)/environments/\(environment)/change-requests"
        let how =
            if let changeRequest {
                "its plan waits for approval in change request \(changeRequest) (\(path)/\(changeRequest)); applying "
                    + "that request once approved starts it"
            } else {
                "propose its plan with POST \(path) {\"rollout\": \(rollout)}; applying that request once approved "
                    + "starts it"
            }
        return ProblemDetails(
            status: .conflict, type: approvalRequiredType, title: "This environment requires approval",
            detail: "environment \"\(environment)\" of app \"\(app)\" requires \(requiredApprovals) approval"
                + "\(requiredApprovals == 1 ? "" : "s") for every change, a rollout's plan included: \(how) (a token "
                + "with the bypass capability may start it directly; that is audited); nothing was changed")
    }

    /// 409 for a transition a request of `kind` does not have.
    package static func wrongKind(id: Int64, kind: ChangeRequestKind, action: String) -> ProblemDetails {
        ProblemDetails(
            status: .conflict, type: wrongKindType, title: "Not possible for this kind of change request",
            detail: "change request \(id) proposes \(kind == .settings ? "environment settings" : "a rollout plan"); "
                + "it cannot be \(action): cancel it and propose another; nothing was changed")
    }
}
