import Testing

@testable import PreludeCore

@Suite("Cadence over simulated time")
struct CadenceTests {
    static let day = 86_400.0
    static let start = Instant(secondsSinceEpoch: 1_700_000_000)

    static func makeRule(hours: Double = 24, backoff: Double = 2, max: Int = 4) -> CadenceRule {
        CadenceRule(minIntervalHours: hours, backoff: backoff, maxShows: max)
    }

    @Test func neverShownIsEligible() {
        let verdict = CadenceEvaluator.verdict(rule: Self.makeRule(), history: .never, now: Self.start)
        #expect(verdict == .eligible)
    }

    @Test func capOfZeroMeansNeverShown() {
        let verdict = CadenceEvaluator.verdict(rule: Self.makeRule(max: 0), history: .never, now: Self.start)
        #expect(verdict == .exhausted)
    }

    @Test func waitsUntilIntervalHasPassed() {
        let history = ScreenHistory(shownCount: 1, lastShown: Self.start, lastOutcome: .leftWithoutContinuing)
        let rule = Self.makeRule()
        let justBefore = Self.start.adding(seconds: Self.day - 1)
        #expect(
            CadenceEvaluator.verdict(rule: rule, history: history, now: justBefore)
                == .notBefore(Self.start.adding(seconds: Self.day)))
        #expect(
            CadenceEvaluator.verdict(rule: rule, history: history, now: Self.start.adding(seconds: Self.day))
                == .eligible)
    }

    @Test(arguments: [(1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0)])
    func intervalGrowsByBackoff(reshow: Int, days: Double) {
        #expect(CadenceEvaluator.interval(rule: Self.makeRule(max: 20), beforeReshow: reshow) == days * Self.day)
    }

    @Test func constantIntervalWithBackoffOne() {
        let rule = Self.makeRule(hours: 1, backoff: 1, max: 20)
        #expect(CadenceEvaluator.interval(rule: rule, beforeReshow: 5) == 3_600)
    }

    /// Simulates a user who leaves the screen every time it appears, and a client that asks
    /// every hour: the showings land at day 0, 1, 3, 7 and then stop at the cap of 4.
    @Test func simulatedUserLeavingEveryTimeIsShownOnBackoffScheduleUntilCap() {
        let rule = Self.makeRule()
        var history = ScreenHistory.never
        var shownAtDays: [Double] = []
        var now = Self.start
        var exhaustedAt: Instant?
        for _ in 0..<(24 * 40) {
            switch CadenceEvaluator.verdict(rule: rule, history: history, now: now) {
            case .eligible:
                shownAtDays.append(now.seconds(since: Self.start) / Self.day)
                history = ScreenHistory(
                    shownCount: history.shownCount + 1, lastShown: now, lastOutcome: .leftWithoutContinuing)
            case .notBefore(let next):
                #expect(next > now)
            case .exhausted:
                if exhaustedAt == nil { exhaustedAt = now }
            }
            now = now.adding(seconds: 3_600)
        }
        #expect(shownAtDays == [0, 1, 3, 7])
        #expect(exhaustedAt != nil)
    }

    @Test func exhaustedOnceCapReachedEvenLongAfter() {
        let history = ScreenHistory(shownCount: 4, lastShown: Self.start)
        let later = Self.start.adding(seconds: 365 * Self.day)
        #expect(CadenceEvaluator.verdict(rule: Self.makeRule(), history: history, now: later) == .exhausted)
    }

    @Test func missingLastShownFallsBackToTheCapOnly() {
        let history = ScreenHistory(shownCount: 2, lastShown: nil)
        #expect(CadenceEvaluator.verdict(rule: Self.makeRule(), history: history, now: Self.start) == .eligible)
    }

    @Test func clockGoingBackwardsWaitsRatherThanShows() {
        let history = ScreenHistory(shownCount: 1, lastShown: Self.start)
        let earlier = Self.start.adding(seconds: -10)
        #expect(
            CadenceEvaluator.verdict(rule: Self.makeRule(), history: history, now: earlier)
                == .notBefore(Self.start.adding(seconds: Self.day)))
    }
}
