import PreludeCore

/// The demo experiment's assignment, to label events right or wrong.
extension ResultsFixture {
    /// The demo policy (config/demo-policy.json).
    package static let demoPolicy = PolicyValidator.validate(bytes: Array(demoText.utf8)).document!
    /// Its experiment `camera-prime-copy`.
    package static var demoExperiment: Experiment { demoPolicy.experiments.first { $0.key == experiment }! }

    /// The variant the demo experiment assigns `install`.
    package static func assignedVariant(_ install: String) -> String {
        let index = Bucketing.assign(
            seed: demoExperiment.hashSeed, installId: install, weights: demoExperiment.variants.map(\.weight),
            coverage: demoExperiment.coverage)!
        return demoExperiment.variants[index].name
    }

    /// The demo experiment's other variant.
    package static func otherVariant(_ variant: String) -> String { variant == "control" ? "short-copy" : "control" }
}
