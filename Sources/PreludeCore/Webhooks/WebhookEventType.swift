/// What a webhook can be told about: the `type` of a delivery's payload (Standard Webhooks: full-stop delimited,
/// `[a-zA-Z0-9_]` identifiers, one payload schema per type).
///
/// The one list of event types: the admin API accepts exactly these in a webhook's `events`, the outbox stores their
/// raw values, and a feature that reports a change adds its case here (docs/webhooks.md, "Event types").
public enum WebhookEventType: String, Sendable, CaseIterable, Hashable, Comparable {
    /// A new revision went live (a replace, a patch, a feature or experiment edit, an import, an applied change).
    case revisionPublished = "revision.published"
    /// A rollback made an old revision's document live again, as a new revision.
    case revisionRolledBack = "revision.rolledBack"
    /// A change request was created (as a draft, in review, or approved at once where none is required).
    case changeRequestCreated = "changeRequest.created"
    /// A draft change request was submitted for review.
    case changeRequestSubmitted = "changeRequest.submitted"
    /// A change request received an approval (its `state` says whether it is now approved).
    case changeRequestApproved = "changeRequest.approved"
    /// A change request was rejected.
    case changeRequestRejected = "changeRequest.rejected"
    /// A change request was applied (its revision went live; sent beside that revision's `revision.published`).
    case changeRequestApplied = "changeRequest.applied"
    /// A change request's schedule was set or cleared (by an operator, or by the scheduler when a scheduled apply
    /// was refused).
    case changeRequestScheduled = "changeRequest.scheduled"
    /// A change request was cancelled.
    case changeRequestCancelled = "changeRequest.cancelled"
    /// A change request went stale: its base revision was no longer live when it was to be applied.
    case changeRequestStale = "changeRequest.stale"
    /// A guarded rollout stopped itself on evidence of harm and rolled back.
    case rolloutGuardTripped = "rollout.guardTripped"
    /// A guarded rollout reached its last step.
    case rolloutCompleted = "rollout.completed"
    /// A guarded rollout's guard held it (paused) on a finding whose action is `hold`.
    case rolloutHeld = "rollout.held"
    /// A guarded rollout's guard carved a harmed segment out: it keeps the old screen while the rest ramps on.
    case rolloutSegmentExcluded = "rollout.segmentExcluded"
    /// A guarded rollout's harm bound exceeded its harm budget (sent whatever the budget's action).
    case rolloutBudgetExceeded = "rollout.budgetExceeded"
    /// An environment's governance settings (`requiredApprovals`, `allowSelfApproval`, `lintStrict`) changed.
    case environmentUpdated = "environment.updated"

    /// Orders by raw value, so lists of types read the same in every answer.
    public static func < (lhs: WebhookEventType, rhs: WebhookEventType) -> Bool { lhs.rawValue < rhs.rawValue }
}
