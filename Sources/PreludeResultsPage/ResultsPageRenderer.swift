import PreludeCore

/// The experiment results page (docs/results.md, "Results page"): one self-contained HTML document — inline CSS,
/// server-drawn SVG charts, no script, no font or asset from anywhere — in the layout experiment pages share:
/// health checks first, then one row per arm, then the difference over time with its confidence sequence, then
/// the exposures over time, then the breakdowns per OS major version and per locale (exploratory).
///
/// Every figure that is also in the JSON report carries it in `data-value`, serialized exactly as the JSON does,
/// so a test can hold the page to the JSON (scripts/results-browser-test.py).
public enum ResultsPageRenderer {
    /// The page. Deterministic: the same input gives the same bytes.
    public static func render(_ input: ResultsPageInput) -> String {
        let report = input.report
        let title = "Results: \(report.experimentKey)"
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>\(HTMLEscaping.escape(title))</title>
            <style>\(ResultsPageStyleSheet.css)</style>
            </head><body>
            <header><h1>\(HTMLEscaping.escape(report.experimentKey))</h1>
            <p>App <code>\(HTMLEscaping.escape(input.app))</code>, feature <code>\(HTMLEscaping.escape(report.feature))</code>, control <code>\(HTMLEscaping.escape(report.controlName))</code>, \(report.totalExposed) installs exposed. \(HTMLEscaping.escape(input.configuration))</p>
            </header><main>

            """
        if let panel = input.rollout { html += rollout(panel) }
        html += health(input)
        html += arms(report)
        html += overTime(input)
        html += breakdowns(input)
        html +=
            "<footer><p>Intervals are \(percentLevel(report)) Wilson intervals; differences carry always-valid "
            + "confidence sequences (mixture SPRT, minimum effect \(DecimalFormat.points(report.minimumEffect))); "
            + "p-values are always valid\(report.variants.count > 2 ? ", Holm-adjusted over the comparisons with the control" : ""). "
            + "Look as often as you like. Method: docs/results.md.</p></footer>"
        return html + "</main></body></html>\n"
    }

    private static func percentLevel(_ report: ExperimentReport) -> String {
        DecimalFormat.fixed(report.confidenceLevel * 100, digits: 0) + " %"
    }

    /// A number as the JSON report writes it.
    static func json(_ value: Double) -> String { JSONValue.double(value).serialized() }

    private static func cell(_ field: String, _ text: String, value: String? = nil, numeric: Bool = true) -> String {
        let data = value.map { " data-value=\"\(HTMLEscaping.escape($0))\"" } ?? ""
        return "<td data-field=\"\(field)\"\(data)\(numeric ? " class=\"num\"" : "")>\(HTMLEscaping.escape(text))</td>"
    }

    // MARK: - Rollout

    private static func rollout(_ panel: ResultsPageInput.RolloutPanel) -> String {
        var html = "<section id=\"rollout\"><h2>Rollout</h2>"
        html +=
            "<div class=\"banner \(panel.tone)\" role=\"status\"><strong>\(HTMLEscaping.escape(panel.headline))</strong>"
        if !panel.details.isEmpty {
            html += "<ul>" + panel.details.map { "<li>\(HTMLEscaping.escape($0))</li>" }.joined() + "</ul>"
        }
        html += "</div>"
        for chart in panel.charts {
            html +=
                "<figure class=\"chart-box\"><figcaption>\(HTMLEscaping.escape(chart.title))</figcaption>"
                + chart.render() + "</figure>"
        }
        return html + "<p class=\"note\">\(HTMLEscaping.escape(panel.note))</p></section>\n"
    }

    // MARK: - Health checks

    private static func health(_ input: ResultsPageInput) -> String {
        let report = input.report
        var items: [String] = []
        let ratio = report.sampleRatio
        let observed = zip(report.variants.map(\.name), ratio.observed).map { "\($0) \($1)" }.joined(separator: ", ")
        if ratio.isMismatch {
            items.append(
                check(
                    "sample-ratio", "fail", "Sample ratio mismatch",
                    (ratio.message ?? "")
                        + " Observed: \(observed). Nothing below can be trusted until it is explained."))
        } else if let p = ratio.pValue {
            items.append(
                check(
                    "sample-ratio", "ok", "Sample ratio",
                    "Exposures match the configured weights (p = \(DecimalFormat.pValue(p)), flagged below "
                        + "\(DecimalFormat.shortest(ratio.threshold))). Observed: \(observed).",
                    value: json(p)))
        } else {
            items.append(
                check(
                    "sample-ratio", "pending", "Sample ratio", "Not checked yet: it needs exposures in weighted arms."))
        }
        if let timeline = input.timeline, !timeline.days.isEmpty {
            let days = timeline.days
            let total = days.reduce(0) { $0 + $1.events }
            let last = days[days.count - 1]
            let quiet = days.filter { $0.events == 0 }.count
            items.append(
                check(
                    "events-per-day", quiet > 0 ? "warn" : "ok", "Events per day",
                    "\(total) events over \(days.count) day\(days.count == 1 ? "" : "s") with data, "
                        + "\(last.events) on \(ExperimentTimeline.date(ofDay: last.day))"
                        + (quiet > 0 ? "; \(quiet) day(s) with counter changes but no events counted." : ".")
                        + " Chart below.", value: String(total)))
        } else {
            items.append(
                check(
                    "events-per-day", "pending", "Events per day",
                    "No daily counts yet (kept from migration 0010 on)."))
        }
        if input.mislabelledEvents > 0 {
            let detail = input.mislabelled.map {
                "\($0.events) reported \($0.reported) but are \($0.expected ?? "not enrolled") (\($0.feature))"
            }.joined(separator: "; ")
            items.append(
                check(
                    "mislabelled", "warn", "Mislabelled events",
                    "\(input.mislabelledEvents) events reported a variant other than the install's assignment and are "
                        + "counted in no arm: \(detail).", value: String(input.mislabelledEvents)))
        } else {
            items.append(
                check(
                    "mislabelled", "ok", "Mislabelled events",
                    "None: every event's variant is the install's assignment.",
                    value: "0"))
        }
        if !input.otherFeatures.isEmpty {
            items.append(
                check(
                    "other-features", "warn", "Other features",
                    "The experiment's key was also reported under \(input.otherFeatures.joined(separator: ", ")) "
                        + "(not counted)."))
        }
        return "<section id=\"health\"><h2>Health checks</h2><ul class=\"checks\">" + items.joined()
            + "</ul></section>\n"
    }

    private static func check(_ id: String, _ status: String, _ name: String, _ text: String, value: String? = nil)
        -> String
    {
        let data = value.map { " data-value=\"\(HTMLEscaping.escape($0))\"" } ?? ""
        return "<li class=\"check \(status)\" data-check=\"\(id)\" data-status=\"\(status)\"\(data)>"
            + "<strong>\(HTMLEscaping.escape(name))</strong> <span class=\"status\">\(status)</span> "
            + "<span>\(HTMLEscaping.escape(text))</span></li>"
    }

    // MARK: - Arms

    /// Three tables, so that none is wider than a laptop screen: the funnel per arm, the grant rate against the
    /// control, then (when the experiment has tasks) task success against the control.
    private static func arms(_ report: ExperimentReport) -> String {
        let level = percentLevel(report)
        let hasTasks = report.variants.contains { $0.funnel.taskStarted > 0 }
        let comparisonHeader = ["\(level) CI", "vs control", "\(level) CS", "p (any look)"]
        var html = "<section id=\"arms\"><h2>Arms</h2>"
        html += armsTable("funnel", report, header: ["Weight"] + grantCounters.map(\.name)) { variant in
            cell("weight", DecimalFormat.percent(variant.weight, digits: 1), value: json(variant.weight))
                + funnelCells(variant.funnel, grantCounters)
        }
        html += "<h3>Grant rate</h3>"
        html += armsTable("grant", report, header: ["Grant rate"] + comparisonHeader + ["Verdict"]) { variant in
            rateCells(
                "grant", rate: variant.grantRate, interval: variant.grantRateInterval, comparison: variant.comparison,
                verdict: variant.verdict, isControl: variant.isControl)
        }
        html += waitingVerdictNote(report)
        if hasTasks {
            html += "<h3>Task success</h3>"
            html += armsTable(
                "task", report,
                header: taskCounters.map(\.name) + ["Task completion"] + comparisonHeader + ["Task verdict"]
            ) { variant in
                funnelCells(variant.funnel, taskCounters)
                    + rateCells(
                        "task", rate: variant.taskCompletionRate, interval: variant.taskCompletionRateInterval,
                        comparison: variant.taskComparison, verdict: variant.taskVerdict, isControl: variant.isControl)
            }
            html +=
                "<p class=\"note\">Task completion = installs that started a task and completed one ÷ installs "
                + "that started one: the measure of an arm that does not ask (docs/results.md, \"Task success\").</p>"
        }
        return html + "</section>\n"
    }

    /// The funnel figures of one measure's table, in funnel order.
    private static let grantCounters = FunnelCounter.allCases.filter { $0.measure == .grant }
    private static let taskCounters = FunnelCounter.allCases.filter { $0.measure == .taskCompletion }

    /// One cell per figure (`data-field="funnel.<name>"`).
    private static func funnelCells(_ funnel: FunnelCounts, _ counters: [FunnelCounter]) -> String {
        counters.map { cell("funnel." + $0.name, String(funnel[$0]), value: String(funnel[$0])) }.joined()
    }

    /// One row per arm (`data-variant`), the arm's name first, then `cells` for it.
    private static func armsTable(
        _ kind: String, _ report: ExperimentReport, header: [String],
        cells: (VariantResult) -> String
    ) -> String {
        var html = "<div class=\"scroll\"><table class=\"arms \(kind)\"><thead><tr>"
        html += (["Arm"] + header).map { "<th scope=\"col\">\(HTMLEscaping.escape($0))</th>" }.joined()
        html += "</tr></thead><tbody>"
        for variant in report.variants {
            html +=
                "<tr data-variant=\"\(HTMLEscaping.escape(variant.name))\"\(variant.isControl ? " class=\"control\"" : "")>"
                + "<th scope=\"row\">\(HTMLEscaping.escape(variant.name))"
                + "\(variant.isControl ? " <small>control</small>" : "")</th>" + cells(variant) + "</tr>"
        }
        return html + "</tbody></table></div>"
    }

    /// Beside an arm whose fixed-horizon interval of the difference excludes zero while its verdict is "not
    /// significant yet": why the two disagree (the verdict reads the always-valid sequence, and Holm with more arms).
    static func waitingVerdictNote(_ report: ExperimentReport) -> String {
        let waiting = report.variants.filter { variant in
            guard let comparison = variant.comparison, variant.verdict == .notSignificant else { return false }
            return comparison.differenceInterval.lower > 0 || comparison.differenceInterval.upper < 0
        }
        guard !waiting.isEmpty else { return "" }
        let names = waiting.map(\.name).joined(separator: ", ")
        let holm =
            report.variants.count > 2
            ? ", and its p-value is Holm-adjusted over the \(report.variants.count - 1) comparisons with the control"
            : ""
        return "<p class=\"note waiting\">Why \(HTMLEscaping.escape(names)) is not significant yet although its "
            + "\(percentLevel(report)) CI of the difference excludes zero: that interval is valid for one look at a "
            + "planned sample; the verdict reads the always-valid confidence sequence (CS), which holds at every "
            + "look and is wider\(holm).</p>"
    }

    private static func rateCells(
        _ metric: String, rate: Double?, interval: ConfidenceInterval?, comparison: VariantComparison?,
        verdict: ExperimentVerdict?, isControl: Bool
    ) -> String {
        var html = cell("\(metric).rate", rate.map { DecimalFormat.percent($0) } ?? "–", value: rate.map(json))
        html += cell(
            "\(metric).interval",
            interval.map { "[" + DecimalFormat.percent($0.lower) + ", " + DecimalFormat.percent($0.upper) + "]" }
                ?? "–",
            value: interval.map { json($0.lower) + " " + json($0.upper) })
        guard !isControl else { return html + "<td colspan=\"4\" class=\"control-note\">control</td>" }
        html += cell(
            "\(metric).difference", comparison.map { DecimalFormat.points($0.difference) } ?? "–",
            value: comparison.map { json($0.difference) })
        html += cell(
            "\(metric).sequentialInterval",
            comparison.map {
                "[" + DecimalFormat.points($0.sequentialInterval.lower) + ", "
                    + DecimalFormat.points($0.sequentialInterval.upper) + "]"
            } ?? "–",
            value: comparison.map { json($0.sequentialInterval.lower) + " " + json($0.sequentialInterval.upper) })
        html += cell(
            "\(metric).adjustedSequentialPValue",
            comparison.map { DecimalFormat.pValue($0.adjustedSequentialPValue) } ?? "–",
            value: comparison.map { json($0.adjustedSequentialPValue) })
        let label = verdict?.rawValue ?? "–"
        html +=
            "<td data-field=\"\(metric).verdict\" data-value=\"\(label)\"><span class=\"verdict \(label)\">"
            + "\(HTMLEscaping.escape(verdict?.label ?? "–"))</span></td>"
        return html
    }

    // MARK: - Over time

    private static func overTime(_ input: ResultsPageInput) -> String {
        guard let timeline = input.timeline, !timeline.days.isEmpty else {
            return "<section id=\"over-time\"><h2>Over time</h2><p class=\"empty\">No daily counts yet.</p></section>\n"
        }
        let report = input.report
        let dayLabel: @Sendable (Double) -> String = { ExperimentTimeline.date(ofDay: Int($0.rounded())) }
        let points: @Sendable (Double) -> String = { DecimalFormat.points($0, digits: 1) }
        let count: @Sendable (Double) -> String = { String(Int($0.rounded())) }
        var html = "<section id=\"difference\"><h2>Difference to the control over time</h2>"
        html +=
            "<p class=\"note\">Each line is an arm's difference to the control at the end of each day; the band is "
            + "its \(percentLevel(report)) confidence sequence, valid at every day at once. A band that leaves 0 and "
            + "stays out is evidence.</p>"
        let hasTasks = report.variants.contains { $0.funnel.taskStarted > 0 }
        let metrics: [(metric: String, name: String)] =
            hasTasks ? [("grant", "Grant rate"), ("task", "Task completion")] : [("grant", "Grant rate")]
        for (metric, name) in metrics {
            var series: [LineChart.Series] = []
            for (index, variant) in timeline.variants.enumerated() where index != timeline.controlIndex {
                var line: [(x: Double, y: Double)] = []
                var band: [(lower: Double, upper: Double)] = []
                for day in timeline.days {
                    guard let point = (metric == "grant" ? day.grant : day.task)[index] else { continue }
                    line.append((x: Double(day.day), y: point.difference))
                    band.append((lower: point.interval.lower, upper: point.interval.upper))
                }
                series.append(LineChart.Series(name: "\(variant) − \(report.controlName)", points: line, band: band))
            }
            html +=
                "<figure class=\"chart-box\"><figcaption>\(name): difference and confidence sequence</figcaption>"
                + LineChart(
                    id: "chart-\(metric)-difference", title: "\(name) difference to \(report.controlName) over time",
                    series: series, markers: input.markers, xLabel: dayLabel, yLabel: points, zeroLine: true
                ).render() + "</figure>"
        }
        html += "</section>\n<section id=\"exposures\"><h2>Exposures over time</h2>"
        let exposures = timeline.variants.enumerated().map { index, name in
            LineChart.Series(
                name: name, points: timeline.days.map { (x: Double($0.day), y: Double($0.funnels[index].exposed)) })
        }
        html +=
            "<figure class=\"chart-box\"><figcaption>Cumulative exposed installs per arm</figcaption>"
            + LineChart(
                id: "chart-exposures", title: "Cumulative exposed installs per arm", series: exposures,
                markers: input.markers, xLabel: dayLabel, yLabel: count
            ).render() + "</figure>"
        html +=
            "<figure class=\"chart-box\"><figcaption>Events per day (all arms)</figcaption>"
            + LineChart(
                id: "chart-events", title: "Events per day",
                series: [
                    LineChart.Series(
                        name: "events", points: timeline.days.map { (x: Double($0.day), y: Double($0.events)) })
                ], markers: input.markers, xLabel: dayLabel, yLabel: count
            ).render() + "</figure>"
        return html + "</section>\n"
    }

    // MARK: - Breakdowns

    /// Per dimension one table, a row per segment and arm (`data-segment`, `data-variant`): exposed, granted, the
    /// grant rate and, against the control in the same segment, the difference's confidence sequence and its
    /// always-valid p-value. Labelled exploratory; no verdict column.
    private static func breakdowns(_ input: ResultsPageInput) -> String {
        let breakdowns = input.segments.filter { !$0.segments.isEmpty }
        guard !breakdowns.isEmpty else { return "" }
        let level = percentLevel(input.report)
        var html = "<section id=\"breakdowns\"><h2>Breakdowns <small>exploratory</small></h2>"
        html += "<p class=\"note exploratory\">\(HTMLEscaping.escape(SegmentBreakdown.exploratoryNote)) "
        html +=
            "Values beyond the \(SegmentBreakdown.shownValues) most exposed are in “other”; installs whose events "
            + "carried no segment (older clients, events before the upgrade) in “unknown”.</p>"
        for breakdown in breakdowns {
            let title = breakdown.dimension == .osMajor ? "OS major version" : "Locale"
            html += "<h3>\(title)</h3><div class=\"scroll\">"
            html += "<table class=\"arms segments\" data-dimension=\"\(breakdown.dimension.rawValue)\"><thead><tr>"
            let header = [
                title, "Arm", "exposed", "granted", "Grant rate", "\(level) CI", "vs control", "\(level) CS",
                "p (any look)",
            ]
            html += header.map { "<th scope=\"col\">\(HTMLEscaping.escape($0))</th>" }.joined() + "</tr></thead><tbody>"
            for segment in breakdown.segments {
                for (index, variant) in segment.variants.enumerated() {
                    html +=
                        "<tr data-segment=\"\(HTMLEscaping.escape(segment.value))\" "
                        + "data-variant=\"\(HTMLEscaping.escape(variant.name))\""
                        + "\(variant.isControl ? " class=\"control\"" : "")>"
                    if index == 0 {
                        html +=
                            "<th scope=\"rowgroup\" rowspan=\"\(segment.variants.count)\">"
                            + "\(HTMLEscaping.escape(segment.value))</th>"
                    }
                    html += "<th scope=\"row\">\(HTMLEscaping.escape(variant.name))</th>"
                    html += cell(
                        "funnel.exposed", String(variant.funnel.exposed), value: String(variant.funnel.exposed))
                    html += cell(
                        "funnel.granted", String(variant.funnel.granted), value: String(variant.funnel.granted))
                    html += cell(
                        "grant.rate", variant.grantRate.map { DecimalFormat.percent($0) } ?? "–",
                        value: variant.grantRate.map(json))
                    html += cell(
                        "grant.interval",
                        variant.grantRateInterval.map {
                            "[" + DecimalFormat.percent($0.lower) + ", " + DecimalFormat.percent($0.upper) + "]"
                        } ?? "–",
                        value: variant.grantRateInterval.map { json($0.lower) + " " + json($0.upper) })
                    guard !variant.isControl else {
                        html += "<td colspan=\"3\" class=\"control-note\">control</td></tr>"
                        continue
                    }
                    let comparison = variant.comparison
                    html += cell(
                        "grant.difference", comparison.map { DecimalFormat.points($0.difference) } ?? "–",
                        value: comparison.map { json($0.difference) })
                    html += cell(
                        "grant.sequentialInterval",
                        comparison.map {
                            "[" + DecimalFormat.points($0.sequentialInterval.lower) + ", "
                                + DecimalFormat.points($0.sequentialInterval.upper) + "]"
                        } ?? "–",
                        value: comparison.map {
                            json($0.sequentialInterval.lower) + " " + json($0.sequentialInterval.upper)
                        })
                    html += cell(
                        "grant.adjustedSequentialPValue",
                        comparison.map { DecimalFormat.pValue($0.adjustedSequentialPValue) } ?? "–",
                        value: comparison.map { json($0.adjustedSequentialPValue) })
                    html += "</tr>"
                }
            }
            html += "</tbody></table></div>"
        }
        return html + "</section>\n"
    }
}
