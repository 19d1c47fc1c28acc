import PreludeCore

/// Why results cannot be produced. The results routes render it as `application/problem+json` (RFC 9457,
/// `ExperimentResultsError+Problem.swift` in PreludeService).
package enum ExperimentResultsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No app with this id.
    case appNotFound(String)
    /// The experiment is in no policy revision of the app and has no aggregated events.
    case experimentNotFound(app: String, key: String)
    /// A query parameter (or CLI option) has an unusable value.
    case invalidParameter(name: String, value: String, reason: String)
    /// The configuration cannot be analysed (e.g. every weight is 0).
    case unanalysable(ExperimentAnalysisError)

    /// A sentence for an operator.
    package var description: String {
        switch self {
        case .appNotFound(let app): "no app \"\(app)\""
        case .experimentNotFound(let app, let key):
            "app \"\(app)\" has no experiment \"\(key)\": it is in no policy revision and no event reported it"
        case .invalidParameter(let name, let value, let reason): "\(name) '\(value)' \(reason)"
        case .unanalysable(let error): "the experiment cannot be analysed: \(error)"
        }
    }
}
