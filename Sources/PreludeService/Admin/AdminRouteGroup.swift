import PreludeCore
import PreludeHTTP
import PreludeStore

/// The admin API's route group (`/v1/admin/**`), after Hummingbird's `RouterGroup`: every route a collection adds
/// through it runs behind the same wrapper, in this order:
///
/// 1. replica refusal: a read replica refuses writes (409 naming its primary) before authenticating, its tokens
///    being its own (docs/scaling.md);
/// 2. authentication with the route's scope (`read` for GET and HEAD, `write` otherwise, unless the route says);
/// 3. on a PostgreSQL cluster, the node's live revisions brought up to the database (best effort), so an operator's
///    call through a load balancer sees the changes another node made (docs/scaling.md, "PostgreSQL cluster");
/// 4. the token's grant for the app and environment addressed (``AdminAPI/checkGrant(_:request:pattern:)``);
/// 5. the query allow-list (``AdminQuery/check(_:allowed:)``) when the route names its parameters.
///
/// Then the handler. Whatever it throws is answered in one place: a ``ProblemError`` (a problem, or a store refusal
/// or failure that maps to one, a storage failure as 503) as its problem, named for the admin resource; another
/// ``PreludeHTTP/HTTPResponseError`` as it renders itself; anything else logged and answered 500 without internals.
package struct AdminRouteGroup {
    /// The router the routes are added to.
    package var router: Router
    let authenticator: AdminAuthenticator
    let store: PolicyStore
    let logger: Logger
    let followURL: FollowURL?
    let sharesDatabase: Bool

    /// A group adding to `router`.
    package init(
        router: Router, authenticator: AdminAuthenticator, store: PolicyStore, logger: Logger, followURL: FollowURL?,
        sharesDatabase: Bool
    ) {
        self.router = router
        self.authenticator = authenticator
        self.store = store
        self.logger = logger
        self.followURL = followURL
        self.sharesDatabase = sharesDatabase
    }

    /// Adds `collection`'s routes.
    package mutating func add(_ collection: some AdminRouteCollection) { collection.register(on: &self) }

    /// Adds one route behind the group's wrapper: `scope` defaults to `read` for GET and HEAD, `write` otherwise;
    /// `query` (the route's own parameter names) turns on the query check; `maxBodySize` defaults to
    /// ``AdminAPI/maxBodySize``.
    package mutating func add(
        _ method: HTTPMethod, _ pattern: String, scope: TokenScope? = nil, query: [String]? = nil,
        maxBodySize: Int? = nil, _ handler: @escaping @Sendable (AdminAPI.Context) throws -> HTTPResponse
    ) {
        let scope = scope ?? (method == .get || method == .head ? .read : .write)
        let (logger, authenticator, store, sharesDatabase) = (logger, authenticator, store, sharesDatabase)
        let refusal = followURL.flatMap {
            method == .get || method == .head ? nil : ReplicationRoutes.readReplica(primary: $0)
        }
        let options = RouteOptions(maxBodySize: maxBodySize ?? AdminAPI.maxBodySize)
        router.add(method, pattern, options: options) { request in
            let pretty = AdminResponse.wantsPretty(request)
            if let refusal { return AdminResponse.problem(refusal, pretty: pretty) }
            let logger = logger.with(["request_id": request.requestID])
            var tokenName: String?
            var response: HTTPResponse
            do {
                let token = try authenticator.authorize(request, required: scope)
                tokenName = token.name
                if sharesDatabase { _ = try? store.refreshChanged() }
                try AdminAPI.checkGrant(token, request: request, pattern: pattern)
                if let query { try AdminQuery.check(request, allowed: query) }
                response = try handler(
                    AdminAPI.Context(request: request, token: token, pretty: pretty, logger: logger))
            } catch {
                response = Self.answer(
                    error, to: request, route: "\(method) \(pattern)", pretty: pretty, logger: logger)
            }
            // The request log names who made an admin call: the token's name, never its secret.
            if let tokenName { response.logFields["token"] = tokenName }
            return response
        }
    }

    /// Adds a route about one environment's policy twice: as `/v1/admin/apps/{app}` + `suffix` (production, the
    /// paths of builds before environments) and as `/v1/admin/apps/{app}/environments/{env}` + `suffix`; the handler
    /// reads the environment from ``AdminAPI/Context/environment``.
    package mutating func addEnvironmental(
        _ method: HTTPMethod, _ suffix: String, scope: TokenScope? = nil, query: [String]? = nil,
        maxBodySize: Int? = nil, _ handler: @escaping @Sendable (AdminAPI.Context) throws -> HTTPResponse
    ) {
        for base in ["/v1/admin/apps/{app}", "/v1/admin/apps/{app}/environments/{env}"] {
            add(method, base + suffix, scope: scope, query: query, maxBodySize: maxBodySize, handler)
        }
    }

    /// The response to what a handler (or the wrapper) threw.
    static func answer(_ error: any Error, to request: HTTPRequest, route: String, pretty: Bool, logger: Logger)
        -> HTTPResponse
    {
        switch error {
        case let error as any ProblemError:
            let problem = error.problem
            // A failure mapped to a server error (a write that failed on storage: 503 with Retry-After; a row this
            // build cannot read) is logged with its internals; a refusal, or a problem a handler built, is not.
            if problem.status.code >= 500, !(error is ProblemDetails) {
                logger.error("admin request failed", ["route": route, "error": "\(error)"])
            }
            return AdminResponse.problem(naming(request, in: problem), pretty: pretty)
        case let error as any HTTPResponseError:
            return AdminResponse.problem(error, pretty: pretty)
        default:
            logger.error("admin request failed", ["route": route, "error": "\(error)"])
            return AdminResponse.problem(ProblemDetails.requestFailed, pretty: pretty)
        }
    }

    /// `problem` with its `instance` (RFC 9457 §3.1.5) naming the admin resource asked for, where the shared
    /// constructor named the public one (`/v1/apps/{app}` for an unknown app).
    static func naming(_ request: HTTPRequest, in problem: ProblemDetails) -> ProblemDetails {
        guard problem.instance?.hasPrefix("/v1/apps/") == true else { return problem }
        var problem = problem
        problem.instance = request.path
        return problem
    }
}

/// One feature's admin routes, holding only what they use (after Hummingbird's `RouteCollection`); the admin API
/// adds each to its ``AdminRouteGroup``.
package protocol AdminRouteCollection: Sendable {
    /// Adds the feature's routes to `group`.
    func register(on group: inout AdminRouteGroup)
}

extension AdminRouteCollection {
    /// A request that passed the group's wrapper.
    package typealias Context = AdminAPI.Context
}
