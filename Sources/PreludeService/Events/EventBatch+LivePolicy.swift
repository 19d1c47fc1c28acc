import PreludeCore
import PreludeHTTP

extension EventBatch {
    /// The problems of events that name an experiment or variant the live policy does not define, or an experiment
    /// of another feature, each with its pointer (`/events/3/experiment`, `/events/3/variant`, `/events/3/feature`).
    ///
    /// Only the **live** revision counts: an experiment concluded or removed in a later revision, or one from an
    /// older revision, is refused. Its results stay readable (they were aggregated while it was live), and a
    /// client that still reports it holds a stale policy that its next fetch replaces. Without this check anyone
    /// could create aggregate rows, kept forever, under any name (docs/security.md).
    package func problems(against document: PolicyDocument) -> [FieldProblem] {
        events.enumerated().flatMap { index, event in Self.problems(of: event, at: index, against: document) }
    }

    /// The problems of one event (sent at position `index` of its batch) against the live `document`.
    static func problems(of event: Event, at index: Int, against document: PolicyDocument) -> [FieldProblem] {
        var problems: [FieldProblem] = []
        guard let key = event.experiment else { return problems }
        guard let experiment = document.experiments.first(where: { $0.key == key }) else {
            problems.append(
                FieldProblem(
                    pointer: "/events/\(index)/experiment", code: "experiment.unknown",
                    detail: "the live policy has no experiment '\(key)'"))
            return problems
        }
        if experiment.feature != event.feature {
            problems.append(
                FieldProblem(
                    pointer: "/events/\(index)/feature", code: "experiment.featureMismatch",
                    detail: "experiment '\(key)' tests \(experiment.feature.rawValue), not \(event.feature.rawValue)"))
        }
        if let variant = event.variant, !experiment.variants.contains(where: { $0.name == variant }) {
            problems.append(
                FieldProblem(
                    pointer: "/events/\(index)/variant", code: "variant.unknown",
                    detail: "experiment '\(key)' has no variant '\(variant)'; it has "
                        + experiment.variants.map(\.name).joined(separator: ", ")))
        }
        return problems
    }

    /// Whether any event names an experiment.
    package var namesExperiments: Bool { events.contains { $0.experiment != nil } }
}
