import PreludeCore
import PreludeHTTP
import PreludeStore

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// The public client API: the resolved policy, the whole policy document, decide, and event ingestion.
///
/// The two policy reads and decide run inline on the event loop (they never block): a policy cache hit is a
/// route match, a snapshot lookup, a cache lookup and prepared bytes, with no JSON encoding; decide parses a
/// small body (≤ 64 KiB) and runs the pure engine on a cached resolved policy. A resolution miss resolves (and
/// for the policy read, serializes and compresses) on the loop thread, once per distinct resolution and
/// revision (bounded by the cache). Events block on the database writer, so they run on the worker pool.
package enum PublicRoutes {
    /// Largest `POST /decide` body.
    package static let maxDecideBodySize = 64 << 10

    /// Registers every public route.
    package static func register(
        on router: inout Router, store: PolicyStore, events: EventIngestor,
        eventBudget: IngestionBudget? = nil, clock: ServiceClock = .system
    ) {
        // Every route twice: under `/v1/apps/{app}` (production) and `/v1/apps/{app}/environments/{env}`
        // (docs/decisions.md, "Environments in the path").
        for base in prefixes {
            registerPolicyRoutes(on: &router, base: base, store: store, clock: clock)
            EventRoutes.register(on: &router, base: base, store: store, ingestor: events, budget: eventBudget)
        }
        OFREPRoutes.register(on: &router, store: store, clock: clock)
    }

    /// The two prefixes every public route has: production's, and any environment's.
    package static let prefixes = ["/v1/apps/{app}", "/v1/apps/{app}/environments/{env}"]

    private static func registerPolicyRoutes(
        on router: inout Router, base: String, store: PolicyStore, clock: ServiceClock
    ) {
        router.add(.get, base + "/policy/document", options: RouteOptions(runsInline: true)) { request in
            HTTPResponse(try liveSnapshot(request, store: store).servedDocument)
        }

        router.add(.get, base + "/policy", options: RouteOptions(runsInline: true)) { request in
            // The served policy's one door: a remembered plain query, else the query parsed once and resolved.
            HTTPResponse(try liveSnapshot(request, store: store).response(for: request).response)
        }

        // The decide response's status and fields depend only on the served locale: one prepared head per
        // locale, rendered once, instead of building fields and rendering a head per request.
        let decideHeads = LRUCache<String, PreparedHead>(capacity: 64)
        router.add(
            .post, base + "/decide", options: RouteOptions(maxBodySize: maxDecideBodySize, runsInline: true)
        ) { request in
            try EventRoutes.requireJSON(request)
            let snapshot = try liveSnapshot(request, store: store)
            let acceptLanguage = request.headers.values(for: "Accept-Language")
            let decide = try DecideRequest.decode(
                request.body, acceptLanguage: acceptLanguage.isEmpty ? nil : acceptLanguage.joined(separator: ", "))
            let policy = snapshot.resolved(for: decide.context)
            let now = Instant(secondsSinceEpoch: clock.seconds)
            // The contract's envelope (core, shared with the client's offline decider), written straight to bytes.
            let locale = policy.locale.description
            var body = DecideContract.ResponseBody(
                revision: snapshot.revision, locale: locale, expectedDecisions: decide.states.count)
            var problems: [FieldProblem] = []
            // The core's one decide function (OFREP and the client's offline decider call it too).
            for result in DecideContract.decisions(in: policy, for: decide.states, now: now) {
                switch result {
                case .success(let decision): body.append(decision)
                case .failure(let failure):
                    problems.append(
                        FieldProblem(
                            pointer: failure.pointer.description, code: "decision.impossible",
                            detail: failure.error.description))
                }
            }
            guard problems.isEmpty else { throw PublicProblem.unprocessable(problems) }
            body.finish()
            if let head = decideHeads.value(for: locale) { return HTTPResponse(head: head, body: body.bytes) }
            // A decision depends on the request time: never reuse it.
            let head = PreparedHead(
                headers: ["Content-Type": "application/json", "Cache-Control": "no-store", "Content-Language": locale])
            decideHeads.insert(head, for: locale)
            return HTTPResponse(head: head, body: body.bytes)
        }
    }

    /// The live snapshot of the `{app}` (and `{env}`, production without one) in the path, or the 404 (unknown app
    /// or environment) / 503 (not servable) problem.
    package static func liveSnapshot(_ request: HTTPRequest, store: PolicyStore) throws(ProblemDetails)
        -> ServedPolicy
    {
        let app = request.pathParameter("app") ?? ""
        guard let environment = request.pathParameter("env") else {
            if let snapshot = store.snapshot(app: app) { return snapshot }
            if let unavailable = store.unavailability(app: app) { throw PublicProblem.notServed(app, unavailable) }
            throw PolicyStoreProblem.unknownApp(app)
        }
        if let snapshot = store.snapshot(app: app, environment: environment) { return snapshot }
        throw missing(app: app, environment: environment, store: store)
    }

    /// The problem for an environment that is not served: when it exists, 404 `no-live-revision` before its first
    /// publish and 503 for a live revision this build cannot serve; else 404 for the environment (or the app).
    package static func missing(app: String, environment: String, store: PolicyStore) -> ProblemDetails {
        if let unavailable = store.unavailability(app: app, environment: environment) {
            var problem = PublicProblem.notServed(app, unavailable)
            problem.instance = "/v1/apps/\(app)/environments/\(environment)"
            return problem
        }
        if store.snapshot(app: app) == nil, store.unavailability(app: app) == nil {
            return PolicyStoreProblem.unknownApp(app)
        }
        return PolicyStoreProblem.unknownEnvironment(app: app, environment: environment)
    }
}
