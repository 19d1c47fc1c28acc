import PreludeHTTP
import PreludeStore

extension ExperimentResultsError: HTTPResponseError {
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
