import PreludeCore
import PreludeHTTP
import PreludeStorage
import PreludeStore

/// `POST /v1/apps/{app}/events` (and `/v1/apps/{app}/environments/{env}/events`): validates a batch as a whole (sent plain or `Content-Encoding: gzip`), stores it
/// durably, answers `202 {"accepted": n, "duplicates": m}`.
package enum EventRoutes {
    /// Registers the route. The batch is decoded and validated on the worker pool, checked against the live
    /// policy's experiments and the ingestion `budget`, then handed to the ingestor's group commit; the 202 is sent
    /// when the commit holding it has finished, without a thread waiting for it.
    package static func register(
        on router: inout Router, base: String = "/v1/apps/{app}", store: PolicyStore, ingestor: EventIngestor,
        budget: IngestionBudget? = nil
    ) {
        router.addDeferred(.post, base + "/events", options: RouteOptions(maxBodySize: EventBatch.maxBodySize)) {
            request, completion in
            try requireJSON(request)
            let app = request.pathParameter("app") ?? ""
            let environment = request.pathParameter("env") ?? EnvironmentName.production
            // Events are accepted for any environment that exists, served or not (a broken policy must not lose
            // them); they count in that environment's results only.
            let snapshot = store.snapshot(app: app, environment: environment)
            let unavailable = snapshot == nil ? store.unavailability(app: app, environment: environment) : nil
            guard snapshot != nil || unavailable != nil else {
                throw request.pathParameter("env") == nil
                    ? PolicyStoreProblem.unknownApp(app)
                    : PublicRoutes.missing(app: app, environment: environment, store: store)
            }
            let address = budget?.clientAddress(request)
            if let budget, let address { try budget.precheck(address: address) }
            // The batch's device segment (Prelude-OS-Major, Prelude-Locale), checked before the body is decoded.
            let segment = try EventSegment.declared(by: request)
            let body = try EventBodyCoding.decodedBody(request, maxSize: EventBatch.maxBodySize)
            // Every problem of every event at once, the live policy's experiments included (docs/api.md).
            var batch = try EventBatch.decode(body, now: ingestor.now, against: snapshot?.document)
            batch.tag(with: segment)
            if snapshot == nil, let unavailable, batch.namesExperiments {
                // No live document to check the experiments against: 503 for a broken revision, so the client
                // keeps the batch and retries once the policy is fixed (untagged events are still stored); 404
                // where nothing was ever published, as no client can have been given those experiments.
                throw PublicProblem.notServed(app, unavailable)
            }
            if let budget, let address { try budget.admit(batch, address: address) }
            ingestor.submit(app: app, environment: environment, batch: batch) { completion(response(app: app, $0)) }
        }
    }

    /// The answer to a stored batch: `202 {"accepted": n, "duplicates": m}`, or the problem why nothing was stored.
    package static func response(app: String, _ result: Result<EventIngestor.Outcome, any Error>) -> Result<
        HTTPResponse, any Error
    > {
        result.map { outcome in
            .json(
                Array(#"{"accepted":\#(outcome.accepted),"duplicates":\#(outcome.duplicates)}"#.utf8),
                status: .accepted)
        }.mapError { error in
            // The app was deleted between the check and the write.
            if let error = error as? StorageError, error.isForeignKeyViolation {
                return PolicyStoreProblem.unknownApp(app)
            }
            // A full disk or failing storage answers 503 with Retry-After (StorageError's ProblemError conformance),
            // never a 202 for what is not stored.
            return error
        }
    }

    /// 415 unless the body is declared JSON (`application/json` or a `+json` type, UTF-8): PreludeHTTP's one rule
    /// for JSON bodies (``PreludeHTTP/JSONMediaType``), the admin API's too.
    package static func requireJSON(_ request: HTTPRequest) throws(ProblemDetails) {
        try JSONMediaType.require(request, accepting: .anyJSON, headers: ["Accept-Post": "application/json"])
    }
}
