/// The `data` of a `changeRequest.*` delivery (docs/webhooks.md, "Payloads"): which app and environment, who did
/// what, the request as it is after the change, and — when the request was created or applied — the JSON diff it
/// makes (against its base; an applied one also gives the revision numbers before and after).
package struct ChangeRequestEvent: Sendable, Equatable {
    /// The app.
    package var app: String
    /// The environment the request changes.
    package var environment: String
    /// Who did it (a token name, `cli`, `scheduler`).
    package var actor: String
    /// The audit action (`changeRequest.create`, `changeRequest.approve`, `changeRequest.apply`, ...).
    package var action: String
    /// The request's id.
    package var id: Int64
    /// Its state after the change (`draft`, `review`, `approved`, `applied`, `rejected`, `cancelled`, `stale`).
    package var state: String
    /// Its version after the change (its ETag is `"cr<id>-v<version>"`).
    package var version: Int
    /// Who proposed it.
    package var author: String
    /// What it is for.
    package var message: String?
    /// The live revision it is based on; nil when none was.
    package var baseRevision: Int?
    /// Who approved the current proposal, in order.
    package var approvers: [String]
    /// When it is to be applied (ISO 8601), if scheduled.
    package var scheduledAt: String?
    /// Why it was rejected or cancelled, or why a scheduled apply was refused.
    package var reason: String?
    /// For an applied request: the live revision before and the one it became.
    package var revision: (before: Int?, after: Int)?
    /// The changes it makes to its base; nil when the event does not carry them.
    package var changes: [JSONDiff.Change]?
    /// What it proposes: a policy document, settings, or a rollout's plan.
    package var kind: ChangeRequestKind

    /// An event with these members; `revision` and `changes` only where the event carries them.
    package init(
        app: String, environment: String, actor: String, action: String, id: Int64, state: String, version: Int,
        author: String, message: String?, baseRevision: Int?, approvers: [String], scheduledAt: String?,
        reason: String?, revision: (before: Int?, after: Int)? = nil, changes: [JSONDiff.Change]? = nil,
        kind: ChangeRequestKind = .policy
    ) {
        self.kind = kind
        self.app = app
        self.environment = environment
        self.actor = actor
        self.action = action
        self.id = id
        self.state = state
        self.version = version
        self.author = author
        self.message = message
        self.baseRevision = baseRevision
        self.approvers = approvers
        self.scheduledAt = scheduledAt
        self.reason = reason
        self.revision = revision
        self.changes = changes
    }

    /// The event type a change request's audit action is reported as; nil for the actions no event reports (an edit
    /// or a re-base: they send the request back to review, and the next `approved` says so).
    package static func type(forAction action: String) -> WebhookEventType? {
        switch action {
        case "changeRequest.create": .changeRequestCreated
        case "changeRequest.submit": .changeRequestSubmitted
        case "changeRequest.approve": .changeRequestApproved
        case "changeRequest.reject": .changeRequestRejected
        case "changeRequest.schedule", "changeRequest.scheduleFailed": .changeRequestScheduled
        case "changeRequest.apply": .changeRequestApplied
        case "changeRequest.cancel": .changeRequestCancelled
        case "changeRequest.stale": .changeRequestStale
        default: nil
        }
    }

    package static func == (lhs: ChangeRequestEvent, rhs: ChangeRequestEvent) -> Bool {
        lhs.jsonValue == rhs.jsonValue
    }

    /// `{"app", "environment", "actor", "action", "changeRequest": {"id", "state", "version", "author", "message",
    /// "baseRevision", "approvers", "scheduledAt", "reason", "kind"}, "revision"?: {"before", "after"}, "diff"?:
    /// {"changeCount", "changes", "truncated"?}}`; the diff holds at most ``RevisionChangeEvent/maxChanges`` changes.
    package var jsonValue: JSONValue {
        var request = JSONObject()
        request["id"] = .integer(Int(id))
        request["state"] = .string(state)
        request["version"] = .integer(version)
        request["author"] = .string(author)
        request["message"] = message.map(JSONValue.string) ?? .null
        request["baseRevision"] = baseRevision.map { JSONValue.integer($0) } ?? .null
        request["approvers"] = .array(approvers.map(JSONValue.string))
        request["scheduledAt"] = scheduledAt.map(JSONValue.string) ?? .null
        request["reason"] = reason.map(JSONValue.string) ?? .null
        request["kind"] = .string(kind.rawValue)
        var object = JSONObject()
        object["app"] = .string(app)
        object["environment"] = .string(environment)
        object["actor"] = .string(actor)
        object["action"] = .string(action)
        object["changeRequest"] = .object(request)
        if let revision {
            object["revision"] = .object(
                JSONObject([
                    ("before", revision.before.map { JSONValue.integer($0) } ?? .null),
                    ("after", .integer(revision.after)),
                ]))
        }
        if let changes { object["diff"] = JSONDiff.summary(changes, limit: RevisionChangeEvent.maxChanges) }
        return .object(object)
    }
}
