import Testing

@testable import PreludeCore

/// The scheduled-publish machine: what is due at an instant, on values (no clock, no sleep).
@Suite struct PublishSchedulerTests {
    static let entries = [
        PublishScheduler.Entry(id: 3, state: .approved, scheduledAt: 2_000),
        PublishScheduler.Entry(id: 1, state: .approved, scheduledAt: 1_000),
        PublishScheduler.Entry(id: 2, state: .approved, scheduledAt: 1_000),
        PublishScheduler.Entry(id: 4, state: .approved, scheduledAt: 5_000),
    ]

    @Test func nothingIsDueBeforeItsInstant() {
        let plan = PublishScheduler(role: .primary).plan(Self.entries, now: 999)
        #expect(plan.due.isEmpty)
        #expect(plan.nextWake == 1_000)
    }

    @Test func dueRequestsComeEarliestFirstThenById() {
        let plan = PublishScheduler(role: .primary).plan(Self.entries, now: 2_000)
        #expect(plan.due == [1, 2, 3])
        #expect(plan.nextWake == 5_000)
    }

    @Test func anInstantMissedWhileDownIsDueAtTheFirstLook() {
        // A restart long after the instant: the request is still approved, so it is due once.
        let plan = PublishScheduler(role: .primary).plan(Self.entries, now: 1_000_000)
        #expect(plan.due == [1, 2, 3, 4])
        #expect(plan.nextWake == nil)
    }

    @Test func onlyApprovedRequestsAreApplied() {
        // After an apply the row is `applied`: the next look does not fire it again.
        let entries = Self.entries.map { entry in
            var entry = entry
            if entry.id == 1 { entry.state = .applied }
            if entry.id == 2 { entry.state = .stale }
            return entry
        }
        #expect(PublishScheduler(role: .primary).plan(entries, now: 2_000).due == [3])
    }

    @Test func aReplicaNeverApplies() {
        let plan = PublishScheduler(role: .replica).plan(Self.entries, now: 1_000_000)
        #expect(plan.due.isEmpty)
        #expect(plan.nextWake == nil)
    }
}
