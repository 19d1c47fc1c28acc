import PreludeCore
import PreludeHTTP
import PreludeStore

/// `GET /v1/admin/apps/{app}/experiments/{key}/results`: an experiment's funnel, grant rates, intervals,
/// comparisons, verdicts and sample-ratio check as JSON (docs/results.md, "Service"), or — when `Accept` prefers
/// `text/html` — the same report as the results page (``ExperimentResults/renderPage()``).
///
/// The verdict uses only the analysis settings the policy fixed (`alpha` and `minimumEffect` of the experiment's
/// revision). Query parameters, all optional: `minimumEffect` (in [0.0001, 1)) and `alpha` (in [0.0001, 0.2]) give
/// an exploratory view without any verdict when they differ from the fixed ones; `control` (compare with another
/// variant); `pretty` (indented JSON, as every admin route).
/// Errors: 404 unknown app or experiment, 400 bad parameter, 422 a configuration that cannot be analysed.
/// Registered with the admin routes (read scope), holding the results reader: the counts come from the aggregates,
/// the weights from the live snapshot of the policy store (``ExperimentResultsReader/init(database:live:)``).
struct ResultsRoutes: AdminRouteCollection {
    let reader: ExperimentResultsReader

    /// The pattern after `/v1/admin/apps/{app}` (production's results) or `/v1/admin/apps/{app}/environments/{env}`.
    static let suffix = "/experiments/{key}/results"
    /// The query parameters the route reads (besides `pretty`); any other is refused (``AdminQuery``).
    static let parameters = ["minimumEffect", "alpha", "control"]

    /// `GET /v1/admin/apps/{app}/experiments/{key}/results` and its `/environments/{env}` form (read scope).
    func register(on group: inout AdminRouteGroup) {
        group.addEnvironmental(.get, Self.suffix, scope: .read, query: Self.parameters) { [self] context in
            try respond(to: context.request, pretty: context.pretty)
        }
    }

    /// Answers one request (already authenticated).
    private func respond(to request: HTTPRequest, pretty: Bool) throws -> HTTPResponse {
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
        let environment = request.pathParameter("env") ?? EnvironmentName.production
        let results = try reader.results(
            appID: app, environment: environment, experiment: key, minimumEffect: minimumEffect, alpha: alpha,
            control: control)
        let accept = request.headers.values(for: "Accept")
        if AcceptMediaType.prefersHTML(accept.isEmpty ? nil : accept.joined(separator: ",")) {
            return Self.page(results.renderPage())
        }
        // Results move with every event: AdminResponse.json sets Cache-Control: no-store.
        return AdminResponse.json(results.encodeJSON(), pretty: pretty)
    }

    /// The results page: never stored by caches, allowed to load nothing but its own inline style (no script, no
    /// font, no image from anywhere), and varying with `Accept`.
    static func page(_ html: String) -> HTTPResponse {
        var response = HTTPResponse(status: .ok, body: Array(html.utf8))
        response.headers.set("Content-Type", "text/html; charset=utf-8")
        response.headers.set("Cache-Control", "no-store")
        response.headers.set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
        response.headers.set("X-Content-Type-Options", "nosniff")
        response.headers.set("Vary", "Accept")
        return response
    }
}
