import PreludeCore
import PreludeHTTP

/// The public client API: the resolved policy, the whole policy document, decide, and event ingestion.
///
/// The two policy reads run inline on the event loop: a cache hit is a route match, a snapshot lookup, a
/// cache lookup and prepared bytes, with no JSON encoding. A resolved-policy miss resolves and compresses on
/// the loop thread once per distinct resolution and revision (bounded by the cache).
package enum PublicRoutes {
    /// Largest `POST /decide` body.
    package static let maxDecideBodySize = 64 << 10

    /// Registers every public route.
    package static func register(
        on router: inout Router, store: PolicyStore, cacheControl: PolicyCacheControl, events: EventIngestor
    ) {
        router.add(.get, "/v1/apps/{app}/policy/document", options: RouteOptions(runsInline: true)) { request in
            let snapshot = try liveSnapshot(request, store: store)
            var headers = HTTPHeaders()
            headers.set("Cache-Control", cacheControl.document)
            return HTTPResponse.negotiated(
                request, snapshot.documentResponse, contentType: "application/json", headers: headers)
        }

        router.add(.get, "/v1/apps/{app}/policy", options: RouteOptions(runsInline: true)) { request in
            let snapshot = try liveSnapshot(request, store: store)
            let context = try PolicyQuery.context(request)
            let (prepared, key) = ResolvedPolicyResponse.prepared(snapshot, context: context)
            var headers = HTTPHeaders()
            headers.set("Cache-Control", cacheControl.resolved)
            headers.set("Content-Language", key.locale.description)
            var response = HTTPResponse.negotiated(
                request, prepared, contentType: "application/json", headers: headers)
            // RFC 9110 §12.5.5: the bytes also depend on Accept-Language (when no locale parameter is given).
            response.headers.set("Vary", "Accept-Encoding, Accept-Language")
            return response
        }

        EventRoutes.register(on: &router, store: store, ingestor: events)
    }

    /// The live snapshot of the `{app}` in the path, or the 404 (unknown) / 503 (not servable) problem.
    package static func liveSnapshot(_ request: HTTPRequest, store: PolicyStore) throws(ProblemDetails)
        -> LiveSnapshot
    {
        let app = request.pathParameters["app"] ?? ""
        if let snapshot = store.snapshot(app: app) { return snapshot }
        if let unavailable = store.unavailability(app: app) { throw PublicProblem.unavailable(app, unavailable) }
        throw PolicyStoreProblem.unknownApp(app)
    }
}
