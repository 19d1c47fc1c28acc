import ArgumentParser
import PreludeCore
import PreludeService
import PreludeStore

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

struct ResultsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "results",
        abstract: "Print an experiment's results: funnel, grant rates, intervals, verdicts, sample-ratio check.",
        discussion: """
            Reads the experiment's aggregated counters straight from the database (no server needed) and the \
            variants' weights from the app's live policy (or the last revision that had the experiment). \
            The same numbers as GET /v1/admin/apps/{app}/experiments/{key}/results. Exit status 0, or 1 when the \
            app or experiment is unknown. docs/results.md explains every figure.
            """
    )

    @Argument(help: "The app id.")
    var app: String

    @Argument(help: "The experiment key.")
    var experiment: String

    @Flag(help: "Print the JSON document of the admin API instead of the table.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Also write the results page (the endpoint's text/html answer: one self-contained HTML file) to this path.",
            valueName: "file"))
    var html: String?

    @Option(
        help: ArgumentHelp(
            "Exploratory: a grant-rate change to size the sample for other than the policy's (0.02 = 2 points); "
                + "the view then has no verdict.",
            valueName: "fraction"))
    var minimumEffect: Double?

    @Option(
        help: ArgumentHelp(
            "Exploratory: a significance level other than the policy's; the view then has no verdict.",
            valueName: "fraction"))
    var alpha: Double?

    @Option(
        help: ArgumentHelp(
            "Compare with this variant instead of the configured control.",
            valueName: "variant"))
    var control: String?

    @OptionGroup var options: DatabaseOptions

    func run() throws {
        try options.withExistingStore { _, store in
            let reader = store.experimentResults()
            let results: ExperimentResults
            do {
                results = try reader.results(
                    appID: app, experiment: experiment, minimumEffect: minimumEffect, alpha: alpha, control: control)
            } catch ExperimentResultsError.experimentNotFound {
                // Name the experiments there are, and the closest to the one typed.
                let keys = try reader.experiments(appID: app).map(\.key)
                let hint = TypoSuggestion.closest(to: experiment, among: keys).map { " Did you mean \"\($0)\"?" } ?? ""
                let list = keys.isEmpty ? "it has none" : "it has \(keys.joined(separator: ", "))"
                throw ResultsFailure(
                    description: "app \"\(app)\" has no experiment \"\(experiment)\";\(hint) \(list) "
                        + "(prelude experiments list \(app))")
            }
            if let html {
                guard FileManager.default.createFile(atPath: html, contents: Data(results.renderPage().utf8)) else {
                    throw ResultsFailure(description: "cannot write the results page to \(html)")
                }
            }
            print(json ? results.encodeJSON().serialized(.pretty) : results.renderTable(), terminator: json ? "" : "\n")
        }
    }
}

/// Why `prelude results` printed nothing.
struct ResultsFailure: Error, CustomStringConvertible {
    /// A sentence naming what exists.
    let description: String
}
