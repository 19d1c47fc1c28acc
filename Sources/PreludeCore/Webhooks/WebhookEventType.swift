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
    /// A change request was created.
    case changeRequestCreated = "changeRequest.created"
    /// A change request received an approval.
    case changeRequestApproved = "changeRequest.approved"
    /// A change request was rejected.
    case changeRequestRejected = "changeRequest.rejected"
    /// A change request was applied (its revision went live).
    case changeRequestApplied = "changeRequest.applied"
    /// A change request was scheduled for a later instant.
    case changeRequestScheduled = "changeRequest.scheduled"
    /// A guarded rollout stopped itself on evidence of harm and rolled back.
    case rolloutGuardTripped = "rollout.guardTripped"
    /// A guarded rollout reached its last step.
    case rolloutCompleted = "rollout.completed"

    /// Orders by raw value, so lists of types read the same in every answer.
    public static func < (lhs: WebhookEventType, rhs: WebhookEventType) -> Bool { lhs.rawValue < rhs.rawValue }
}
