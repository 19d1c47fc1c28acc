import PreludeCore
import PreludeResultsPage
import PreludeStore

extension ExperimentResults {
    /// The results page's input: the report, where its weights came from, the daily timeline, the mislabelled
    /// events; `markers` go on every time chart (a rollout's steps), `note` after the configuration sentence.
    package func pageInput(markers: [LineChart.Marker] = [], note extra: String? = nil) -> ResultsPageInput {
        var configuration: String
        switch definition.source {
        case .live(let revision): configuration = "Weights from the live policy (revision \(revision))."
        case .revision(let revision): configuration = "Weights from revision \(revision) (not in the live policy)."
        case .observed: configuration = "Weights assumed equal."
        }
        if let note { configuration += " " + note }
        if let extra { configuration += " " + extra }
        return ResultsPageInput(
            app: appID, report: report, configuration: configuration, timeline: timeline,
            mislabelledEvents: mislabelled.total,
            mislabelled: mislabelled.rows.map {
                (feature: $0.feature, reported: $0.reported, expected: $0.expected, events: $0.events)
            },
            otherFeatures: otherFeatures, markers: markers, segments: segments)
    }

    /// The results page (``ResultsPageRenderer``).
    package func renderPage() -> String { ResultsPageRenderer.render(pageInput()) }
}
