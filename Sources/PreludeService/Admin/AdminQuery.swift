import PreludeCore
import PreludeHTTP

/// Checks the query string of an admin request as strictly as the public API checks its own
/// (``PolicyQuery``): an unknown or repeated parameter is refused, each problem with the pointer `/query/<name>`,
/// before anything is read or written.
package enum AdminQuery {
    /// What every admin route accepts besides its own parameters (indented JSON, ``AdminResponse/wantsPretty(_:)``).
    package static let common = ["pretty"]

    /// 400 listing every unknown or repeated parameter of `request`; `allowed` are the route's own names.
    package static func check(_ request: HTTPRequest, allowed: [String]) throws(ProblemDetails) {
        var problems: [FieldProblem] = []
        var seen: Set<String> = []
        let known = common + allowed
        for (name, _) in request.query {
            if !known.contains(name) {
                let others = known.sorted().joined(separator: ", ")
                var detail = "unknown parameter '\(name)'; this endpoint takes \(others)"
                if let suggestion = suggestion(for: name, among: known) { detail += " (did you mean '\(suggestion)'?)" }
                problems.append(FieldProblem(pointer: "/query/" + name, code: "parameter.unknown", detail: detail))
            } else if !seen.insert(name).inserted {
                problems.append(
                    FieldProblem(
                        pointer: "/query/" + name, code: "parameter.repeated", detail: "give '\(name)' once"))
            }
        }
        guard problems.isEmpty else {
            throw ProblemDetails(
                status: .badRequest, type: RequestProblem.invalidRequestType, title: "The request is not valid",
                detail: problems.map(\.detail).joined(separator: "; ") + "; nothing was changed", errors: problems)
        }
    }

    /// The value of `name` when it is one of `values`; nil when absent; 400 naming the parameter and the
    /// accepted values otherwise.
    package static func enumValue(
        _ request: HTTPRequest, _ name: String, among values: [String]
    ) throws(ProblemDetails) -> String? {
        guard let value = request.queryValue(name) else { return nil }
        guard values.contains(value) else {
            var detail = "'\(value)' is not a value of '\(name)'; use one of \(values.joined(separator: ", "))"
            if let suggestion = suggestion(for: value, among: values) { detail += " (did you mean '\(suggestion)'?)" }
            throw AdminProblem.invalidRequest(detail, pointer: "/query/" + name)
        }
        return value
    }

    /// The closest of `candidates` to `text` when it is at most two edits away (a typo), else nil.
    package static func suggestion(for text: String, among candidates: [String]) -> String? {
        TypoSuggestion.closest(to: text, among: candidates)
    }
}
