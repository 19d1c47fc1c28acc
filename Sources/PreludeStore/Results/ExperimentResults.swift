import PreludeCore

/// An experiment's report with where its configuration came from: what the results endpoint and CLI show.
package struct ExperimentResults: Sendable {
    /// The app.
    package var appID: String
    /// The analysis.
    package var report: ExperimentReport
    /// The configuration the weights and control came from.
    package var definition: ExperimentDefinition
    /// Installs counted for the experiment's key under another feature than the configured one (mislabelled
    /// events); not in the report, given so that a client bug is visible.
    package var otherFeatures: [String]
    /// Events whose variant disagreed with the install's assignment, kept out of the arms.
    package var mislabelled: MislabelledEvents
    /// The arms day by day (from the daily counts of migration 0010); nil when not read.
    package var timeline: ExperimentTimeline?
    /// Whether the report was computed with settings other than the ones the revision fixed: then it carries no
    /// verdict.
    package var isExploratory: Bool
    /// The arms per OS major version and per locale (exploratory, never a verdict); empty when not read.
    package var segments: [SegmentBreakdown] = []

    /// Creates results.
    package init(
        appID: String, report: ExperimentReport, definition: ExperimentDefinition, otherFeatures: [String],
        mislabelled: MislabelledEvents = MislabelledEvents(), isExploratory: Bool = false
    ) {
        self.appID = appID
        self.report = report
        self.definition = definition
        self.otherFeatures = otherFeatures
        self.mislabelled = mislabelled
        self.isExploratory = isExploratory
    }

    /// The sentence that labels an exploratory view.
    package static let exploratoryNote =
        "EXPLORATORY VIEW: computed with settings other than those the policy fixed before the data; it never "
        + "yields a verdict. Only the fixed settings (analysis.fixed) decide."

    /// `{"view": "fixed" | "exploratory", "fixed": {alpha, minimumEffect, control}, "note"}` (`control`: the configured
    /// one).
    package var analysisJSON: JSONValue {
        .object(
            JSONObject([
                ("view", .string(isExploratory ? "exploratory" : "fixed")),
                (
                    "fixed",
                    .object(
                        JSONObject([
                            ("alpha", .double(definition.alpha)),
                            ("minimumEffect", .double(definition.minimumEffect)),
                            ("control", .string(definition.control)),
                        ]))
                ),
                ("note", isExploratory ? .string(Self.exploratoryNote) : .null),
            ]))
    }

    /// ``ExperimentReport/encodeJSON()`` plus `app`, `analysis` (``analysisJSON``), `configuration` (`source`:
    /// `live`, `revision` or `observed`, `revision`: the policy revision or null), `otherFeatures` and `mislabelled`
    /// (``MislabelledEvents/jsonValue``), `timeline` and `segments` (`{"exploratory": true, "note", "osMajor": [...],
    /// "locale": [...]}`, each segment as ``SegmentBreakdown/encodeJSON()`` gives it) when read.
    package func encodeJSON() -> JSONValue {
        guard case .object(let reportObject) = report.encodeJSON() else {
            preconditionFailure("a report encodes as an object")
        }
        var configuration = JSONObject()
        switch definition.source {
        case .live(let revision):
            configuration["source"] = "live"
            configuration["revision"] = .integer(revision)
        case .revision(let revision):
            configuration["source"] = "revision"
            configuration["revision"] = .integer(revision)
        case .observed:
            configuration["source"] = "observed"
            configuration["revision"] = .null
        }
        configuration["note"] = note.map { .string($0) } ?? .null
        var result = JSONObject([("app", .string(appID))])
        result["analysis"] = analysisJSON
        for (key, value) in reportObject.members { result[key] = value }
        result["configuration"] = .object(configuration)
        result["otherFeatures"] = .array(otherFeatures.map { .string($0) })
        result["mislabelled"] = mislabelled.jsonValue
        if let timeline { result["timeline"] = Self.encode(timeline) }
        if !segments.isEmpty {
            result["segments"] = .object(
                JSONObject(
                    [("exploratory", .bool(true)), ("note", .string(SegmentBreakdown.exploratoryNote))]
                        + segments.map { ($0.dimension.rawValue, $0.encodeJSON()) }))
        }
        return .object(result)
    }

    /// `timeline`: one entry per day with data — `date`, `events`, `exposed` per variant (report order), and each
    /// non-control variant's grant (and task) difference with its confidence sequence at the end of that day.
    static func encode(_ timeline: ExperimentTimeline) -> JSONValue {
        .array(
            timeline.days.map { day in
                func points(_ points: [ExperimentTimeline.Point?]) -> JSONValue {
                    .array(
                        points.enumerated().compactMap { index, point in
                            guard let point else { return nil }
                            return .object(
                                JSONObject([
                                    ("variant", .string(timeline.variants[index])),
                                    ("difference", .double(point.difference)),
                                    ("lower", .double(point.interval.lower)), ("upper", .double(point.interval.upper)),
                                ]))
                        })
                }
                return .object(
                    JSONObject([
                        ("date", .string(ExperimentTimeline.date(ofDay: day.day))), ("events", .integer(day.events)),
                        ("exposed", .array(day.funnels.map { .integer($0.exposed) })),
                        ("grant", points(day.grant)), ("task", points(day.task)),
                    ]))
            })
    }

    /// The terminal table: where the configuration came from, then ``ExperimentReport/renderTable()``.
    package func renderTable() -> String {
        var header = isExploratory ? Self.exploratoryNote + "\n" : ""
        header += "App \(appID): "
        switch definition.source {
        case .live(let revision): header += "weights from the live policy (revision \(revision))."
        case .revision(let revision): header += "weights from revision \(revision) (not in the live policy)."
        case .observed: header += "weights assumed equal."
        }
        if let note { header += "\n" + note }
        if !otherFeatures.isEmpty {
            header += "\nAlso seen under other features (not counted): \(otherFeatures.joined(separator: ", "))."
        }
        if let summary = mislabelled.summary { header += "\n" + summary }
        return header + "\n\n" + report.renderTable()
    }

    /// A sentence when the configuration is not the live one.
    package var note: String? {
        switch definition.source {
        case .live: nil
        case .revision:
            "The experiment is not in the live policy; variants and weights are those of the last revision that had it."
        case .observed:
            "No policy revision configures this experiment; variants are those seen in events, weights assumed "
                + "equal, so the sample-ratio check is only meaningful for an equal split."
        }
    }
}
