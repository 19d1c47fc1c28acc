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

    @Test func fieldsListEveryCountInFunnelOrder() {
        #expect(
            Self.make().fields.map(\.name) == [
                "exposed", "primeShown", "primeContinued", "primeDismissed", "systemGranted", "systemDenied",
                "settingsOpened", "returnedGranted", "granted",
            ])
        #expect(Self.make().fields.map(\.value) == [100, 90, 60, 40, 30, 25, 10, 5, 33])
    }
}
