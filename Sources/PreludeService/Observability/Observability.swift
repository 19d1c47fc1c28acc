import PreludeHTTP
import PreludeStorage
import PreludeStore
import Synchronization

/// The service's metrics and request log, and the hooks that feed them: the HTTP engine's
/// `onRequestCompleted` and `eventHandler`, the database's write timer, and gauges read at scrape time.
///
/// Wiring order in `PreludeService.start`: create it (with the database and policy store), register every route
/// (including `ObservabilityRoutes`), `instrumented(_:routers:)` each listener's configuration (the request series
/// are sized from the finished routers), then `observe(server:)` each listener.
package final class Observability: Sendable {
    /// Every metric family `/metrics` exposes.
    package let registry = MetricsRegistry()
    /// `prelude_db_write_duration_seconds`: time each write transaction held the database's write lock.
    package let databaseWrites: MetricHistogram
    /// The request log.
    package let requestLog: RequestLog
    /// The service log.
    package let logger: Logger
    private let hooks = Mutex<Hooks?>(nil)
    private let listeners = Listeners()

    /// Every listener, weakly: a server's router holds the /metrics handler, which holds the registry.
    private final class Listeners: Sendable {
        private struct Weak: @unchecked Sendable {
            // @unchecked: a weak reference to a Sendable class, only touched under `servers`' lock.
            weak var server: HTTPServer?
        }

        private let servers = Mutex<[Weak]>([])

        func add(_ server: HTTPServer) { servers.withLock { $0.append(Weak(server: server)) } }

        var openConnections: Int { servers.withLock { $0.reduce(0) { $0 + ($1.server?.openConnectionCount ?? 0) } } }
    }

    /// The service's observability: registers the service-wide families, times `database`'s writes and exposes
    /// the live revision of each app in `policies`.
    package convenience init(logger: Logger, database: Database, policies: PolicyStore) {
        self.init(logger: logger)
        observe(database: database)
        observe(policies: policies)
    }

    /// Registers the service-wide families (build info, database writes, process, open connections).
    package init(logger: Logger) {
        self.logger = logger
        requestLog = RequestLog(logger: logger)
        registry.gauge(
            "prelude_build_info", help: "Always 1; the labels carry the service version.", labelNames: ["version"]
        ) { [ObservedMetric.Sample([ServiceInfo.version], 1)] }
        databaseWrites = registry.histogram(
            "prelude_db_write_duration_seconds",
            help: "Duration of database write transactions, from BEGIN IMMEDIATE to COMMIT or ROLLBACK.")
        registry.register(ProcessMetrics())
        let listeners = self.listeners
        registry.gauge(
            "prelude_http_open_connections",
            help: "Client connections open now (accepted and not yet closed), over every listener."
        ) { Double(listeners.openConnections) }
    }

    /// Times every write transaction of `database`.
    package func observe(database: Database) {
        let histogram = databaseWrites
        database.observeWrites { histogram.observe(nanoseconds: $0) }
    }

    /// Installs the request hook (metrics and the request log) and the engine event log on a copy of
    /// `configuration`. The request series are sized from `routers` (every listener's router, complete) the first
    /// time; later calls, for another listener, reuse the same hooks and series, so one family covers all
    /// listeners. Routes added after the first call are counted as `unmatched`.
    package func instrumented(_ configuration: HTTPServerConfiguration, routers: [Router]) -> HTTPServerConfiguration {
        let (hooks, isNew) = self.hooks.withLock { hooks in
            if let hooks { return (hooks, false) }
            let made = makeHooks(RequestMetrics(routes: routers.flatMap(\.routes)))
            hooks = made
            return (made, true)
        }
        if isNew { registry.register(hooks.requests) }
        var copy = configuration
        copy.onRequestCompleted = hooks.onRequestCompleted
        copy.eventHandler = hooks.eventHandler
        return copy
    }

    /// `instrumented(_:routers:)` for a listener whose router was among the routers of the first call.
    package func instrumented(_ configuration: HTTPServerConfiguration, router: Router) -> HTTPServerConfiguration {
        instrumented(configuration, routers: [router])
    }

    private struct Hooks: Sendable {
        let requests: RequestMetrics
        let onRequestCompleted: @Sendable (CompletedRequest) -> Void
        let eventHandler: @Sendable (HTTPServerEvent) -> Void
    }

    private func makeHooks(_ requests: RequestMetrics) -> Hooks {
        let requestLog = self.requestLog
        let logger = self.logger
        return Hooks(
            requests: requests,
            onRequestCompleted: { completed in
                requests.record(
                    method: completed.method, route: completed.route, status: completed.status,
                    nanoseconds: completed.durationNanoseconds)
                requestLog.record(completed)
            },
            eventHandler: { event in
                switch event {
                case .handlerFailed(let method, let route, let error, let requestID):
                    logger.error(
                        "handler failed",
                        ["method": method.rawValue, "route": route, "error": error, "request_id": requestID])
                case .protocolError(let status, let reason, let remoteAddress, let requestID):
                    // The request line (status, request id) is logged by the request log; this adds the reason.
                    logger.debug(
                        "request refused", ["reason": reason, "remote": remoteAddress, "request_id": requestID],
                        numbers: ["status": Double(status)])
                case .acceptFailed(let error):
                    logger.error("accept failed", ["error": error.description])
                case .pollFailed(let error):
                    logger.error("epoll failed", ["error": error.description])
                }
            })
    }

    /// Registers `prelude_policy_live_revision{app}`: the live revision of every app being served, read from the
    /// store at scrape time (an app whose live revision cannot be served has no sample).
    package func observe(policies store: PolicyStore) {
        registry.gauge(
            "prelude_policy_live_revision", help: "Live policy revision number of each app being served.",
            labelNames: ["app"]
        ) {
            store.appIDs.compactMap { app in
                store.snapshot(app: app).map { ObservedMetric.Sample([app], Double($0.revision)) }
            }
        }
    }

    /// Registers `prelude_events_ingested_total`, `prelude_events_duplicates_total`,
    /// `prelude_event_batches_total` and `prelude_event_commits_total`, read from the ingestor's statistics
    /// (counted after each commit, so a rolled-back batch never counts as stored).
    package func observe(events ingestor: EventIngestor) {
        registry.counter(
            "prelude_events_ingested_total", help: "Client events stored (an event already stored is not counted)."
        ) { Double(ingestor.statistics.accepted) }
        registry.counter(
            "prelude_events_duplicates_total",
            help: "Client events received again under an id already stored (client retries), not stored twice."
        ) { Double(ingestor.statistics.duplicates) }
        registry.counter(
            "prelude_event_batches_total", help: "Event batches stored (each in its own savepoint of a group commit)."
        ) { Double(ingestor.statistics.batches) }
        registry.counter(
            "prelude_event_commits_total",
            help: "Group-commit transactions of event batches; batches ÷ commits is how many batches share one fsync."
        ) { Double(ingestor.statistics.transactions) }
    }

    /// Adds `server`'s connections to `prelude_http_open_connections` (the sum over every listener observed).
    package func observe(server: HTTPServer) {
        listeners.add(server)
    }
}
