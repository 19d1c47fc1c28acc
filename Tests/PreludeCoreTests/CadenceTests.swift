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

    /// A denied camera user who dismisses every nudge, with the app asking the engine every 6 hours for 30 days:
    /// nudges at day 0 and 3 (72 h, then ×2 = 144 h would be day 9 but the cap is 2), the denied screen between.
    @Test func engineNudgesADeniedUserOnTheSettingsCadenceOverSimulatedDays() throws {
        let policy = ResolvedFeature(
            feature: .camera, strategy: .prime,
            cadence: Cadence(
                prime: CadenceRule(minIntervalHours: 24, backoff: 2, maxShows: 3),
                settings: CadenceRule(minIntervalHours: 72, backoff: 2, maxShows: 2),
                upgrade: CadenceRule(minIntervalHours: 24, backoff: 1, maxShows: 1)))
        var history = ScreenHistory.never
        var nudgeDays: [Double] = []
        var deniedScreens = 0
        var now = Self.start
        for _ in 0..<(4 * 30) {
            let state = ClientState(feature: .camera, status: .denied, history: [.settings: history])
            let decision = try DecisionEngine.decide(policy: policy, state: state, now: now)
            switch decision.action {
            case .openSettings:
                nudgeDays.append(now.seconds(since: Self.start) / Self.day)
                history = ScreenHistory(shownCount: history.shownCount + 1, lastShown: now, lastOutcome: .dismissed)
            case .deniedScreen:
                deniedScreens += 1
            default:
                Issue.record("unexpected \(decision.action)")
            }
            now = now.adding(seconds: 6 * 3_600)
        }
        #expect(nudgeDays == [0, 3])
        #expect(deniedScreens == 4 * 30 - 2)
    }

    /// Priming left without continuing, then the user continues on the third showing: wait, prime, system prompt.
    @Test func enginePrimesOnBackoffUntilTheUserContinues() throws {
        let policy = ResolvedFeature(
            feature: .microphone, strategy: .prime,
            cadence: Cadence(
                prime: CadenceRule(minIntervalHours: 12, backoff: 3, maxShows: 5),
                settings: .init(minIntervalHours: 1, backoff: 1, maxShows: 1),
                upgrade: .init(minIntervalHours: 1, backoff: 1, maxShows: 1)))
        var history = ScreenHistory.never
        var timeline: [String] = []
        var now = Self.start
        for _ in 0..<(24 * 4) {
            let state = ClientState(feature: .microphone, status: .notDetermined, history: [.prime: history])
            let decision = try DecisionEngine.decide(policy: policy, state: state, now: now)
            let hour = Int(now.seconds(since: Self.start) / 3_600)
            switch decision.action {
            case .prime:
                timeline.append("prime@\(hour)")
                let outcome: ScreenOutcome = history.shownCount == 2 ? .continued : .leftWithoutContinuing
                history = ScreenHistory(shownCount: history.shownCount + 1, lastShown: now, lastOutcome: outcome)
            case .systemPrompt:
                timeline.append("system@\(hour)")
            case .wait:
                #expect(decision.eligibleAt.map { $0 > now } == true)
            default:
                Issue.record("unexpected \(decision.action)")
            }
            if timeline.last?.hasPrefix("system") == true { break }
            now = now.adding(seconds: 3_600)
        }
        // 12 h, then 12 × 3 = 36 h later.
        #expect(timeline == ["prime@0", "prime@12", "prime@48", "system@49"])
    }
}
