import PreludeCore
import PreludeTestSupport

/// Synthetic traffic on the demo's `photos-ask-vs-picker` experiment ("ask less" measured by task success).
package enum TaskTraffic {
    package static let experiment = "photos-ask-vs-picker"

    /// Installs assigned by the documented bucketing over the demo's experiment (so nothing is mislabelled). The
    /// ask arm primes and asks: a task completes only when access is granted. The picker arm presents PhotosPicker
    /// and completes whenever the person picks something. Returns the events and the tally of what was simulated.
    package static func events(installs: Int, seed: UInt64) throws -> (
        events: [TestEvent], truth: [String: FunnelCounts]
    ) {
        let document = PolicyDocument.decode(try JSONParser().parse(ResultsFixture.demoText)).document
        guard let definition = document.experiments.first(where: { $0.key == experiment }) else {
            throw ResultsFixture.Failure.notAnObject
        }
        var generator = SplitMix64(state: seed)
        var events: [TestEvent] = []
        var truth: [String: FunnelCounts] = [:]
        for index in 0..<installs {
            let install = "photos-install-\(index)"
            guard
                let arm = Bucketing.assign(
                    seed: definition.hashSeed, installId: install, weights: definition.variants.map(\.weight),
                    coverage: definition.coverage)
            else { throw ResultsFixture.Failure.notAnObject }
            let variant = definition.variants[arm].name
            var types = ["taskStarted"]
            var counts = FunnelCounts(exposed: 1, taskStarted: 1)
            if variant == "ask" {
                types.append("primeShown")
                counts.primeShown = 1
                if generator.chance(0.7) {
                    types.append("primeAccepted")
                    counts.primeContinued = 1
                    if generator.chance(0.75) {
                        types += ["systemGranted", "taskCompleted"]
                        counts.systemGranted = 1
                        counts.granted = 1
                        counts.taskCompleted = 1
                    } else {
                        types.append("systemDenied")
                        counts.systemDenied = 1
                    }
                } else {
                    types.append("primeDismissed")
                    counts.primeDismissed = 1
                }
            } else if generator.chance(0.8) {
                types.append("taskCompleted")
                counts.taskCompleted = 1
            }
            if generator.chance(0.2) { types.append("taskStarted") }  // a second attempt counts once
            events += types.enumerated().map { offset, type in
                TestEvent(
                    install: install, id: "\(install)-\(offset)", type: type, feature: "photos",
                    experiment: experiment, variant: variant)
            }
            truth[variant] = (truth[variant] ?? FunnelCounts()) + counts
        }
        return (events, truth)
    }
}
