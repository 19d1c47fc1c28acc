import Testing

@testable import PreludeCore

/// Task success (docs/results.md, "Task success"): unique installs that started a task, and that started and
/// completed one, per arm; compared like the grant rate.
@Suite struct TaskCompletionTests {
    static func fold(_ events: [(install: String, event: String)]) -> FunnelCounts {
        var perInstall: [String: FunnelSteps] = [:]
        var counts = FunnelCounts()
        for (install, event) in events {
            let old = perInstall[install] ?? []
            let new = old.union(.marked(byEvent: event))
            counts.add(from: old, to: new)
            perInstall[install] = new
        }
        #expect(counts == FunnelCounts(installs: perInstall.values))
        return counts
    }

    @Test func completedCountsOnlyInstallsThatAlsoStarted() {
        let counts = Self.fold([
            ("a", "taskStarted"), ("a", "taskCompleted"), ("a", "taskStarted"), ("a", "taskCompleted"),
            ("b", "taskStarted"),
            ("c", "taskCompleted"),  // a completion without a start: exposure only, never a success
            ("d", "taskCompleted"), ("d", "taskStarted"),  // the offline queue may deliver out of order
        ])
        #expect(counts.exposed == 4)
        #expect(counts.taskStarted == 3)
        #expect(counts.taskCompleted == 2)
        #expect(counts.validationProblems().isEmpty)
    }

    @Test func moreCompletedThanStartedIsRefused() {
        let counts = FunnelCounts(exposed: 10, taskStarted: 3, taskCompleted: 4)
        #expect(counts.validationProblems() == ["taskCompleted (4) exceeds taskStarted (3)"])
    }

    /// The picker arm of an ask-vs-picker experiment grants nothing (it never asks) but completes more tasks: the
    /// grant verdict cannot see it, the task verdict does, with the same Wilson interval and sequential test.
    @Test func taskCompletionIsComparedWithTheSameStatistics() throws {
        let ask = FunnelCounts(
            exposed: 2_000, primeShown: 2_000, primeContinued: 1_400, systemGranted: 1_000, systemDenied: 400,
            granted: 1_000, taskStarted: 2_000, taskCompleted: 1_050)
        let picker = FunnelCounts(exposed: 2_000, taskStarted: 2_000, taskCompleted: 1_700)
        let report = try ExperimentAnalysis.analyze(
            experimentKey: "photos-ask-vs-picker", feature: "photos",
            variants: [("ask", 50, ask), ("picker", 50, picker)], controlName: "ask")
        let arm = report.variants[1]
        #expect(arm.grantRate == 0)
        #expect(arm.verdict == .worse)
        #expect(arm.taskCompletionRate == 0.85)
        #expect(arm.taskVerdict == .better)
        let comparison = try #require(arm.taskComparison)
        #expect(abs(comparison.difference - 0.325) < 1e-12)
        let expectedInterval = try #require(
            SequentialTest.interval(
                treatmentSuccesses: 1_700, treatmentTrials: 2_000, controlSuccesses: 1_050, controlTrials: 2_000,
                mixingVariance: SequentialTest.mixingVariance(minimumEffect: 0.02), alpha: 0.05))
        #expect(comparison.sequentialInterval == expectedInterval)
        #expect(
            arm.taskCompletionRateInterval
                == ProportionStatistics.wilsonInterval(successes: 1_700, trials: 2_000, z: 1.959963984540054))
        #expect(report.variants[0].taskVerdict == nil)
        // JSON carries the same figures.
        let json = report.encodeJSON().serialized()
        #expect(json.contains("\"taskCompletionRate\":0.85"))
        #expect(json.contains("\"taskVerdict\":\"better\""))
        #expect(report.renderTable().contains("Task completion = task done / task started"))
    }

    @Test func withoutTasksThereIsNoTaskFigure() throws {
        let report = try ExperimentAnalysis.analyze(
            experimentKey: "k", feature: "camera",
            variants: [
                ("control", 1, FunnelCounts(exposed: 500, granted: 0)),
                ("b", 1, FunnelCounts(exposed: 500, systemGranted: 10, granted: 10)),
            ], controlName: "control")
        #expect(report.variants[1].taskCompletionRate == nil)
        #expect(report.variants[1].taskComparison == nil)
        #expect(report.variants[1].taskVerdict == .insufficientData)
        #expect(!report.renderTable().contains("task"))
    }
}
