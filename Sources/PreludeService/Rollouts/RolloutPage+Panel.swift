import PreludeCore
import PreludeResultsPage
import PreludeStore

extension RolloutPage {
    /// The rollout's section of its page (docs/rollouts.md, "The rollout's page"): what happened and why with the
    /// guard's deciding figures against the rollout's own thresholds, and the harm bound against the budget over
    /// the new arm's exposed installs (the guard's own axis) with the steps and decisions marked.
    ///
    /// - Parameters:
    ///   - reading: the guard's reading now (live) — for a stopped rollout the last decision's is used.
    ///   - records: the rollout's audit records, oldest first (their `figures` give the chart's points).
    package static func panel(_ rollout: Rollout, reading: RolloutReading, records: [AuditLog.Entry])
        -> ResultsPageInput.RolloutPanel
    {
        let plan = rollout.plan
        let state = rollout.state
        let steps = plan.guardedSteps
        let decided = state.status.isTerminal ? (rollout.lastReading ?? reading.jsonValue) : reading.jsonValue
        let tone: String
        var headline: String
        switch state.status {
        case .draft:
            tone = "pending"
            headline = "Draft: nothing is served yet."
        case .running:
            tone = "ok"
            headline =
                "Running: step \(state.step + 1) of \(steps.count), "
                + "\(percentText(stepPercent(rollout))) of \(whom(rollout)) get the change."
        case .paused where !state.heldBy.isEmpty:
            tone = "warn"
            headline =
                "Held by the guard at \(percentText(stepPercent(rollout))) on " + names(state.heldBy)
                + ": waiting for an operator to resume or abort."
        case .paused:
            tone = "warn"
            headline = "Paused by an operator at \(percentText(stepPercent(rollout))) of \(whom(rollout))."
        case .awaitingApproval:
            tone = "warn"
            headline = "Every step passed: waiting for an operator's complete."
        case .completed:
            tone = "ok"
            headline = "Completed: 100 % of \(whom(rollout)) get the change."
        case .rolledBack:
            tone = "fail"
            headline = "Rolled back by the guard on " + names(state.trippedBy) + ": everyone gets the old screen again."
        case .aborted:
            tone = "warn"
            headline = "Aborted by an operator: everyone gets the old screen again."
        }
        if !state.excludedSegments.isEmpty {
            headline +=
                " Carved out (kept on the old screen): "
                + state.excludedSegments.map { "\($0.dimension.rawValue) \($0.value)" }.joined(separator: ", ") + "."
        }
        var details: [String] = []
        let settings =
            "α \(DecimalFormat.shortest(plan.alpha)), minimum effect \(DecimalFormat.points(plan.minimumEffect))"
        func p(_ value: JSONValue?) -> String {
            guard let value = value?.doubleValue else { return "p not tested yet (100 installs per arm)" }
            let text = DecimalFormat.pValue(value)
            return text.hasPrefix("<") ? "p " + text : "p = " + text
        }
        func threshold(_ value: Double) -> String { DecimalFormat.scientific(value) }
        func diff(_ value: JSONValue?) -> String {
            value?.doubleValue.map { DecimalFormat.points($0) } ?? "–"
        }
        details.append(
            "Grant rate, new arm − control: \(diff(decided["grantDifference"])); harm "
                + "\(p(decided["grantHarmPValue"])) against the guard's threshold "
                + "\(threshold(plan.harmAlpha)) (\(settings)).")
        details.append(
            "Denial rate, new arm − control: \(diff(decided["denialDifference"])); harm "
                + "\(p(decided["denialHarmPValue"])) against \(threshold(plan.harmAlpha)).")
        details.append(
            "Sample ratio: \(p(decided["sampleRatioPValue"])) against "
                + "\(threshold(plan.sampleRatioAlpha)) (planned share of the new arm "
                + "\(percentText(plan.rolloutWeight))).")
        let bound = decided["harmBound"]?.doubleValue ?? 0
        details.append(
            "Harm bound: at most \(Int(bound.rounded(.up))) extra denied installs so far (95 %)"
                + (plan.harmBudget.map { ", budget \($0)." } ?? "; no budget set."))
        for segment in decided["segments"]?.arrayValue ?? [] where segment["harmed"] == .bool(true) {
            details.append(
                "Segment \(segment["dimension"]?.stringValue ?? "") \(segment["value"]?.stringValue ?? ""): grant "
                    + "\(diff(segment["grantDifference"])), Holm-adjusted harm \(p(segment["grantHarmPValue"])) "
                    + "against \(threshold(plan.segmentAlpha)).")
        }
        return ResultsPageInput.RolloutPanel(
            tone: tone, headline: headline, details: details,
            charts: charts(rollout, decided: decided, records: records),
            note:
                "The guard's tests are one-sided, always valid and share α between them (Holm-corrected across "
                + "segments), with the rollout's own α and minimum effect. So an interval in the tables below can "
                + "exclude zero while the guard has not acted yet: its thresholds are stricter than any single "
                + "test's.")
    }

    private static func names(_ findings: [RolloutReading.Finding]) -> String {
        findings.map(\.rawValue).joined(separator: ", ")
    }

    /// Who the percentages are of: `installs`, or the audience as the preview names it (`installs in segment
    /// engaged`).
    private static func whom(_ rollout: Rollout) -> String {
        guard let audience = rollout.audience else { return "installs" }
        let described = PreviewVariant.describe(Condition.compile(audience).0)
        return described.hasPrefix("when ") ? "installs matching " + described.dropFirst(5) : "installs in " + described
    }

    private static func stepPercent(_ rollout: Rollout) -> Double {
        let steps = rollout.plan.guardedSteps
        return steps.indices.contains(rollout.state.step) ? steps[rollout.state.step].percent : 100
    }

    /// On the new arm's exposed installs, at each recorded decision and now: the harm bound with the budget as a
    /// dashed level, and the grant-rate difference with its confidence sequence (the rollout's α and minimum
    /// effect); each step and decision a marker at its exposures.
    private static func charts(_ rollout: Rollout, decided: JSONValue, records: [AuditLog.Entry]) -> [LineChart] {
        var figures: [JSONValue] = []
        var markers: [LineChart.Marker] = []
        for record in records {
            guard let detail = try? JSONParser().parse(record.detail), let reading = detail["figures"],
                let exposed = reading["rollout"]?["exposed"]?.doubleValue
            else { continue }
            figures.append(reading)
            let what =
                record.action == "rollout.step"
                ? "step \((detail["step"]?.intValue ?? 0) + 1) (\(percentText(detail["percent"]?.doubleValue ?? 0)))"
                : String(record.action.dropFirst("rollout.".count))
            markers.append(LineChart.Marker(x: exposed, label: what))
        }
        figures.append(decided)
        func arm(_ reading: JSONValue, _ name: String) -> (exposed: Int, granted: Int)? {
            guard let exposed = reading[name]?["exposed"]?.intValue, let granted = reading[name]?["granted"]?.intValue
            else { return nil }
            return (exposed, granted)
        }
        var bound: [(x: Double, y: Double)] = []
        var difference: [(x: Double, y: Double)] = []
        var band: [(lower: Double, upper: Double)] = []
        let tau2 = SequentialTest.mixingVariance(minimumEffect: rollout.plan.minimumEffect)
        for reading in figures {
            guard let treated = arm(reading, "rollout"), let control = arm(reading, "control") else { continue }
            let x = Double(treated.exposed)
            if let harm = reading["harmBound"]?.doubleValue { bound.append((x, harm)) }
            if let interval = SequentialTest.interval(
                treatmentSuccesses: treated.granted, treatmentTrials: treated.exposed,
                controlSuccesses: control.granted, controlTrials: control.exposed, mixingVariance: tau2,
                alpha: rollout.plan.alpha)
            {
                difference.append(
                    (
                        x,
                        Double(treated.granted) / Double(treated.exposed)
                            - Double(control.granted) / Double(control.exposed)
                    ))
                band.append((interval.lower, interval.upper))
            }
        }
        let installs: @Sendable (Double) -> String = { "\(Int($0)) installs" }
        var charts: [LineChart] = []
        let order = bound.indices.sorted { bound[$0].x < bound[$1].x }
        if !bound.isEmpty {
            let points = order.map { bound[$0] }
            var series = [LineChart.Series(name: "Harm bound (95 %): extra denied installs", points: points)]
            if let budget = rollout.plan.harmBudget, let last = points.last {
                series.append(
                    LineChart.Series(
                        name: "Budget: \(budget) installs",
                        points: [(0, Double(budget)), (max(last.x, 1), Double(budget))]))
            }
            charts.append(
                LineChart(
                    id: "rollout-harm", title: "Harm bound and budget by the new arm's exposed installs",
                    series: series, markers: markers, xLabel: installs, yLabel: { "\(Int($0.rounded()))" },
                    zeroLine: true))
        }
        if !difference.isEmpty {
            let sorted = difference.indices.sorted { difference[$0].x < difference[$1].x }
            charts.append(
                LineChart(
                    id: "rollout-difference",
                    title:
                        "Grant rate, new arm − control, with its confidence sequence, by the new arm's exposed installs",
                    series: [
                        LineChart.Series(
                            name: "rollout − control (\(percentText((1 - rollout.plan.alpha) * 100)) CS)",
                            points: sorted.map { difference[$0] }, band: sorted.map { band[$0] })
                    ], markers: markers, xLabel: installs, yLabel: { DecimalFormat.points($0, digits: 1) },
                    zeroLine: true))
        }
        return charts
    }

    /// `25 %`, `2.5 %`.
    static func percentText(_ percent: Double) -> String {
        DecimalFormat.fixed(percent, digits: percent == percent.rounded() ? 0 : 1) + " %"
    }
}
