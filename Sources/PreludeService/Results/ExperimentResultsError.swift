import PreludeCore
import PreludeHTTP

/// Why results cannot be produced; renders itself as `application/problem+json` (RFC 9457).
package enum ExperimentResultsError: Error, Sendable, Equatable, HTTPResponseError, CustomStringConvertible {
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

    /// 404 for an unknown app or experiment, 400 for a bad parameter, 422 for a configuration that cannot be
    /// analysed.
    package var problem: ProblemDetails {
        switch self {
        case .appNotFound, .experimentNotFound:
            ProblemDetails(status: .notFound, detail: description)
        case .invalidParameter:
            ProblemDetails(status: .badRequest, detail: "query parameter " + description)
        case .unanalysable:
            ProblemDetails(status: .unprocessableContent, detail: description)
        }
    }

    /// The problem document.
    package func response() -> HTTPResponse { problem.response() }
}
