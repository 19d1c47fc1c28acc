/// The `data` of an `environment.updated` delivery (docs/webhooks.md, "Payloads"): an environment's governance
/// settings changed — who changed them, how (`authority`: a plain write, the `bypass` capability, or an approved
/// change request), what each changed member was and became, and which of them loosened the gate.
package struct EnvironmentUpdatedEvent: Sendable, Equatable {
    /// The app.
    package var app: String
    /// The environment whose settings changed.
    package var environment: String
    /// Who changed them (a token name, `scheduler` for a scheduled change request).
    package var actor: String
    /// The audit action (`environment.settings`, `app.settings`).
    package var action: String
    /// The settings before.
    package var before: GovernanceGate.Settings
    /// The settings after.
    package var after: GovernanceGate.Settings
    /// What allowed the change.
    package var authority: GovernanceGate.Authority

    /// An event.
    package init(
        app: String, environment: String, actor: String, action: String, before: GovernanceGate.Settings,
        after: GovernanceGate.Settings, authority: GovernanceGate.Authority
    ) {
        self.app = app
        self.environment = environment
        self.actor = actor
        self.action = action
        self.before = before
        self.after = after
        self.authority = authority
    }

    /// `{"app", "environment", "actor", "action", "changes": {member: {"from", "to"}}, "before": {…}, "after": {…},
    /// "loosened": [member…], "authority": "write" | "bypass" | "changeRequest", "changeRequest": id | null}`;
    /// `changes` names only the members whose value changed.
    package var jsonValue: JSONValue {
        var object = JSONObject()
        object["app"] = .string(app)
        object["environment"] = .string(environment)
        object["actor"] = .string(actor)
        object["action"] = .string(action)
        object["changes"] = Self.changes(from: before, to: after)
        object["before"] = Self.json(before)
        object["after"] = Self.json(after)
        object["loosened"] = .array(GovernanceGate.loosened(from: before, to: after).map(JSONValue.string))
        switch authority {
        case .writer:
            object["authority"] = "write"
            object["changeRequest"] = .null
        case .bypass:
            object["authority"] = "bypass"
            object["changeRequest"] = .null
        case .changeRequest(let id):
            object["authority"] = "changeRequest"
            object["changeRequest"] = .integer(Int(id))
        }
        return .object(object)
    }

    /// `{"requiredApprovals", "allowSelfApproval", "lintStrict"}`.
    package static func json(_ settings: GovernanceGate.Settings) -> JSONValue {
        .object(
            JSONObject([
                ("requiredApprovals", .integer(settings.requiredApprovals)),
                ("allowSelfApproval", .bool(settings.allowSelfApproval)), ("lintStrict", .bool(settings.lintStrict)),
            ]))
    }

    /// `{member: {"from", "to"}}` for each member whose value differs.
    package static func changes(from before: GovernanceGate.Settings, to after: GovernanceGate.Settings) -> JSONValue {
        var object = JSONObject()
        if before.requiredApprovals != after.requiredApprovals {
            object["requiredApprovals"] = [
                "from": .integer(before.requiredApprovals), "to": .integer(after.requiredApprovals),
            ]
        }
        if before.allowSelfApproval != after.allowSelfApproval {
            object["allowSelfApproval"] = [
                "from": .bool(before.allowSelfApproval), "to": .bool(after.allowSelfApproval),
            ]
        }
        if before.lintStrict != after.lintStrict {
            object["lintStrict"] = ["from": .bool(before.lintStrict), "to": .bool(after.lintStrict)]
        }
        return .object(object)
    }
}
