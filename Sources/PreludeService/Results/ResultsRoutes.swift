import PreludeCore
import PreludeHTTP

/// `GET /v1/admin/apps/{app}/experiments/{key}/results`: an experiment's funnel, grant rates, intervals,
/// comparisons, verdicts and sample-ratio check as JSON (docs/results.md, "Service").
///
/// Query parameters, all optional: `minimumEffect` (absolute grant-rate change to size the sample for, in (0, 1),
/// default 0.02), `control` (compare with another variant), `pretty` (indented JSON for a terminal).
/// Errors: 404 unknown app or experiment, 400 bad parameter, 422 a configuration that cannot be analysed.
package enum ResultsRoutes {
    /// The route pattern.
    package static let path = "/v1/admin/apps/{app}/experiments/{key}/results"

    /// Registers the route. `protect` wraps the handler with the admin authentication (read scope); it is the
    /// only place auth is applied, so the route is never registered unprotected by accident.
    package static func register(
        on router: inout Router, reader: ExperimentResultsReader, protect: (@escaping HTTPHandler) -> HTTPHandler
    ) {
        router.add(.get, path, protect(handler(reader: reader)))
    }

    /// The unprotected handler (tests call it in-process).
    package static func handler(reader: ExperimentResultsReader) -> HTTPHandler {
        { request in
            let app = request.pathParameters["app"] ?? ""
            let key = request.pathParameters["key"] ?? ""
            var minimumEffect = ExperimentAnalysis.defaultMinimumEffect
            if let raw = request.queryValue("minimumEffect") {
                guard let value = Double(raw), value.isFinite, value > 0, value < 1 else {
                    throw ExperimentResultsError.invalidParameter(
                        name: "minimumEffect", value: raw,
                        reason: "must be an absolute grant-rate change strictly between 0 and 1 (0.02 = 2 points)")
                }
                minimumEffect = value
            }
            let control = request.queryValue("control")
            if let control, control.isEmpty {
                throw ExperimentResultsError.invalidParameter(name: "control", value: "", reason: "is empty")
            }
            let results = try reader.results(
                appID: app, experiment: key, minimumEffect: minimumEffect, control: control)
            let pretty = request.queryValue("pretty").map { $0 != "false" && $0 != "0" } ?? false
            var response = HTTPResponse.json(results.encodeJSON().serializedBytes(pretty ? .pretty : .compact))
            // Results move with every event: never cached by a shared cache (RFC 9111 §5.2.2.5).
            response.headers.set("Cache-Control", "no-store")
            return response
        }
    }
}
