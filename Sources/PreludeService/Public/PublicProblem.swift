import PreludeCore
import PreludeHTTP

/// Problems the public client API answers with (RFC 9457), besides the policy store's.
package enum PublicProblem {
    /// 400 listing every problem of the request's query or body.
    package static func badRequest(_ errors: [FieldProblem], detail: String? = nil) -> ProblemDetails {
        ProblemDetails(
            status: .badRequest, type: RequestProblem.invalidRequestType, title: "Invalid request",
            detail: detail ?? "the request has \(errors.count) problem\(errors.count == 1 ? "" : "s"); see errors",
            errors: errors)
    }

    /// Parses a request body that must be a JSON object: 400 `json.invalid` when it is not JSON, 400
    /// `type.mismatch` saying `expected` when it is JSON of another kind.
    package static func jsonObject(_ body: [UInt8], expected: String) throws(ProblemDetails) -> JSONObject {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: body)
        } catch {
            throw badRequest(
                [FieldProblem(pointer: "", code: "json.invalid", detail: error.description)],
                detail: "the body is not JSON")
        }
        guard case .object(let object) = json else {
            throw badRequest([FieldProblem(pointer: "", code: "type.mismatch", detail: expected)])
        }
        return object
    }

    /// 422 listing every problem of a well-formed body.
    package static func unprocessable(_ errors: [FieldProblem]) -> ProblemDetails {
        ProblemDetails(
            status: .unprocessableContent, type: RequestProblem.validationType, title: "Validation failed",
            detail: "the body has \(errors.count) problem\(errors.count == 1 ? "" : "s"); nothing was stored",
            errors: errors)
    }

    /// Why an existing app or environment is not served: 404 `no-live-revision` when nothing was ever published
    /// there (a new environment is a normal state, not a server fault), else 503 (``unavailable(_:_:)``).
    package static func notServed(_ app: String, _ reason: PolicyStore.Unavailable) -> ProblemDetails {
        guard reason.revision == nil else { return unavailable(app, reason) }
        return ProblemDetails(
            status: .notFound, type: PolicyStoreProblem.noLiveRevision, title: "No live revision",
            detail: "app \"\(app)\" has nothing to serve: \(reason.reason); publish a revision first",
            instance: "/v1/apps/\(app)")
    }

    /// 503 for an app whose live revision cannot be served.
    package static func unavailable(_ app: String, _ reason: PolicyStore.Unavailable) -> ProblemDetails {
        ProblemDetails(
            status: .serviceUnavailable, type: PolicyStoreProblem.appUnavailable, title: "Policy unavailable",
            detail: "app \"\(app)\" has no servable policy: \(reason.reason)", instance: "/v1/apps/\(app)")
    }

    /// A core validation problem as an HTTP field problem, its pointer prefixed (e.g. `/events/3`).
    package static func field(_ problem: ValidationProblem, under prefix: String = "") -> FieldProblem {
        FieldProblem(
            pointer: prefix + (problem.pointer.tokens.isEmpty ? "" : problem.pointer.description),
            code: problem.code.rawValue, detail: problem.message)
    }
}
