/// The `data` of a `revision.published` or `revision.rolledBack` delivery (docs/webhooks.md, "Payloads"): which app
/// and environment, who did what, the live revision numbers before and after, and the JSON diff between them.
package struct RevisionChangeEvent: Sendable, Equatable {
    /// The most diff changes a payload carries; `truncated` says when there were more (the whole diff stays one
    /// `GET …/revisions/{before}/diff/{after}` away).
    package static let maxChanges = 100

    /// The app.
    package var app: String
    /// The environment whose live revision changed.
    package var environment: String
    /// Who made the change (a token name, `cli`, `system`).
    package var actor: String
    /// The audit action (`policy.replace`, `policy.rollback`, `policy.import`, ...).
    package var action: String
    /// The change's message, if any.
    package var message: String?
    /// The live revision before; nil when there was none.
    package var before: Int?
    /// The new live revision.
    package var after: Int
    /// Every change from the old live document to the new one.
    package var changes: [JSONDiff.Change]

    /// An event with these members.
    package init(
        app: String, environment: String, actor: String, action: String, message: String?, before: Int?, after: Int,
        changes: [JSONDiff.Change]
    ) {
        self.app = app
        self.environment = environment
        self.actor = actor
        self.action = action
        self.message = message
        self.before = before
        self.after = after
        self.changes = changes
    }

    /// `{"app", "environment", "actor", "action", "message", "revision": {"before", "after"}, "diff": {"changeCount",
    /// "changes", "truncated"?}}`.
    package var jsonValue: JSONValue {
        var object = JSONObject()
        object["app"] = .string(app)
        object["environment"] = .string(environment)
        object["actor"] = .string(actor)
        object["action"] = .string(action)
        object["message"] = message.map(JSONValue.string) ?? .null
        object["revision"] = .object(
            JSONObject([("before", before.map { JSONValue.integer($0) } ?? .null), ("after", .integer(after))]))
        object["diff"] = JSONDiff.summary(changes, limit: Self.maxChanges)
        return .object(object)
    }
}
