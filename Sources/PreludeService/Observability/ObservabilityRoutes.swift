import PreludeHTTP

/// `GET /metrics` (Prometheus text format 0.0.4) and `GET /openapi.yaml`.
package enum ObservabilityRoutes {
    /// Registers both routes. Without a document, `/openapi.yaml` answers 404 with a problem saying the file
    /// was not installed (logged as a warning at start) rather than the service refusing to start.
    package static func register(
        on router: inout Router, observability: Observability,
        openAPI: OpenAPIDocument? = OpenAPIDocument.locate()
    ) {
        let logger = observability.logger
        let registry = observability.registry
        router.add(.get, "/metrics") { _ in
            HTTPResponse(
                status: .ok, headers: ["Content-Type": MetricsTextWriter.contentType, "Cache-Control": "no-store"],
                body: Array(registry.render().utf8))
        }
        if openAPI == nil {
            logger.warning(
                "openapi.yaml not found; GET /openapi.yaml answers 404", ["file": OpenAPIDocument.fileName])
        }
        router.add(.get, "/openapi.yaml", options: RouteOptions(runsInline: true)) { request in
            guard let openAPI else {
                throw ProblemDetails(
                    status: .notFound, detail: "the OpenAPI document is not installed with this server",
                    instance: request.path)
            }
            return HTTPResponse(openAPI.response)
        }
    }
}
