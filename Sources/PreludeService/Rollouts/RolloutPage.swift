import PreludeCore
import PreludeResultsPage
import PreludeStore

/// A rollout's page: its experiment's results page (``ExperimentResults/pageInput(markers:note:)``) with the
/// rollout's steps and guard decisions marked on every time chart, read from the rollout's audit records
/// (docs/rollouts.md, "The rollout's page").
package enum RolloutPage {
    /// The markers for `records` (a rollout's audit records, oldest first): one per step published, guard trip,
    /// completion and abort, on the day it happened (x: days since 1970-01-01, as the charts' axis), labelled
    /// with the time of day (UTC) and what happened. Records of other actions are skipped.
    package static func markers(_ records: [AuditLog.Entry]) -> [LineChart.Marker] {
        records.compactMap { record in
            let detail = (try? JSONParser().parse(record.detail)) ?? .object(JSONObject())
            let what: String
            switch record.action {
            case "rollout.step":
                let step = detail["step"]?.intValue.map { "step \($0 + 1)" } ?? "step"
                let percent = detail["percent"]?.doubleValue.map { " (\(percentText($0)))" }
                what = step + (percent ?? "")
            case "rollout.guardTripped":
                let findings = detail["figures"]?["findings"]?.arrayValue?.compactMap(\.stringValue) ?? []
                what =
                    "guard tripped" + (findings.isEmpty ? "" : " (" + findings.joined(separator: ", ") + ")")
                    + ": rolled back"
            case "rollout.complete": what = "completed"
            case "rollout.abort": what = "aborted by \(record.actor)"
            case "rollout.segmentExcluded":
                let segments = detail["segments"]?.arrayValue?.compactMap { $0["value"]?.stringValue } ?? []
                what = "carved out " + segments.joined(separator: ", ")
            case "rollout.held":
                let findings = detail["findings"]?.arrayValue?.compactMap(\.stringValue) ?? []
                what = "held (" + findings.joined(separator: ", ") + ")"
            default: return nil
            }
            let day = record.occurredAt / dayMillis
            return LineChart.Marker(x: Double(day), label: timeOfDay(record.occurredAt - day * dayMillis) + " " + what)
        }
    }

    /// The sentence under the page's title: which rollout, its status and step.
    package static func summary(_ rollout: Rollout) -> String {
        let steps = rollout.plan.guardedSteps
        var text =
            "Rollout \(rollout.id) of \(rollout.feature.rawValue) in \(rollout.environment): "
            + rollout.state.status.rawValue
        if rollout.state.status == .completed {
            text += ", 100 % of installs"
        } else if rollout.state.status != .draft, steps.indices.contains(rollout.state.step) {
            text +=
                ", step \(rollout.state.step + 1) of \(steps.count) "
                + "(\(percentText(steps[rollout.state.step].percent)))"
        }
        return text + ". Dashed lines mark its steps and guard decisions."
    }

    private static let dayMillis: Int64 = 86_400_000

    /// `HH:MM UTC` for `millis` after midnight.
    private static func timeOfDay(_ millis: Int64) -> String {
        let minutes = Int(millis / 60_000)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return two(minutes / 60) + ":" + two(minutes % 60) + " UTC"
    }
}
