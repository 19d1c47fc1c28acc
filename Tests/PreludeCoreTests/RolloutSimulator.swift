import PreludeCore
import PreludeTestSupport

/// Simulated rollouts: installs reach the feature at a steady rate, are bucketed like the service buckets them
/// (``RolloutPlan/assignment(step:)`` and the documented bucket ranges), each with an OS major version and a locale,
/// grant or deny by their arm's (and segment's) rates, and the guard (``RolloutMachine``) is evaluated after every
/// batch of arrivals, as the service does after every ingested batch. A carved-out segment's installs in the new
/// arm get the old behaviour from then on, as the published targeting rule gives them. docs/rollouts.md,
/// "Simulation", has the tables this produces.
struct RolloutSimulator {
    /// One population.
    struct Scenario: Sendable {
        /// A label for the table.
        var name: String
        /// The new arm's grant rate minus the old one's (absolute; −0.05 = five points worse).
        var effect: Double
        /// The share of the control arm's installs whose events never arrive (a broken assignment or logging).
        var controlLoss: Double = 0
        /// Extra grant-rate change in one locale only (e.g. `("de", -0.10)`).
        var localeEffect: (locale: String, effect: Double)? = nil
        /// Whether the plan guards segments (OS major version and locale).
        var guardsSegments = false
    }

    /// What one simulated rollout ended with.
    struct Outcome: Sendable {
        var status: RolloutState.Status
        /// Rolled back: what tripped it; held: what held it.
        var stoppedBy: [RolloutReading.Finding]
        var excluded: [RolloutSegment]
        /// Installs exposed to the new arm when the rollout ended.
        var rolloutExposed: Int
        /// Installs that reached the feature (all arms and the unenrolled) when it ended.
        var arrivals: Int
        /// Hours from the start to the end.
        var hours: Double
        /// Whether the harm bound was below the true expected extra denied installs at some evaluation.
        var boundMissed: Bool

        /// Stopped by the guard: rolled back or held.
        var stopped: Bool { status == .rolledBack || status == .paused }
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

    /// The same plan guarding both segment dimensions.
    static let segmentPlan: RolloutPlan = {
        var guarded = RolloutSimulator.plan
        guarded.segmentGuard = [.osMajor, .locale]
        return guarded
    }()

    /// The old behaviour's grant rate.
    static let baselineGrant = 0.40
    /// Of the installs that do not grant, the share that deny the system alert (the rest leave the priming screen).
    static let denyShare = 0.5
    /// Installs reaching the feature per hour, and per ingested batch.
    static let arrivalsPerHour = 10_000
    static let batch = 100
    /// The locales and OS versions installs come from, with their shares.
    static let locales: [(String, Double)] = [("en", 0.55), ("de", 0.1), ("fr", 0.2), ("ja", 0.15)]
    static let osMajors: [(String, Double)] = [("18", 0.6), ("17", 0.3), ("16", 0.1)]

    var generator: SplitMix64

    private mutating func pick(_ values: [(String, Double)]) -> Int {
        var u = generator.unit()
        for (index, value) in values.enumerated() {
            if u < value.1 { return index }
            u -= value.1
        }
        return values.count - 1
    }

    /// Runs one rollout of `scenario` to its end (at most 48 simulated hours).
    mutating func run(_ scenario: Scenario) -> Outcome {
        let plan = scenario.guardsSegments ? Self.segmentPlan : Self.plan
        var state = RolloutState()
        var now: Int64 = 0
        state = try! RolloutMachine.apply(.start, to: state, now: now, rolloutExposed: 0).state
        var control = FunnelCounts()
        var rollout = FunnelCounts()
        var segments = [[(FunnelCounts, FunnelCounts)]](
            repeating: [], count: 2)
        segments[0] = Self.osMajors.map { _ in (FunnelCounts(), FunnelCounts()) }
        segments[1] = Self.locales.map { _ in (FunnelCounts(), FunnelCounts()) }
        var arrivals = 0
        var boundMissed = false
        let millisPerInstall = Int64(3_600_000 / Self.arrivalsPerHour)
        // The expected extra denials per new-arm install: the denial rate is (1 − grant) · denyShare.
        let harmPerInstall = -scenario.effect * Self.denyShare
        while state.status == .running || state.status == .awaitingApproval, now < 48 * 3_600_000 {
            let (weights, coverage) = plan.assignment(step: state.step)
            let ranges = Bucketing.bucketRanges(count: 2, coverage: coverage, weights: weights.map { $0 / 100 })
            let excluded = Set(state.excludedSegments.map(\.value))
            for _ in 0..<Self.batch {
                arrivals += 1
                now += millisPerInstall
                let bucket = Double(generator.below(10_000)) / 10_000  // hashing version 2 gives 4 decimals
                let os = pick(Self.osMajors)
                let locale = pick(Self.locales)
                guard let arm = Bucketing.chooseVariation(bucket, ranges: ranges) else { continue }
                if arm == 0 {
                    if generator.chance(scenario.controlLoss) { continue }
                    let outcome = record(into: &control, grantRate: Self.baselineGrant)
                    segments[0][os].0.add(outcome)
                    segments[1][locale].0.add(outcome)
                } else {
                    var rate = Self.baselineGrant + scenario.effect
                    let name = Self.locales[locale].0
                    if let special = scenario.localeEffect, special.locale == name, !excluded.contains(name) {
                        rate += special.effect
                    }
                    if excluded.contains(name) { rate = Self.baselineGrant }
                    let outcome = record(into: &rollout, grantRate: rate)
                    segments[0][os].1.add(outcome)
                    segments[1][locale].1.add(outcome)
                }
            }
            var rows: [RolloutSegmentCounts] = []
            if scenario.guardsSegments {
                for (index, value) in Self.osMajors.enumerated() {
                    rows.append(
                        RolloutSegmentCounts(
                            segment: RolloutSegment(.osMajor, value.0), control: segments[0][index].0,
                            rollout: segments[0][index].1))
                }
                for (index, value) in Self.locales.enumerated() {
                    rows.append(
                        RolloutSegmentCounts(
                            segment: RolloutSegment(.locale, value.0), control: segments[1][index].0,
                            rollout: segments[1][index].1))
                }
            }
            let evaluation = RolloutMachine.evaluate(
                state, plan: plan, observation: RolloutObservation(control: control, rollout: rollout, segments: rows),
                now: now, carvable: [.locale])
            if Double(rollout.exposed) * harmPerInstall > evaluation.reading.harmBound + 1e-9 { boundMissed = true }
            state = evaluation.state
        }
        return Outcome(
            status: state.status, stoppedBy: state.status == .rolledBack ? state.trippedBy : state.heldBy,
            excluded: state.excludedSegments, rolloutExposed: rollout.exposed, arrivals: arrivals,
            hours: Double(now) / 3_600_000, boundMissed: boundMissed)
    }

    /// One install's outcome: granted, denied or neither.
    enum InstallOutcome { case granted, denied, neither }

    private mutating func record(into counts: inout FunnelCounts, grantRate: Double) -> InstallOutcome {
        let outcome: InstallOutcome =
            generator.chance(grantRate) ? .granted : generator.chance(Self.denyShare) ? .denied : .neither
        counts.add(outcome)
        return outcome
    }

    /// The summary of many runs of one scenario.
    struct Summary: Sendable {
        var scenario: Scenario
        var runs: Int
        var rolledBack: Int
        var held: Int
        var bySampleRatio: Int
        var carvedOut: Int
        var completed: Int
        /// Median installs exposed to the new arm when a rollout was stopped (nil when none was).
        var medianExposedAtStop: Int?
        /// 90th percentile of the same.
        var p90ExposedAtStop: Int?
        /// Median hours to the end (stopped or completed).
        var medianHours: Double
        /// Runs whose harm bound missed the true extra denials at some evaluation.
        var boundMisses: Int

        var stopped: Int { rolledBack + held }
    }

    mutating func summarize(_ scenario: Scenario, runs: Int) -> Summary {
        let outcomes = (0..<runs).map { _ in run(scenario) }
        let stopped = outcomes.filter(\.stopped)
        let exposed = stopped.map(\.rolloutExposed).sorted()
        let hours = outcomes.map(\.hours).sorted()
        return Summary(
            scenario: scenario, runs: runs, rolledBack: outcomes.filter { $0.status == .rolledBack }.count,
            held: outcomes.filter { $0.status == .paused }.count,
            bySampleRatio: stopped.filter { $0.stoppedBy.contains(.sampleRatioMismatch) }.count,
            carvedOut: outcomes.filter { !$0.excluded.isEmpty }.count,
            completed: outcomes.filter { $0.status == .completed }.count,
            medianExposedAtStop: exposed.isEmpty ? nil : exposed[exposed.count / 2],
            p90ExposedAtStop: exposed.isEmpty ? nil : exposed[min(exposed.count - 1, exposed.count * 9 / 10)],
            medianHours: hours[hours.count / 2], boundMisses: outcomes.filter(\.boundMissed).count)
    }

    /// The scenarios of the docs table.
    static let scenarios: [Scenario] = [
        Scenario(name: "better by 5 points", effect: 0.05),
        Scenario(name: "equal", effect: 0),
        Scenario(name: "worse by 2 points", effect: -0.02),
        Scenario(name: "worse by 5 points", effect: -0.05),
        Scenario(name: "worse by 10 points", effect: -0.10),
        Scenario(name: "equal, 10 % of control installs lost", effect: 0, controlLoss: 0.10),
        Scenario(name: "equal, 7 segments guarded", effect: 0, guardsSegments: true),
        Scenario(name: "worse by 5 points, 7 segments guarded", effect: -0.05, guardsSegments: true),
        Scenario(
            name: "worse by 20 points in de only, 7 segments guarded", effect: 0, localeEffect: ("de", -0.20),
            guardsSegments: true),
    ]

    static func percent(_ count: Int, of runs: Int) -> String {
        let tenths = (count * 1000 + runs / 2) / runs
        return "\(tenths / 10).\(tenths % 10) %"
    }

    /// A Markdown table of summaries.
    static func table(_ summaries: [Summary]) -> String {
        var lines = [
            "| population | runs | stopped: rolled back + held | of which by SRM | `de` carved out | completed | new-arm installs at stop, median / p90 | median hours to the end |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for summary in summaries {
            let atStop = summary.medianExposedAtStop.map { "\($0) / \(summary.p90ExposedAtStop ?? $0)" } ?? "–"
            let hoursTenths = Int((summary.medianHours * 10).rounded())
            lines.append(
                "| \(summary.scenario.name) | \(summary.runs) | \(percent(summary.stopped, of: summary.runs)) "
                    + "(\(summary.rolledBack) + \(summary.held)) | "
                    + "\(percent(summary.bySampleRatio, of: summary.runs)) | "
                    + "\(percent(summary.carvedOut, of: summary.runs)) | "
                    + "\(percent(summary.completed, of: summary.runs)) | \(atStop) | "
                    + "\(hoursTenths / 10).\(hoursTenths % 10) |")
        }
        return lines.joined(separator: "\n")
    }
}

extension FunnelCounts {
    fileprivate mutating func add(_ outcome: RolloutSimulator.InstallOutcome) {
        exposed += 1
        switch outcome {
        case .granted:
            granted += 1
            systemGranted += 1
        case .denied: systemDenied += 1
        case .neither: break
        }
    }
}
