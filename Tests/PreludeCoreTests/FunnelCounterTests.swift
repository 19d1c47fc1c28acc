import PreludeCore
import PreludeTestSupport
import Testing

/// The one list of funnel steps and figures: each event's step, each step's figure, and FunnelCounts' fields, sums
/// and increments derived from the list (the store's side is FunnelColumnsTests).
@Suite struct FunnelCounterTests {
    /// The figures' JSON names, in funnel order: part of the results API (docs/results.md).
    static let names = [
        "exposed", "primeShown", "primeContinued", "primeDismissed", "systemGranted", "systemDenied",
        "settingsOpened", "returnedGranted", "granted", "taskStarted", "taskCompleted",
    ]

    @Test func fieldsFollowTheCounters() {
        #expect(FunnelCounter.allCases.map(\.name) == Self.names)
        #expect(FunnelCounts().fields.map(\.name) == Self.names)
    }

    /// The subscript reaches the property of the same name, and nothing else.
    @Test(arguments: FunnelCounter.allCases)
    func subscriptReachesItsOwnProperty(counter: FunnelCounter) {
        var counts = FunnelCounts()
        counts[counter] = 7
        #expect(counts.fields.filter { $0.value != 0 }.map(\.name) == [counter.name])
        #expect(counts[counter] == 7)
    }

    @Test func sumAddsEveryFigure() {
        var one = FunnelCounts()
        var other = FunnelCounts()
        for (index, counter) in FunnelCounter.allCases.enumerated() {
            one[counter] = index
            other[counter] = 100 * index
        }
        #expect((one + other).fields.map(\.value) == FunnelCounter.allCases.indices.map { 101 * $0 })
    }

    /// The stored bits of the steps never change (they are in `experiment_install_steps.steps`).
    @Test func stepBitsAreStable() {
        #expect(FunnelStep.allCases.map(\.rawValue) == Array(0..<10))
        #expect(FunnelSteps.taskCompleted.rawValue == 1 << 9)
        #expect(
            FunnelStep.allCases.map { FunnelCounter($0).name } == Self.names.filter { $0 != "granted" })
    }

    /// An event marks exposure and the step it names (the mapping itself is pinned by AggregatorTests), by value or
    /// by its public-API name alike.
    @Test(arguments: AnalyticsEvent.allCases)
    func eventsMarkExposureAndTheirStep(event: AnalyticsEvent) {
        let marked = FunnelSteps.marked(by: event)
        #expect(marked == FunnelSteps.marked(byEvent: event.rawValue))
        #expect(marked == FunnelSteps.exposed.union(event.funnelStep.map { FunnelSteps($0) } ?? []))
    }

    @Test func anUnknownEventNameMarksExposureOnly() {
        #expect(FunnelSteps.marked(byEvent: "somethingNew") == .exposed)
    }

    /// Increments over random step sets against the rules written out one by one.
    @Test func incrementsFollowEachFiguresRule() {
        var random = SplitMix64(state: 41)
        for _ in 0..<2000 {
            let old = FunnelSteps(rawValue: random.below(1024))
            let new = old.union(FunnelSteps(rawValue: random.below(1024)))
            var counts = FunnelCounts()
            counts.add(from: old, to: new)
            let reached = new.subtracting(old)
            func one(_ condition: Bool) -> Int { condition ? 1 : 0 }
            let expected = FunnelCounts(
                exposed: one(reached.contains(.exposed)), primeShown: one(reached.contains(.primeShown)),
                primeContinued: one(reached.contains(.primeContinued)),
                primeDismissed: one(reached.contains(.primeDismissed)),
                systemGranted: one(reached.contains(.systemGranted)),
                systemDenied: one(reached.contains(.systemDenied)),
                settingsOpened: one(reached.contains(.settingsOpened)),
                returnedGranted: one(reached.contains(.returnedGranted)),
                granted: one(new.isGranted && !old.isGranted), taskStarted: one(reached.contains(.taskStarted)),
                taskCompleted: one(new.isTaskCompleted && !old.isTaskCompleted))
            #expect(counts == expected, "\(old.rawValue) → \(new.rawValue)")
        }
    }

    /// Every figure is shown in one measure's table; the task figures only in task success.
    @Test func everyFigureHasItsTable() {
        #expect(FunnelCounter.allCases.filter { $0.measure == .taskCompletion } == [.taskStarted, .taskCompleted])
    }
}
