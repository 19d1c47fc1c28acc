import PreludeCore
import PreludeTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Many simulated rollouts per population (``RolloutSimulator``): harm is stopped, harmless changes complete and
/// are stopped by mistake at most α of the time, broken assignment is stopped by the sample-ratio test.
///
/// CI runs 40 rollouts per population (a few seconds). The table in docs/rollouts.md comes from 1,000 (one
/// command): `ROLLOUT_SIMULATIONS=1000 swift test --filter RolloutSimulationTests` prints it.
@Suite struct RolloutSimulationTests {
    static let runs: Int = {
        guard let text = getenv("ROLLOUT_SIMULATIONS"), let value = Int(String(cString: text)), value > 0 else {
            return 40
        }
        return value
    }()

    /// The most false stops of `runs` harmless rollouts compatible with a true rate ≤ α: α·n plus three standard
    /// deviations.
    static func allowedFalseStops(runs: Int, alpha: Double) -> Int {
        let n = Double(runs)
        return Int((alpha * n + 3 * (n * alpha * (1 - alpha)).squareRoot()).rounded(.down))
    }

    @Test func simulatedRolloutsStopHarmAndSpareHarmlessChanges() {
        var simulator = RolloutSimulator(generator: SplitMix64(state: 2026_11_26))
        let summaries = RolloutSimulator.scenarios.map { simulator.summarize($0, runs: Self.runs) }
        print("Rollout simulation, \(Self.runs) rollouts per population (seed 20261126):\n")
        print(RolloutSimulator.table(summaries))
        let byName = Dictionary(uniqueKeysWithValues: summaries.map { ($0.scenario.name, $0) })
        let alpha = RolloutSimulator.plan.alpha

        for harmless in ["equal", "better by 5 points"] {
            let summary = byName[harmless]!
            #expect(summary.rolledBack <= Self.allowedFalseStops(runs: Self.runs, alpha: alpha), "\(harmless)")
            #expect(summary.completed + summary.rolledBack == summary.runs)
        }
        let gross = byName["worse by 10 points"]!
        #expect(gross.rolledBack * 100 >= gross.runs * 95, "a 10-point harm is stopped nearly always")
        #expect(gross.bySampleRatio * 100 <= gross.runs * 5, "harm is stopped by the harm tests, not by SRM")
        let moderate = byName["worse by 5 points"]!
        #expect(moderate.rolledBack * 100 >= moderate.runs * 90)
        let broken = byName["equal, 10 % of control installs lost"]!
        #expect(broken.bySampleRatio * 100 >= broken.runs * 90, "broken assignment is stopped by the SRM test")
        // Benefit finishes early: the better population is completed sooner than the equal one.
        #expect(byName["better by 5 points"]!.medianHours < byName["equal"]!.medianHours)
    }
}
