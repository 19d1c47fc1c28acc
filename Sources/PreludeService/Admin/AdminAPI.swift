import PreludeCore
import PreludeHTTP
import PreludeStorage
import PreludeStore

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// The admin API (`/v1/admin/**`): tokens, policy editing, revisions, audit. Every route is authenticated by
/// `AdminAuthenticator`; GET needs `read`, every other method `write`.
package final class AdminAPI: Sendable {
    /// The database (reads of revisions and audit; token writes).
    package let database: Database
    /// The live policies; every policy write goes through it (revision + audit in one transaction, then swap).
    package let store: PolicyStore
    /// The apps and revisions as stored (history, settings, counts: what the served snapshots do not hold).
    let apps: PolicyRepository
    /// Admin tokens.
    package let tokens: TokenStore
    /// Bearer authentication, scopes and the failure rate limit.
    package let authenticator: AdminAuthenticator
    /// The service log.
    package let logger: Logger
    /// The clock for audit times (injected in tests).
    package let clock: ServiceClock
    /// The primary, when this server is a read replica: every admin write is then refused with 409 naming it.
    package let followURL: FollowURL?
    /// Change requests (docs/change-management.md).
    package let changes: ChangeRequests
    /// The primary's scheduled publishes; started and stopped by the service (a replica's never runs).
    package let scheduler: PublishSchedulerTask
    /// Guarded rollouts: operator requests, and the guard's evaluations when a scheduler drives it (primary only).
    package let rollouts: RolloutController

    /// Largest policy document or patch accepted, in bytes (docs/http.md: large apps exceed 64 KiB).
    package static let maxBodySize = 1 << 20

    /// Creates the API; `authenticator` defaults to one over `database`'s tokens with the same clock.
    package init(
        database: Database, store: PolicyStore, logger: Logger, authenticator: AdminAuthenticator? = nil,
        followURL: FollowURL? = nil, clock: ServiceClock = .system, rollouts: RolloutController? = nil,
        changeRules: EnvironmentRules.Source? = nil
    ) {
        self.followURL = followURL
        self.rollouts =
            rollouts ?? RolloutController(database: database, store: store, clock: clock, logger: logger)
        changes = ChangeRequests(database: database, store: store, rules: changeRules, clock: clock, logger: logger)
        scheduler = PublishSchedulerTask(
            changes: changes, role: followURL == nil ? .primary : .replica, clock: clock, logger: logger)
        self.database = database
        self.store = store
        self.tokens = TokenStore(database: database)
        apps = PolicyRepository(database: database)
        self.logger = logger
        self.clock = clock
        self.authenticator =
            authenticator ?? AdminAuthenticator(tokens: TokenStore(database: database), logger: logger, clock: clock)
    }

    /// The current time in milliseconds since the epoch.
    package var now: Int64 { clock.milliseconds }

    /// A request that passed authentication.
    package struct Context: Sendable {
        /// The HTTP request.
        package let request: HTTPRequest
        /// The token that authorised it; its name is the actor in audit records.
        package let token: AdminToken
        /// Whether to indent JSON responses.
        package let pretty: Bool
        /// The admin API's logger with this request's `request_id` on every line.
        package let logger: Logger

        /// A path parameter captured by the route (always present for the route's own captures).
        package func parameter(_ name: String) -> String { request.pathParameter(name) ?? "" }
    }

    /// Registers every admin route on `router`.
    package static func register(on router: inout Router, api: AdminAPI) {
        api.registerTokenRoutes(on: &router)
        api.registerAppRoutes(on: &router)
        api.registerAppSettingsRoutes(on: &router)
        api.registerPolicyRoutes(on: &router)
        api.registerFeatureRoutes(on: &router)
        api.registerRevisionRoutes(on: &router)
        api.registerAuditRoutes(on: &router)
        api.registerResultsRoutes(on: &router)
        api.registerExperimentRoutes(on: &router)
        api.registerPreviewRoutes(on: &router)
        api.registerRolloutRoutes(on: &router)
        api.registerChangeRequestRoutes(on: &router)
    }

    /// A change request was scheduled or unscheduled: the scheduler looks again now.
    func scheduleChanged() { scheduler.wake() }

    /// Adds one route: authentication with `scope` (default: `read` for GET, `write` otherwise), the query check
    /// (``AdminQuery/check(_:allowed:)`` with `query`, the route's own parameter names, when given), then `handler`;
    /// errors render as problems (indented when asked), unexpected ones are logged and answer 500 without internals.
    /// `problem` with its `instance` (RFC 9457 §3.1.5) naming the admin resource asked for, where the shared
    /// constructor named the public one (`/v1/apps/{app}` for an unknown app).
    static func naming(_ request: HTTPRequest, in problem: ProblemDetails) -> ProblemDetails {
        guard problem.instance?.hasPrefix("/v1/apps/") == true else { return problem }
        var problem = problem
        problem.instance = request.path
        return problem
    }

    func add(
        _ router: inout Router, _ method: HTTPMethod, _ pattern: String, scope: TokenScope? = nil,
        query: [String]? = nil, maxBodySize: Int? = nil, _ handler: @escaping @Sendable (Context) throws -> HTTPResponse
    ) {
        let scope = scope ?? (method == .get || method == .head ? .read : .write)
        let logger = self.logger
        let authenticator = self.authenticator
        // A read replica refuses writes before authenticating: its tokens are its own, and the answer names where
        // the write must go (docs/scaling.md).
        let refusal = followURL.flatMap {
            method == .get || method == .head ? nil : ReplicationRoutes.readReplica(primary: $0)
        }
        router.add(method, pattern, options: RouteOptions(maxBodySize: maxBodySize ?? Self.maxBodySize)) { request in
            let pretty = AdminResponse.wantsPretty(request)
            if let refusal { return AdminResponse.problem(refusal, pretty: pretty) }
            let logger = logger.with(["request_id": request.requestID])
            var tokenName: String?
            var response: HTTPResponse
            do {
                let token = try authenticator.authorize(request, required: scope)
                tokenName = token.name
                if let query { try AdminQuery.check(request, allowed: query) }
                response = try handler(Context(request: request, token: token, pretty: pretty, logger: logger))
            } catch let problem as ProblemDetails {
                response = AdminResponse.problem(Self.naming(request, in: problem), pretty: pretty)
            } catch let error as any HTTPResponseError {
                response = AdminResponse.problem(error, pretty: pretty)
            } catch let error as PolicyStoreError {
                response = AdminResponse.problem(
                    Self.naming(request, in: PolicyStoreProblem.problem(for: error)), pretty: pretty)
            } catch let error as TokenError {
                response = AdminResponse.problem(Self.problem(for: error), pretty: pretty)
            } catch {
                logger.error("admin request failed", ["route": "\(method) \(pattern)", "error": "\(error)"])
                // A write that failed on storage (disk full, I/O error): 503 with Retry-After and its own type.
                response = AdminResponse.problem(
                    StorageHealth.problem(for: error)
                        ?? ProblemDetails(
                            status: .internalServerError, detail: "the request failed; nothing was changed"),
                    pretty: pretty)
            }
            // The request log names who made an admin call: the token's name, never its secret.
            if let tokenName { response.logFields["token"] = tokenName }
            return response
        }
    }

    static func problem(for error: TokenError) -> ProblemDetails {
        switch error {
        case .invalidName:
            AdminProblem.invalidRequest(
                error.description, pointer: "/name", code: "token.invalidName", status: .unprocessableContent)
        case .nameTaken: ProblemDetails(status: .conflict, detail: error.description)
        case .notFound: AdminProblem.notFound(error.description)
        }
    }

    /// Query parameter `name` as an integer in `range`, or the default; 400 naming the parameter otherwise.
    static func integerQuery(
        _ request: HTTPRequest, _ name: String, default value: Int, range: ClosedRange<Int>
    ) throws(ProblemDetails) -> Int {
        guard let text = request.queryValue(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw AdminProblem.invalidRequest(
                "query parameter '\(name)' must be an integer from \(range.lowerBound) to \(range.upperBound), not '\(text)'"
            )
        }
        return number
    }
}

extension AdminAPI {
    /// The API for the service: applies `PRELUDE_ADMIN_TOKEN` (or logs how to create a first token).
    ///
    /// `clock` stamps change requests and decides when a scheduled one is due (tests inject one);
    /// `changeRules` replaces the environments' stored rules (tests).
    package static func make(
        configuration: ServiceConfiguration, database: Database, store: PolicyStore, logger: Logger,
        rollouts: RolloutController? = nil, clock: ServiceClock = .system, changeRules: EnvironmentRules.Source? = nil
    ) throws -> AdminAPI {
        let authenticator = AdminAuthenticator(
            tokens: TokenStore(database: database), logger: logger,
            limiter: FailureRateLimiter(burst: configuration.adminAuthFailuresPerMinute, window: 60),
            proxies: configuration.trustedProxies)
        let api = AdminAPI(
            database: database, store: store, logger: logger, authenticator: authenticator,
            followURL: configuration.followURL, clock: clock, rollouts: rollouts, changeRules: changeRules)
        try AdminBootstrap.run(secret: configuration.adminToken, tokens: api.tokens, logger: logger, now: api.now)
        return api
    }

    /// Registers the admin routes on `main`, or on `separate` when `adminPort` is set (then the main listener
    /// answers 404 for `/v1/admin/**`).
    package static func register(
        on main: inout Router, or separate: inout Router, api: AdminAPI, configuration: ServiceConfiguration
    ) {
        if configuration.adminPort == nil {
            register(on: &main, api: api)
        } else {
            register(on: &separate, api: api)
        }
    }

    /// Starts the separate admin listener when `adminPort` is set; returns it and its bound port.
    /// `instrument` adds the request log and metrics hooks to the listener's configuration.
    package static func startListener(
        configuration: ServiceConfiguration, router: Router, logger: Logger,
        instrument: (HTTPServerConfiguration, Router) -> HTTPServerConfiguration = { configuration, _ in configuration }
    ) throws -> (HTTPServer?, Int?) {
        guard let port = configuration.adminPort else { return (nil, nil) }
        let host = configuration.adminHost ?? configuration.host
        let server = HTTPServer(
            configuration: instrument(HTTPServerConfiguration(host: host, port: port), router), router: router)
        let bound = try server.start()
        logger.info("admin listening", ["host": host], numbers: ["port": Double(bound)])
        return (server, bound)
    }
}
