/// Time to detection before a rollout starts (docs/rollouts.md, "Time to detection"): for a few true harms, how
/// many installs and hours the guard needs to stop the plan, and the extra denied installs spent meanwhile.
///
/// It runs ``RolloutMachine`` on the **expected path**: installs arrive at the app's recent rate, split between the
/// arms exactly as the plan's buckets split them, and grant and deny at their expected rates (the old behaviour's
/// rates from the app's own aggregates; the new arm's grant rate lowered by the harm, the lost grants denying in
/// the proportion non-granting installs deny today). The guard is evaluated every ``evaluationSeconds`` of traffic
/// (at least every 100 installs), as the service does after ingested batches. On the expected path the statistic
/// crosses its threshold about when half of real rollouts are stopped, so the answer estimates the median; the
/// simulation tests hold it to the simulator's medians.
public enum RolloutForecast {
    /// The traffic and baseline the forecast assumes.
    public struct Baseline: Sendable, Hashable {
        /// Installs reaching the feature per hour (all of them, enrolled or not).
        public var installsPerHour: Double
        /// The old behaviour's grant rate (granted / exposed).
        public var grantRate: Double
        /// The old behaviour's denial rate (systemDenied / exposed).
        public var denialRate: Double

        /// Creates a baseline.
        public init(installsPerHour: Double, grantRate: Double, denialRate: Double) {
            self.installsPerHour = installsPerHour
            self.grantRate = grantRate
            self.denialRate = denialRate
        }
    }

    /// One harm's estimate.
    public struct Estimate: Sendable, Hashable {
        /// The true change of the grant rate (−0.05: five points worse).
        public var effect: Double
        /// How the rollout ends on the expected path: `rolledBack`, `paused` (held), `completed`, or `running` when
        /// the horizon passed first.
        public var outcome: RolloutState.Status
        /// What stopped it (empty unless stopped).
        public var findings: [RolloutReading.Finding]
        /// Installs exposed to the new arm when it ended.
        public var rolloutInstalls: Int
        /// Hours from the start to the end.
        public var hours: Double
        /// Expected extra denied installs caused meanwhile: new-arm installs × the denial-rate increase.
        public var extraDenied: Double

        /// The estimate as JSON.
        public var jsonValue: JSONValue {
            .object(
                JSONObject([
                    ("grantRateChange", .double(effect)), ("outcome", .string(outcome.rawValue)),
                    ("stoppedBy", .array(findings.map { .string($0.rawValue) })),
                    ("rolloutInstalls", .integer(rolloutInstalls)),
                    ("hours", .double((hours * 10).rounded() / 10)),
                    ("extraDeniedInstalls", .double(extraDenied.rounded())),
                ]))
        }
    }

    /// The harms every forecast answers for: 2, 5 and 10 points of grant rate.
    public static let harms = [-0.02, -0.05, -0.10]
    /// Traffic time between two evaluations on the expected path.
    public static let evaluationSeconds = 5.0
    /// The longest forecast horizon: 30 days.
    public static let horizonHours = 720.0

    /// The estimates of `plan` for each of ``harms`` with `baseline`.
    public static func estimate(_ plan: RolloutPlan, baseline: Baseline) -> [Estimate] {
        harms.map { estimate(plan, baseline: baseline, effect: $0) }
    }

    /// The estimate for one true grant-rate change `effect`.
    public static func estimate(_ plan: RolloutPlan, baseline: Baseline, effect: Double) -> Estimate {
        let grant = clamp(baseline.grantRate)
        let deny = clamp(baseline.denialRate)
        let denyShare = grant < 1 ? min(1, deny / (1 - grant)) : 0
        let newGrant = clamp(grant + effect)
        let newDeny = clamp((1 - newGrant) * denyShare)
        let perHour = max(baseline.installsPerHour, 1)
        let perEvaluation = max(100, perHour * evaluationSeconds / 3600)
        var state = RolloutState()
        var now: Int64 = 0
        guard let started = try? RolloutMachine.apply(.start, to: state, now: now, rolloutExposed: 0) else {
            return Estimate(effect: effect, outcome: .draft, findings: [], rolloutInstalls: 0, hours: 0, extraDenied: 0)
        }
        state = started.state
        var controlInstalls = 0.0
        var rolloutInstalls = 0.0
        let millisPerEvaluation = Int64(perEvaluation / perHour * 3_600_000)
        let horizon = Int64(horizonHours * 3_600_000)
        var findings: [RolloutReading.Finding] = []
        while state.status == .running, now < horizon {
            let (weights, coverage) = plan.assignment(step: state.step)
            now += millisPerEvaluation
            controlInstalls += perEvaluation * coverage * weights[0] / 100
            rolloutInstalls += perEvaluation * coverage * weights[1] / 100
            let control = counts(controlInstalls, grant: grant, deny: deny)
            let rollout = counts(rolloutInstalls, grant: newGrant, deny: newDeny)
            let evaluation = RolloutMachine.evaluate(
                state, plan: plan, observation: RolloutObservation(control: control, rollout: rollout), now: now)
            state = evaluation.state
            findings = state.status == .rolledBack ? state.trippedBy : state.heldBy
        }
        let installs = Int(rolloutInstalls.rounded(.down))
        return Estimate(
            effect: effect, outcome: state.status,
            findings: state.status == .rolledBack || state.status == .paused ? findings : [],
            rolloutInstalls: installs, hours: Double(now) / 3_600_000,
            extraDenied: Double(installs) * max(0, newDeny - deny))
    }

    private static func clamp(_ rate: Double) -> Double { rate.isFinite ? min(1, max(0, rate)) : 0 }

    private static func counts(_ installs: Double, grant: Double, deny: Double) -> FunnelCounts {
        let exposed = Int(installs.rounded(.down))
        var counts = FunnelCounts()
        counts.exposed = exposed
        counts.granted = Int((Double(exposed) * grant).rounded())
        counts.systemGranted = counts.granted
        counts.systemDenied = Int((Double(exposed) * deny).rounded())
        return counts
    }
}
