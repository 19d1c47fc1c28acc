import Testing

@testable import PreludeCore

@Suite struct FunnelCountsTests {
    static func make(exposed: Int = 100, systemGranted: Int = 30, returnedGranted: Int = 5, granted: Int = 33)
        -> FunnelCounts
    {
        FunnelCounts(
            exposed: exposed, primeShown: 90, primeContinued: 60, primeDismissed: 40, systemGranted: systemGranted,
            systemDenied: 25, settingsOpened: 10, returnedGranted: returnedGranted, granted: granted)
    }

    @Test func consistentCountsHaveNoProblems() {
        #expect(Self.make().validationProblems().isEmpty)
        #expect(FunnelCounts().validationProblems().isEmpty)
    }

    @Test func grantedMustBeAtLeastEachPath() {
        let problems = Self.make(systemGranted: 30, granted: 29).validationProblems()
        #expect(problems == ["granted (29) is below max(systemGranted, returnedGranted) = 30"])
    }

    @Test func grantedCannotExceedTheUnionBound() {
        let problems = Self.make(systemGranted: 30, returnedGranted: 5, granted: 36).validationProblems()
        #expect(problems == ["granted (36) exceeds systemGranted + returnedGranted = 35"])
    }

    @Test func countsCannotExceedExposed() {
        let problems = Self.make(exposed: 80).validationProblems()
        #expect(problems == ["primeShown (90) exceeds exposed (80)"])
    }

    @Test func negativeCountsAreReported() {
        var counts = Self.make()
        counts.settingsOpened = -1
        #expect(counts.validationProblems() == ["settingsOpened is negative (-1)"])
    }

    /// Counts near Int.max once overflowed the sums below and in the sample-ratio check (found by the `results`
    /// fuzz target); they are refused before any arithmetic.
    @Test func countsBeyondTheLargestAnalysedAreReportedWithoutOverflow() {
        let huge = FunnelCounts(
            exposed: .max, primeShown: .max, systemGranted: .max, returnedGranted: .max, granted: .max)
        #expect(
            huge.validationProblems() == [
                "exposed (\(Int.max)) exceeds the largest count analysed (2^40)",
                "primeShown (\(Int.max)) exceeds the largest count analysed (2^40)",
                "systemGranted (\(Int.max)) exceeds the largest count analysed (2^40)",
                "returnedGranted (\(Int.max)) exceeds the largest count analysed (2^40)",
                "granted (\(Int.max)) exceeds the largest count analysed (2^40)",
            ])
        let atTheLimit = FunnelCounts(exposed: FunnelCounts.largestCount, granted: FunnelCounts.largestCount)
        #expect(
            atTheLimit.validationProblems() == ["granted (1099511627776) exceeds systemGranted + returnedGranted = 0"])
        let variants = [
            (name: "control", weight: 1.0, counts: huge), (name: "b", weight: 0.5, counts: FunnelCounts(exposed: 10)),
        ]
        #expect(throws: ExperimentAnalysisError.self) {
            try ExperimentAnalysis.analyze(experimentKey: "k", feature: "f", variants: variants, controlName: "control")
        }
    }

    @Test func fieldsListEveryCountInFunnelOrder() {
        #expect(
            Self.make().fields.map(\.name) == [
                "exposed", "primeShown", "primeContinued", "primeDismissed", "systemGranted", "systemDenied",
                "settingsOpened", "returnedGranted", "granted", "taskStarted", "taskCompleted",
            ])
        #expect(Self.make().fields.map(\.value) == [100, 90, 60, 40, 30, 25, 10, 5, 33, 0, 0])
    }
}

@Suite struct FunnelStepsTests {
    static let eventSteps: [(event: String, steps: FunnelSteps)] = [
        ("primeShown", [.exposed, .primeShown]),
        ("primeAccepted", [.exposed, .primeContinued]),
        ("primeDismissed", [.exposed, .primeDismissed]),
        ("systemGranted", [.exposed, .systemGranted]),
        ("systemDenied", [.exposed, .systemDenied]),
        ("settingsOpened", [.exposed, .settingsOpened]),
        ("returnedGranted", [.exposed, .returnedGranted]),
        ("settingsShown", .exposed),
        ("unsupportedShown", .exposed),
    ]

    @Test(arguments: eventSteps)
    func eventsMarkExposureAndTheirStep(_ c: (event: String, steps: FunnelSteps)) {
        #expect(FunnelSteps.marked(byEvent: c.event) == c.steps)
    }

    /// Folds events per install the way the service's incremental aggregation would.
    static func aggregate(_ events: [(install: String, event: String)]) -> FunnelCounts {
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

    static let events: [(install: String, event: String)] = [
        ("a", "primeShown"), ("a", "primeAccepted"), ("a", "systemGranted"),
        ("b", "primeShown"), ("b", "primeDismissed"), ("b", "primeShown"), ("b", "primeAccepted"),
        ("b", "systemDenied"), ("b", "settingsShown"), ("b", "settingsOpened"), ("b", "returnedGranted"),
        ("c", "primeShown"), ("c", "primeDismissed"),
        ("d", "systemGranted"), ("d", "settingsOpened"), ("d", "returnedGranted"),
    ]

    @Test func countsUniqueInstallsPerStep() {
        #expect(
            Self.aggregate(Self.events)
                == FunnelCounts(
                    exposed: 4, primeShown: 3, primeContinued: 2, primeDismissed: 2, systemGranted: 2, systemDenied: 1,
                    settingsOpened: 2, returnedGranted: 2, granted: 3))
    }

    @Test func duplicateEventsChangeNothing() {
        let duplicated = Self.events + Self.events.reversed() + Self.events
        #expect(Self.aggregate(duplicated) == Self.aggregate(Self.events))
    }

    @Test func aggregatesAreAlwaysConsistent() {
        #expect(Self.aggregate(Self.events).validationProblems().isEmpty)
    }
}
