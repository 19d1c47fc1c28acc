import Testing

@testable import PreludeCore

/// The `data` of `changeRequest.*` webhook deliveries and which audit action is reported as which event type.
@Suite struct ChangeRequestEventTests {
    @Test(arguments: [
        ("changeRequest.create", "changeRequest.created"), ("changeRequest.submit", "changeRequest.submitted"),
        ("changeRequest.approve", "changeRequest.approved"), ("changeRequest.reject", "changeRequest.rejected"),
        ("changeRequest.schedule", "changeRequest.scheduled"),
        ("changeRequest.scheduleFailed", "changeRequest.scheduled"),
        ("changeRequest.apply", "changeRequest.applied"), ("changeRequest.cancel", "changeRequest.cancelled"),
        ("changeRequest.stale", "changeRequest.stale"),
    ])
    func everyTransitionButEditAndRebaseIsAnEvent(action: String, type: String) {
        #expect(ChangeRequestEvent.type(forAction: action)?.rawValue == type)
    }

    @Test func editsRebasesAndOtherActionsAreNot() {
        for action in ["changeRequest.edit", "changeRequest.rebase", "policy.replace", "changeRequest.applied", ""] {
            #expect(ChangeRequestEvent.type(forAction: action) == nil, "\(action)")
        }
        // Every change-request type is reachable from some action.
        let reachable = Set(
            [
                "changeRequest.create", "changeRequest.submit", "changeRequest.approve", "changeRequest.reject",
                "changeRequest.schedule", "changeRequest.apply", "changeRequest.cancel", "changeRequest.stale",
            ].compactMap(ChangeRequestEvent.type(forAction:)))
        #expect(reachable == Set(WebhookEventType.allCases.filter { $0.rawValue.hasPrefix("changeRequest.") }))
    }

    @Test func payloadCarriesTheRequestAndOnlyTheMembersItHas() throws {
        let change = JSONDiff.Change(
            op: .replace, pointer: JSONPointer(tokens: ["features", "camera", "copy", "en", "prime", "title"]),
            from: .string("a"), to: .string("b"))
        let applied = ChangeRequestEvent(
            app: "demo", environment: "production", actor: "scheduler", action: "changeRequest.apply", id: 4,
            state: "applied", version: 5, author: "alice", message: "shorter", baseRevision: 7,
            approvers: ["bob"], scheduledAt: nil, reason: nil, revision: (before: 7, after: 8), changes: [change])
        #expect(
            applied.jsonValue.serialized()
                == #"{"app":"demo","environment":"production","actor":"scheduler","action":"changeRequest.apply","#
                + #""changeRequest":{"id":4,"state":"applied","version":5,"author":"alice","message":"shorter","#
                + #""baseRevision":7,"approvers":["bob"],"scheduledAt":null,"reason":null,"kind":"policy"},"#
                + #""revision":{"before":7,"after":8},"diff":{"changeCount":1,"changes":[{"op":"replace","#
                + #""pointer":"/features/camera/copy/en/prime/title","from":"a","to":"b"}]}}"#)
        let approved = ChangeRequestEvent(
            app: "demo", environment: "staging", actor: "bob", action: "changeRequest.approve", id: 4,
            state: "review", version: 2, author: "alice", message: nil, baseRevision: nil, approvers: ["bob"],
            scheduledAt: nil, reason: nil)
        let object = try #require(approved.jsonValue.objectValue)
        #expect(object["revision"] == nil && object["diff"] == nil)
        // At most 100 changes, flagged truncated.
        var many = approved
        many.changes = Array(repeating: change, count: 150)
        let diff = try #require(many.jsonValue.objectValue?["diff"]?.objectValue)
        #expect(diff["changeCount"] == .integer(150) && diff["truncated"] == .bool(true))
        #expect(diff["changes"]?.arrayValue?.count == 100)
    }
}
