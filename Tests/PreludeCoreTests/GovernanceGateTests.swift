import Testing

@testable import PreludeCore

/// The gate's rules, pure (docs/change-management.md, "Who may do what").
@Suite struct GovernanceGateTests {
    static func settings(_ approvals: Int, self allow: Bool = false, strict: Bool = true) -> GovernanceGate.Settings {
        GovernanceGate.Settings(requiredApprovals: approvals, allowSelfApproval: allow, lintStrict: strict)
    }

    @Test(arguments: [
        (settings(2), settings(1), ["requiredApprovals"]),
        (settings(1), settings(1, self: true), ["allowSelfApproval"]),
        (settings(1), settings(1, strict: false), ["lintStrict"]),
        (
            settings(1), settings(0, self: true, strict: false),
            ["requiredApprovals", "allowSelfApproval", "lintStrict"]
        ),
        (settings(1), settings(3), []),
        (settings(1, self: true, strict: false), settings(1), []),
    ])
    func namesEveryLoosenedMember(
        current: GovernanceGate.Settings, proposed: GovernanceGate.Settings, members: [String]
    ) {
        #expect(GovernanceGate.loosened(from: current, to: proposed) == members)
    }

    @Test func looseningAGatedEnvironmentNeedsBypassOrAChangeRequest() throws {
        #expect(throws: GovernanceGate.Refusal.loosens(members: ["requiredApprovals"], requiredApprovals: 1)) {
            try GovernanceGate.settingsChange(current: Self.settings(1), proposed: Self.settings(0), authority: .writer)
        }
        #expect(
            try GovernanceGate.settingsChange(current: Self.settings(1), proposed: Self.settings(0), authority: .bypass)
                == .allowedBy(.bypass))
        #expect(
            try GovernanceGate.settingsChange(
                current: Self.settings(1), proposed: Self.settings(0), authority: .changeRequest(7))
                == .allowedBy(.changeRequest(7)))
        // Tightening, and anything on an environment that requires no approval, is a writer's.
        #expect(
            try GovernanceGate.settingsChange(current: Self.settings(1), proposed: Self.settings(2), authority: .writer)
                == .allowed)
        #expect(
            try GovernanceGate.settingsChange(
                current: Self.settings(0), proposed: Self.settings(0, self: true, strict: false), authority: .writer)
                == .allowed)
    }

    @Test func aRolloutStartsOnAGatedEnvironmentOnlyWithAuthority() throws {
        #expect(throws: GovernanceGate.Refusal.rolloutNeedsApproval(requiredApprovals: 2)) {
            try GovernanceGate.rolloutStart(Self.settings(2), authority: .writer)
        }
        #expect(
            try GovernanceGate.rolloutStart(Self.settings(2), authority: .changeRequest(3))
                == .allowedBy(.changeRequest(3)))
        #expect(try GovernanceGate.rolloutStart(Self.settings(0), authority: .writer) == .allowed)
    }

    @Test func aSettingsRequestNeverCountsItsAuthor() {
        let rules = ApprovalRules(requiredApprovals: 1, allowSelfApproval: true)
        #expect(ChangeRequestKind.settings.rules(rules).isSatisfied(by: ["alice"], author: "alice") == false)
        #expect(ChangeRequestKind.policy.rules(rules).isSatisfied(by: ["alice"], author: "alice"))
        #expect(ChangeRequestKind.rollout.rules(rules).isSatisfied(by: ["alice"], author: "alice"))
    }
}
