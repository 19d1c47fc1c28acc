import PreludeCore
import PreludeHTTP
import PreludeStore

/// `GET /v1/admin/apps/{app}/experiments/{key}/results`: an experiment's funnel, grant rates, intervals,
/// comparisons, verdicts and sample-ratio check as JSON (docs/results.md, "Service").
///
/// The verdict uses only the analysis settings the policy fixed (`alpha` and `minimumEffect` of the experiment's
/// revision). Query parameters, all optional: `minimumEffect` (in [0.0001, 1)) and `alpha` (in [0.0001, 0.2]) give
/// an exploratory view without any verdict when they differ from the fixed ones; `control` (compare with another
/// variant); `pretty` (indented JSON, as every admin route).
/// Errors: 404 unknown app or experiment, 400 bad parameter, 422 a configuration that cannot be analysed.
/// Registered with the admin routes (read scope) by ``AdminAPI/registerResultsRoutes(on:)``.
package enum ResultsRoutes {
    /// The route pattern.
    package static let path = "/v1/admin/apps/{app}/experiments/{key}/results"
    /// The query parameters the route reads (besides `pretty`); any other is refused (``AdminQuery``).
    package static let parameters = ["minimumEffect", "alpha", "control"]

    /// Answers one request (already authenticated).
    package static func respond(
        to request: HTTPRequest, reader: ExperimentResultsReader, pretty: Bool
    ) throws -> HTTPResponse {
        let app = request.pathParameter("app") ?? ""
        let key = request.pathParameter("key") ?? ""
        var minimumEffect: Double?
        if let raw = request.queryValue("minimumEffect") {
            guard let value = Double(raw), ExperimentAnalysis.isValidMinimumEffect(value) else {
                throw ExperimentResultsError.invalidParameter(
                    name: "minimumEffect", value: raw,
                    reason: ExperimentAnalysis.minimumEffectRule)
            }
            minimumEffect = value
        }
        var alpha: Double?
        if let raw = request.queryValue("alpha") {
            guard let value = Double(raw), Experiment.isValidAlpha(value) else {
                throw ExperimentResultsError.invalidParameter(
                    name: "alpha", value: raw, reason: ExperimentResultsReader.alphaRule)
            }
            alpha = value
        }
        let control = request.queryValue("control")
        if let control, control.isEmpty {
            throw ExperimentResultsError.invalidParameter(name: "control", value: "", reason: "is empty")
        }
        let results = try reader.results(
            appID: app, experiment: key, minimumEffect: minimumEffect, alpha: alpha, control: control)
        // Results move with every event: AdminResponse.json sets Cache-Control: no-store.
        return AdminResponse.json(results.encodeJSON(), pretty: pretty)
    }
}
