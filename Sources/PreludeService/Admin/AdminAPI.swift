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
    /// The repositories, built once by the composition root (``PreludeStore/Store``).
    package let repositories: Store
    /// Their database (``PreludeStore/Store/database``).
    package var database: Database { repositories.database }
    /// The live policies; every policy write goes through it (revision + audit in one transaction, then swap).
    package let store: PolicyStore
    /// The apps and revisions as stored (history, settings, counts: what the served snapshots do not hold).
    var apps: PolicyRepository { repositories.policies }
    /// Admin tokens.
    package var tokens: TokenStore { repositories.tokens }
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
    /// Webhooks and their deliveries (docs/webhooks.md).
    var webhooks: WebhookStore { repositories.webhooks }
    /// The hosts a webhook URL may name (`webhookAllowedHosts`).
    let webhookAllowlist: WebhookAllowlist
    /// The primary's webhook sender, woken after a redelivery; nil on a replica and in tests without one.
    let webhookDispatcher: WebhookDispatcher?
    /// Every policy write of the admin routes, and what they ask of the live revision.
    let writer: PolicyWriter

    /// Largest policy document or patch accepted, in bytes (docs/http.md: large apps exceed 64 KiB).
    package static let maxBodySize = 1 << 20

    /// Creates the API over `repositories`; `authenticator` defaults to one over their tokens with the same clock.
    package init(
        repositories: Store, store: PolicyStore, logger: Logger, authenticator: AdminAuthenticator? = nil,
        followURL: FollowURL? = nil, clock: ServiceClock = .system, rollouts: RolloutController? = nil,
        changeRules: EnvironmentRules.Source? = nil,
        webhookAllowlist: WebhookAllowlist = WebhookAllowlist(), webhookDispatcher: WebhookDispatcher? = nil
    ) {
        self.followURL = followURL
        self.rollouts =
            rollouts ?? RolloutController(repositories: repositories, store: store, clock: clock, logger: logger)
        changes = ChangeRequests(
            repositories: repositories, store: store, rules: changeRules, clock: clock, logger: logger,
            rollouts: self.rollouts)
        scheduler = PublishSchedulerTask(
            changes: changes, role: followURL == nil ? .primary : .replica, clock: clock, logger: logger)
        self.webhookAllowlist = webhookAllowlist
        self.webhookDispatcher = webhookDispatcher
        self.repositories = repositories
        self.store = store
        writer = PolicyWriter(store: store, apps: repositories.policies, changes: changes)
        self.logger = logger
        self.clock = clock
        self.authenticator =
            authenticator ?? AdminAuthenticator(tokens: repositories.tokens, logger: logger, clock: clock)
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

        /// The environment addressed: `{env}` of `/v1/admin/apps/{app}/environments/{env}/…`, else `production`
        /// (the paths without an environment mean it).
        package var environment: String { request.pathParameter("env") ?? EnvironmentName.production }

        /// The app and environment addressed.
        package var target: PolicyStore.Key { PolicyStore.Key(app: parameter("app"), environment: environment) }
    }

    /// Registers every admin route on `router`, each feature's collection under one ``AdminRouteGroup``.
    package static func register(on router: inout Router, api: AdminAPI) {
        var group = AdminRouteGroup(
            router: router, authenticator: api.authenticator, store: api.store, logger: api.logger,
            followURL: api.followURL, sharesDatabase: api.database.engine == .postgres)
        group.add(TokenRoutes(tokens: api.tokens, apps: api.apps, clock: api.clock))
        group.add(AppRoutes(apps: api.apps, store: api.store, writer: api.writer))
        group.add(AppSettingsRoutes(apps: api.apps, store: api.store, writer: api.writer, changes: api.changes))
        group.add(EnvironmentRoutes(apps: api.apps, store: api.store, writer: api.writer, changes: api.changes))
        group.add(PromotionRoutes(apps: api.apps, writer: api.writer, changes: api.changes))
        group.add(PolicyRoutes(store: api.store, writer: api.writer))
        group.add(FeatureRoutes(writer: api.writer))
        group.add(RevisionRoutes(apps: api.apps, store: api.store, writer: api.writer))
        group.add(AuditRoutes(audit: api.repositories.audit, apps: api.apps, writer: api.writer))
        let resultsReader = api.repositories.experimentResults(live: api.store)
        group.add(ResultsRoutes(reader: resultsReader))
        group.add(ExperimentRoutes(writer: api.writer, audit: api.repositories.audit))
        group.add(PreviewRoutes(store: api.store, apps: api.apps, writer: api.writer))
        group.add(
            RolloutRoutes(
                rollouts: api.rollouts, writer: api.writer, changes: api.changes, resultsReader: resultsReader,
                audit: api.repositories.audit))
        group.add(RolloutTemplateRoutes(rollouts: api.rollouts, writer: api.writer))
        group.add(ChangeRequestRoutes(changes: api.changes, scheduler: api.scheduler, clock: api.clock))
        group.add(
            WebhookRoutes(
                writer: api.writer, webhooks: api.webhooks, webhookAllowlist: api.webhookAllowlist,
                webhookDispatcher: api.webhookDispatcher, clock: api.clock))
        router = group.router
    }

    /// Whether `token` may publish without the approvals its environment requires: its `bypass` capability (with
    /// scope `write`, which every route that publishes requires).
    static func mayBypass(_ token: AdminToken) -> Bool { token.grant.bypass && token.scope == .write }

    /// The token of `context` as a change-management actor.
    static func actor(_ context: Context) -> ChangeRequests.Actor {
        ChangeRequests.Actor(name: context.token.name, tokenID: context.token.id)
    }

    /// Refuses (403 naming what is missing) a token whose grant does not cover the app and environment addressed:
    /// `{app}` and `{env}` of the path (production when the path has none; the app alone for `…/environments`, whose
    /// handlers check the environments they touch); a route without `{app}` (tokens, the audit log of every app, the
    /// change feed, the app list) needs a token for every app and environment.
    static func checkGrant(_ token: AdminToken, request: HTTPRequest, pattern: String) throws(ProblemDetails) {
        let grant = token.grant
        guard let app = request.pathParameter("app") else {
            // The app list shows a limited token the apps it may touch (its handler filters).
            guard grant.coversEverything || (pattern == "/v1/admin/apps" && request.method == .get) else {
                throw forbidden(
                    token, missing: "every app and environment",
                    detail: "this endpoint concerns every app; token \"\(token.name)\" is limited to "
                        + grant.summary)
            }
            return
        }
        if pattern.hasSuffix("/environments") {
            guard grant.covers(app: app) else { throw grantProblem(token, app: app, environment: nil) }
            return
        }
        try checkGrant(token, app: app, environment: request.pathParameter("env") ?? EnvironmentName.production)
    }

    /// 403 unless `token` may touch `environment` of `app`.
    static func checkGrant(_ token: AdminToken, app: String, environment: String) throws(ProblemDetails) {
        guard !token.grant.covers(app: app, environment: environment) else { return }
        throw grantProblem(token, app: app, environment: environment)
    }

    /// The 403 for a token that may not touch `app` (or `environment` of it).
    static func grantProblem(_ token: AdminToken, app: String, environment: String?) -> ProblemDetails {
        let grant = token.grant
        guard grant.covers(app: app), let environment else {
            return forbidden(
                token, missing: "app \(app)",
                detail: "token \"\(token.name)\" may not touch app \"\(app)\" (it is limited to \(grant.summary))")
        }
        return forbidden(
            token, missing: "environment \(app)/\(environment)",
            detail: "token \"\(token.name)\" may not touch environment \"\(environment)\" of app \"\(app)\" "
                + "(it is limited to \(grant.summary))")
    }

    /// The problem type of a token whose grant does not cover what was addressed.
    static let forbiddenResource = "urn:prelude:problem:token-not-granted"

    private static func forbidden(_ token: AdminToken, missing: String, detail: String) -> ProblemDetails {
        ProblemDetails(
            status: .forbidden, type: forbiddenResource, title: "Not granted to this token",
            detail: detail + "; nothing was read or changed",
            errors: [FieldProblem(pointer: "", code: "token.notGranted", detail: "missing: \(missing)")])
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

    /// 400 when `If-Match` is neither `*` nor a list of quoted entity tags (RFC 9110 §8.8.3: `"…"` or `W/"…"`):
    /// an unquoted tag would otherwise never match and be reported as stale.
    static func checkEntityTags(_ value: String) throws(ProblemDetails) {
        let entries = value.split(separator: ",").map { $0.trimmingWhitespace() }
        let quoted = entries.allSatisfy { entry in
            let tag = entry.hasPrefix("W/") ? entry.dropFirst(2) : Substring(entry)
            return tag.count >= 2 && tag.first == "\"" && tag.last == "\"" && !tag.dropFirst().dropLast().contains("\"")
        }
        guard value.trimmingWhitespace() == "*" || (!entries.isEmpty && quoted) else {
            throw AdminProblem.invalidRequest(
                "If-Match must be * or the ETag in double quotes, exactly as the ETag header gives it "
                    + "(If-Match: \"…\"), not \(value); nothing was changed",
                pointer: "/headers/If-Match", code: "header.invalid")
        }
    }

    /// The optional `?message=` describing a change (at most 500 characters), stored on the revision.
    static func message(_ request: HTTPRequest) throws(ProblemDetails) -> String? {
        guard let message = request.queryValue("message"), !message.isEmpty else { return nil }
        guard message.count <= 500 else {
            throw AdminProblem.invalidRequest("query parameter 'message' is longer than 500 characters")
        }
        // The message is stored in the audit log and shown to people: no control characters or noncharacters.
        if let problem = StoredText.problem(in: message, subject: "The query parameter 'message'") {
            throw AdminProblem.invalidRequest(problem, pointer: "/query/message", code: "text.forbiddenCharacter")
        }
        return message
    }

    /// 404 for a revision number the environment's chain does not hold (another environment's revisions are not
    /// this one's).
    static func unknownRevision(_ target: PolicyStore.Key, _ number: Int) -> ProblemDetails {
        ProblemDetails(
            status: .notFound, type: PolicyStoreProblem.unknownRevision,
            detail: target.environment == EnvironmentName.production
                ? "app \"\(target.app)\" has no revision \(number)"
                : "environment \"\(target.environment)\" of app \"\(target.app)\" has no revision \(number)")
    }

    /// A revision number of the path (`{number}`, `{from}`): a positive integer; 400 otherwise.
    static func revisionNumber(_ text: String) throws(ProblemDetails) -> Int {
        guard let number = Int(text), number >= 1 else {
            throw AdminProblem.invalidRequest(
                "a revision number is a positive integer (or 'live' in a diff), not '\(text)'")
        }
        return number
    }

    /// `?cursor=` from a previous page's `nextCursor`: an opaque positive integer.
    static func cursor(_ request: HTTPRequest) throws(ProblemDetails) -> Int64? {
        guard let text = request.queryValue("cursor") else { return nil }
        guard let value = Int64(text), value >= 1 else {
            throw AdminProblem.invalidRequest("'cursor' must be a nextCursor value from a previous page, not '\(text)'")
        }
        return value
    }
}

extension AdminAPI {
    /// The API for the service: applies `PRELUDE_ADMIN_TOKEN` (or logs how to create a first token).
    ///
    /// `clock` stamps change requests and decides when a scheduled one is due (tests inject one);
    /// `changeRules` replaces the environments' stored rules (tests).
    package static func make(
        configuration: ServiceConfiguration, repositories: Store, store: PolicyStore, logger: Logger,
        rollouts: RolloutController? = nil, clock: ServiceClock = .system, changeRules: EnvironmentRules.Source? = nil,
        webhookDispatcher: WebhookDispatcher? = nil
    ) throws -> AdminAPI {
        let authenticator = AdminAuthenticator(
            tokens: repositories.tokens, logger: logger,
            limiter: FailureRateLimiter(burst: configuration.adminAuthFailuresPerMinute, window: 60),
            proxies: configuration.trustedProxies)
        let api = AdminAPI(
            repositories: repositories, store: store, logger: logger, authenticator: authenticator,
            followURL: configuration.followURL, clock: clock, rollouts: rollouts, changeRules: changeRules,
            webhookAllowlist: configuration.webhookAllowedHosts, webhookDispatcher: webhookDispatcher)
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
