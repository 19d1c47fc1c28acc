import PreludeCore
import PreludeStore
import Testing

@testable import PreludeService

/// The rollout page's markers come from the rollout's audit records: one per step, guard trip, completion and
/// abort, on the record's day, labelled with its time and what happened.
@Suite struct RolloutPageTests {
    private func record(_ action: String, at millis: Int64, actor: String = "rollout-guard", _ detail: String)
        -> AuditLog.Entry
    {
        AuditLog.Entry(
            id: millis, occurredAt: millis, actor: actor, app: "demo", environment: "production", action: action,
            revision: nil, detail: detail)
    }

    @Test func everyStepAndDecisionIsMarkedOnItsDay() {
        let day: Int64 = 20_418  // 2025-11-26
        let midnight = day * 86_400_000
        let markers = RolloutPage.markers([
            record(
                "rollout.step", at: midnight + 9 * 3_600_000 + 5 * 60_000, actor: "ops",
                #"{"rollout": 3, "step": 0, "percent": 5}"#),
            record("rollout.step", at: midnight + 86_400_000, #"{"rollout": 3, "step": 1, "percent": 2.5}"#),
            record(
                "rollout.guardTripped", at: midnight + 86_400_000 + 23 * 3_600_000 + 59 * 60_000,
                #"{"rollout": 3, "figures": {"findings": ["sampleRatioMismatch"]}}"#),
            record("policy.replace", at: midnight + 3 * 86_400_000, #"{}"#),
            record("rollout.abort", at: midnight + 4 * 86_400_000, actor: "ops", #"{"rollout": 3}"#),
        ])
        #expect(markers.map(\.x) == [20_418, 20_419, 20_419, 20_422])
        #expect(
            markers.map(\.label) == [
                "09:05 UTC step 1 (5 %)", "00:00 UTC step 2 (2.5 %)",
                "23:59 UTC guard tripped (sampleRatioMismatch): rolled back", "00:00 UTC aborted by ops",
            ])
    }
}
