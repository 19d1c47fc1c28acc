import PreludeCore

/// The data and experiments of the fixed-analysis-settings tests: 470 of 1,000 granted against 400 of 1,000.
extension ResultsFixture {
    /// The traffic: 400 of 1,000 control installs granted against 470 of 1,000.
    package static let fixedAnalysisData = TestEvent.arms(control: (1000, 400), shortCopy: (1000, 470))

    /// The demo experiment at 50/50 with the analysis settings given (nil: the defaults).
    package static func fixedAnalysisExperiment(alpha: Double?, minimumEffect: Double?) -> JSONValue {
        var object = experiment([("control", 50), ("short-copy", 50)]).objectValue!
        if let alpha { object["alpha"] = .double(alpha) }
        if let minimumEffect { object["minimumEffect"] = .double(minimumEffect) }
        return .object(object)
    }
}
