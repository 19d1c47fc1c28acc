import PreludeCore
import PreludeTestSupport

/// Simulated rollouts: installs reach the feature at a steady rate, are bucketed like the service buckets them
/// (``RolloutPlan/assignment(step:)`` and the documented bucket ranges), grant or deny by their arm's rates, and the
/// guard (``RolloutMachine``) is evaluated after every batch of arrivals, as the service does after every ingested
/// batch. docs/rollouts.md, "Simulation", has the table this produces.
struct RolloutSimulator {
    /// One population.
    struct Scenario: Sendable {
        /// A label for the table.
        var name: String
        /// The new arm's grant rate minus the old one's (absolute; −0.05 = five points worse).
        var effect: Double
        /// The share of the control arm's installs whose events never arrive (a broken assignment or logging).
        var controlLoss: Double = 0
    }

    /// What one simulated rollout ended with.
    struct Outcome: Sendable {
        var status: RolloutState.Status
        var trippedBy: [RolloutReading.Finding]
        /// Installs exposed to the new arm when the rollout ended.
        var rolloutExposed: Int
        /// Installs that reached the feature (all arms and the unenrolled) when it ended.
        var arrivals: Int
        /// Hours from the start to the end.
        var hours: Double
    }

    /// The plan every simulation uses: 5 → 25 → 50 → 100 %, one hour and 500 new-arm installs per step, α 0.05,
    /// minimum effect 2 points.
    static let plan = RolloutPlan(
        steps: [
            .init(percent: 5, minimumHoldMillis: 3_600_000, minimumExposed: 500),
            .init(percent: 25, minimumHoldMillis: 3_600_000, minimumExposed: 500),
            .init(percent: 50, minimumHoldMillis: 3_600_000, minimumExposed: 500),
            .init(percent: 100, minimumHoldMillis: 0, minimumExposed: 0),
        ], alpha: 0.05, minimumEffect: 0.02)

    /// The old behaviour's grant rate.
    static let baselineGrant = 0.40
    /// Of the installs that do not grant, the share that deny the system alert (the rest leave the priming screen).
    static let denyShare = 0.5
    /// Installs reaching the feature per hour, and per ingested batch.
    static let arrivalsPerHour = 10_000
    static let batch = 100

    var generator: SplitMix64

    /// Runs one rollout of `scenario` to its end (at most 48 simulated hours).
    mutating func run(_ scenario: Scenario, plan: RolloutPlan = plan) -> Outcome {
        var state = RolloutState()
        var now: Int64 = 0
        state = try! RolloutMachine.apply(.start, to: state, now: now, rolloutExposed: 0).state
        var control = FunnelCounts()
        var rollout = FunnelCounts()
        var arrivals = 0
        let millisPerInstall = Int64(3_600_000 / Self.arrivalsPerHour)
        while !state.status.isTerminal, now < 48 * 3_600_000 {
            let (weights, coverage) = plan.assignment(step: state.step)
            let ranges = Bucketing.bucketRanges(count: 2, coverage: coverage, weights: weights.map { $0 / 100 })
            for _ in 0..<Self.batch {
                arrivals += 1
                now += millisPerInstall
                let bucket = Double(generator.below(10_000)) / 10_000  // hashing version 2 gives 4 decimals
                guard let arm = Bucketing.chooseVariation(bucket, ranges: ranges) else { continue }
                if arm == 0 {
                    if generator.chance(scenario.controlLoss) { continue }
                    record(into: &control, grantRate: Self.baselineGrant)
                } else {
                    record(into: &rollout, grantRate: Self.baselineGrant + scenario.effect)
                }
            }
            let evaluation = RolloutMachine.evaluate(state, plan: plan, control: control, rollout: rollout, now: now)
            state = evaluation.state
        }
        return Outcome(
            status: state.status, trippedBy: state.trippedBy, rolloutExposed: rollout.exposed, arrivals: arrivals,
            hours: Double(now) / 3_600_000)
    }

    private mutating func record(into counts: inout FunnelCounts, grantRate: Double) {
        counts.exposed += 1
        if generator.chance(grantRate) {
            counts.granted += 1
            counts.systemGranted += 1
        } else if generator.chance(Self.denyShare) {
            counts.systemDenied += 1
        }
    }

    /// The summary of many runs of one scenario.
    struct Summary: Sendable {
        var scenario: Scenario
        var runs: Int
        var rolledBack: Int
        var bySampleRatio: Int
        var completed: Int
        /// Median installs exposed to the new arm when a rollout was stopped (nil when none was).
        var medianExposedAtStop: Int?
        /// 90th percentile of the same.
        var p90ExposedAtStop: Int?
        /// Median hours to the end (stopped or completed).
        var medianHours: Double
    }

    mutating func summarize(_ scenario: Scenario, runs: Int) -> Summary {
        let outcomes = (0..<runs).map { _ in run(scenario) }
        let stopped = outcomes.filter { $0.status == .rolledBack }
        let exposed = stopped.map(\.rolloutExposed).sorted()
        let hours = outcomes.map(\.hours).sorted()
        return Summary(
            scenario: scenario, runs: runs, rolledBack: stopped.count,
            bySampleRatio: stopped.filter { $0.trippedBy.contains(.sampleRatioMismatch) }.count,
            completed: outcomes.filter { $0.status == .completed }.count,
            medianExposedAtStop: exposed.isEmpty ? nil : exposed[exposed.count / 2],
            p90ExposedAtStop: exposed.isEmpty ? nil : exposed[min(exposed.count - 1, exposed.count * 9 / 10)],
            medianHours: hours[hours.count / 2])
    }

    /// The scenarios of the docs table.
    static let scenarios: [Scenario] = [
        Scenario(name: "better by 5 points", effect: 0.05),
        Scenario(name: "equal", effect: 0),
        Scenario(name: "worse by 2 points", effect: -0.02),
        Scenario(name: "worse by 5 points", effect: -0.05),
        Scenario(name: "worse by 10 points", effect: -0.10),
        Scenario(name: "equal, 10 % of control installs lost", effect: 0, controlLoss: 0.10),
    ]

    /// A Markdown table of summaries.
    static func table(_ summaries: [Summary]) -> String {
        func percent(_ count: Int, of runs: Int) -> String {
            let tenths = (count * 1000 + runs / 2) / runs
            return "\(tenths / 10).\(tenths % 10) %"
        }
        var lines = [
            "| population | runs | stopped (rolled back) | of which by SRM | completed | new-arm installs at stop, median / p90 | median hours to the end |",
            "|---|---|---|---|---|---|---|",
        ]
        for summary in summaries {
            let atStop = summary.medianExposedAtStop.map { "\($0) / \(summary.p90ExposedAtStop ?? $0)" } ?? "–"
            let hoursTenths = Int((summary.medianHours * 10).rounded())
            lines.append(
                "| \(summary.scenario.name) | \(summary.runs) | \(percent(summary.rolledBack, of: summary.runs)) | "
                    + "\(percent(summary.bySampleRatio, of: summary.runs)) | "
                    + "\(percent(summary.completed, of: summary.runs)) | \(atStop) | "
                    + "\(hoursTenths / 10).\(hoursTenths % 10) |")
        }
        return lines.joined(separator: "\n")
    }
}
