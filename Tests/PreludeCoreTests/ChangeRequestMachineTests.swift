import Testing

@testable import PreludeCore

/// The change-request state machine (docs/change-management.md): every transition and every refusal, on values.
@Suite struct ChangeRequestMachineTests {
    static let two = ApprovalRules(requiredApprovals: 2, allowSelfApproval: false)
    static let selfAllowed = ApprovalRules(requiredApprovals: 1, allowSelfApproval: true)

    static func inReview(approvers: [String] = [], base: Int? = 3) -> ChangeRequestStatus {
        ChangeRequestStatus(state: .review, author: "alice", approvers: approvers, baseRevision: base)
    }

    @Test func createKeepsADraftOrSubmitsIt() {
        let draft = ChangeRequestMachine.create(author: "alice", baseRevision: 3, submit: false, rules: Self.two)
        #expect(draft.state == .draft)
        #expect(draft.baseRevision == 3)
        let submitted = ChangeRequestMachine.create(author: "alice", baseRevision: 3, submit: true, rules: Self.two)
        #expect(submitted.state == .review)
    }

    @Test func withoutRequiredApprovalsASubmittedRequestIsApprovedAtOnce() throws {
        let created = ChangeRequestMachine.create(author: "alice", baseRevision: 1, submit: true, rules: .none)
        #expect(created.state == .approved)
        let draft = ChangeRequestMachine.create(author: "alice", baseRevision: 1, submit: false, rules: .none)
        #expect(try ChangeRequestMachine.submit(draft, rules: .none).state == .approved)
    }

    @Test func submitOnlyFromDraft() {
        #expect(throws: ChangeRequestRefusal.wrongState(action: "submit", state: .review)) {
            try ChangeRequestMachine.submit(Self.inReview(), rules: Self.two)
        }
    }

    @Test func approvalsAccumulateUntilTheRequirement() throws {
        let one = try ChangeRequestMachine.approve(Self.inReview(), by: "bob", rules: Self.two)
        #expect(one.state == .review)
        #expect(one.approvers == ["bob"])
        let two = try ChangeRequestMachine.approve(one, by: "carol", rules: Self.two)
        #expect(two.state == .approved)
        #expect(two.approvers == ["bob", "carol"])
        // A third approval of an approved request is kept; it stays approved.
        #expect(try ChangeRequestMachine.approve(two, by: "dave", rules: Self.two).state == .approved)
    }

    @Test func selfApprovalIsRefusedWhereForbiddenAndCountsWhereAllowed() throws {
        #expect(throws: ChangeRequestRefusal.selfApproval) {
            try ChangeRequestMachine.approve(Self.inReview(), by: "alice", rules: Self.two)
        }
        let approved = try ChangeRequestMachine.approve(Self.inReview(), by: "alice", rules: Self.selfAllowed)
        #expect(approved.state == .approved)
    }

    @Test func theSameApproverCountsOnce() throws {
        let one = try ChangeRequestMachine.approve(Self.inReview(), by: "bob", rules: Self.two)
        #expect(throws: ChangeRequestRefusal.alreadyApproved("bob")) {
            try ChangeRequestMachine.approve(one, by: "bob", rules: Self.two)
        }
    }

    @Test func approvingADraftOrAFinalRequestIsRefused() {
        for state in [ChangeRequestState.draft, .applied, .rejected, .cancelled, .stale] {
            var status = Self.inReview()
            status.state = state
            #expect(throws: ChangeRequestRefusal.wrongState(action: "approve", state: state)) {
                try ChangeRequestMachine.approve(status, by: "bob", rules: Self.two)
            }
        }
    }

    @Test func editingInReviewOrApprovedClearsApprovalsAndSchedule() throws {
        var approved = Self.inReview(approvers: ["bob", "carol"])
        approved.state = .approved
        approved.scheduledAt = 5_000
        let edited = try ChangeRequestMachine.edit(approved, rules: Self.two)
        #expect(edited.state == .review)
        #expect(edited.approvers.isEmpty)
        #expect(edited.scheduledAt == nil)
        let draft = ChangeRequestStatus(state: .draft, author: "alice", baseRevision: 1)
        #expect(try ChangeRequestMachine.edit(draft, rules: Self.two).state == .draft)
        for state in [ChangeRequestState.applied, .rejected, .cancelled, .stale] {
            var status = Self.inReview()
            status.state = state
            #expect(throws: ChangeRequestRefusal.wrongState(action: "edit", state: state)) {
                try ChangeRequestMachine.edit(status, rules: Self.two)
            }
        }
    }

    @Test func rejectFromReviewOrApprovedOnly() throws {
        #expect(try ChangeRequestMachine.reject(Self.inReview()).state == .rejected)
        let draft = ChangeRequestStatus(state: .draft, author: "alice", baseRevision: 1)
        #expect(throws: ChangeRequestRefusal.wrongState(action: "reject", state: .draft)) {
            try ChangeRequestMachine.reject(draft)
        }
    }

    @Test func cancelFromEveryOpenState() throws {
        for state in [ChangeRequestState.draft, .review, .approved, .stale] {
            var status = Self.inReview()
            status.state = state
            #expect(try ChangeRequestMachine.cancel(status).state == .cancelled)
        }
        for state in [ChangeRequestState.applied, .rejected, .cancelled] {
            var status = Self.inReview()
            status.state = state
            #expect(throws: ChangeRequestRefusal.wrongState(action: "cancel", state: state)) {
                try ChangeRequestMachine.cancel(status)
            }
        }
    }

    @Test func scheduleNeedsApprovalAndAFutureInstant() throws {
        #expect(throws: ChangeRequestRefusal.wrongState(action: "schedule", state: .review)) {
            try ChangeRequestMachine.schedule(Self.inReview(), at: 2_000, now: 1_000, rules: Self.two)
        }
        var approved = Self.inReview(approvers: ["bob", "carol"])
        approved.state = .approved
        #expect(throws: ChangeRequestRefusal.scheduleInPast(at: 1_000, now: 1_000)) {
            try ChangeRequestMachine.schedule(approved, at: 1_000, now: 1_000, rules: Self.two)
        }
        let scheduled = try ChangeRequestMachine.schedule(approved, at: 2_000, now: 1_000, rules: Self.two)
        #expect(scheduled.scheduledAt == 2_000)
        #expect(try ChangeRequestMachine.schedule(scheduled, at: nil, now: 1_500, rules: Self.two).scheduledAt == nil)
        // The environment now requires more approvals than were given.
        let three = ApprovalRules(requiredApprovals: 3, allowSelfApproval: false)
        #expect(throws: ChangeRequestRefusal.notApproved(required: 3, counted: 2)) {
            try ChangeRequestMachine.schedule(approved, at: 2_000, now: 1_000, rules: three)
        }
    }

    @Test func applyNeedsApprovalUnlessBypassed() throws {
        #expect(throws: ChangeRequestRefusal.notApproved(required: 2, counted: 1)) {
            try ChangeRequestMachine.apply(
                Self.inReview(approvers: ["bob"]), rules: Self.two, liveRevision: 3, bypass: false)
        }
        let draft = ChangeRequestStatus(state: .draft, author: "alice", baseRevision: 3)
        #expect(throws: ChangeRequestRefusal.wrongState(action: "apply", state: .draft)) {
            try ChangeRequestMachine.apply(draft, rules: Self.two, liveRevision: 3, bypass: false)
        }
        #expect(try ChangeRequestMachine.apply(draft, rules: Self.two, liveRevision: 3, bypass: true) == .publish)
        var approved = Self.inReview(approvers: ["bob", "carol"])
        approved.state = .approved
        #expect(try ChangeRequestMachine.apply(approved, rules: Self.two, liveRevision: 3, bypass: false) == .publish)
        // The author's own approval does not count where self-approval is forbidden.
        var selfApproved = Self.inReview(approvers: ["alice", "bob"])
        selfApproved.state = .approved
        #expect(throws: ChangeRequestRefusal.notApproved(required: 2, counted: 1)) {
            try ChangeRequestMachine.apply(selfApproved, rules: Self.two, liveRevision: 3, bypass: false)
        }
        for state in [ChangeRequestState.applied, .rejected, .cancelled, .stale] {
            var status = approved
            status.state = state
            #expect(throws: ChangeRequestRefusal.wrongState(action: "apply", state: state)) {
                try ChangeRequestMachine.apply(status, rules: Self.two, liveRevision: 3, bypass: true)
            }
        }
    }

    @Test func applyOverAnotherLiveRevisionMakesTheRequestStale() throws {
        var approved = Self.inReview(approvers: ["bob", "carol"], base: 3)
        approved.state = .approved
        approved.scheduledAt = 9_000
        let verdict = try ChangeRequestMachine.apply(approved, rules: Self.two, liveRevision: 4, bypass: false)
        guard case .stale(let stale) = verdict else {
            Issue.record("expected stale, got \(verdict)")
            return
        }
        #expect(stale.state == .stale)
        #expect(stale.scheduledAt == nil)
        #expect(stale.approvers == ["bob", "carol"])
    }

    @Test func rebaseMovesTheBaseAndStartsReviewAgain() throws {
        var stale = Self.inReview(approvers: ["bob", "carol"], base: 3)
        stale.state = .stale
        let rebased = try ChangeRequestMachine.rebase(stale, liveRevision: 4, rules: Self.two)
        #expect(rebased.state == .review)
        #expect(rebased.baseRevision == 4)
        #expect(rebased.approvers.isEmpty)
        #expect(try ChangeRequestMachine.rebase(stale, liveRevision: 4, rules: .none).state == .approved)
        var applied = stale
        applied.state = .applied
        #expect(throws: ChangeRequestRefusal.wrongState(action: "rebase", state: .applied)) {
            try ChangeRequestMachine.rebase(applied, liveRevision: 4, rules: Self.two)
        }
    }

    @Test func appliedIsFinalAndClearsTheSchedule() {
        var approved = Self.inReview(approvers: ["bob", "carol"])
        approved.state = .approved
        approved.scheduledAt = 1
        let applied = ChangeRequestMachine.applied(approved)
        #expect(applied.state == .applied)
        #expect(applied.state.isFinal)
        #expect(applied.scheduledAt == nil)
    }

    @Test func approvalRulesCountDistinctApproversWithoutTheAuthorWhereForbidden() {
        #expect(Self.two.counted(["alice", "bob", "bob", "carol"], author: "alice") == ["bob", "carol"])
        #expect(Self.selfAllowed.counted(["alice", "alice"], author: "alice") == ["alice"])
        #expect(ApprovalRules.none.isSatisfied(by: [], author: "alice"))
        #expect(!ApprovalRules.none.requiresChangeRequest)
        #expect(Self.two.requiresChangeRequest)
    }
}
