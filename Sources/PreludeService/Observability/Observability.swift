import PreludeHTTP
import PreludeStorage

/// The service's metrics and request log, and the hooks that feed them: the HTTP engine's
/// `onRequestCompleted` and `eventHandler`, the database's write timer, and gauges read at scrape time.
///
/// Wiring order in `PreludeService.start`: create it (with the database and policy store), register every route
/// (including `ObservabilityRoutes`), `instrumented(_:router:)` the server configuration (the request metrics are
/// sized from the finished router), then `observe(server:)` once the server exists.
package final class Observability: Sendable {
    /// Every metric family `/metrics` exposes.
    package let registry = MetricsRegistry()
    /// `prelude_events_ingested_total`: client events newly stored (duplicates of stored events not counted).
    package let eventsIngested: MetricCounter
    /// `prelude_db_write_duration_seconds`: time each write transaction held the database's write lock.
    package let databaseWrites: MetricHistogram
    /// The request log.
    package let requestLog: RequestLog
    /// The service log.
    package let logger: Logger

    /// The service's observability: registers the service-wide families, times `database`'s writes and exposes
    /// the live revision of each app in `policies`.
    package convenience init(logger: Logger, database: Database, policies: PolicyStore) {
        self.init(logger: logger)
        observe(database: database)
        observe(policies: policies)
    }

    /// Registers the service-wide families (build info, events, database writes, process).
    package init(logger: Logger) {
        self.logger = logger
        requestLog = RequestLog(logger: logger)
        registry.gauge(
            "prelude_build_info", help: "Always 1; the labels carry the service version.", labelNames: ["version"]
        ) { [MetricGauge.Sample([ServiceInfo.version], 1)] }
        eventsIngested = registry.counter(
            "prelude_events_ingested_total", help: "Client events stored (retried duplicates are not counted).")
        databaseWrites = registry.histogram(
            "prelude_db_write_duration_seconds",
            help: "Duration of database write transactions, from BEGIN IMMEDIATE to COMMIT or ROLLBACK.")
        registry.register(ProcessMetrics())
    }

    /// Times every write transaction of `database`.
    package func observe(database: Database) {
        let histogram = databaseWrites
        database.observeWrites { histogram.observe(nanoseconds: $0) }
    }

    /// Installs the request hook (metrics and the request log) and the engine event log on `configuration`.
    /// Call after every route is on `router`: routes added later are counted as `unmatched`.
    package func instrument(_ configuration: inout HTTPServerConfiguration, router: Router) {
        let requests = RequestMetrics(routes: router.routes)
        registry.register(requests)
        let requestLog = self.requestLog
        configuration.onRequestCompleted = { completed in
            requests.record(
                method: completed.method, route: completed.route, status: completed.status,
                nanoseconds: completed.durationNanoseconds)
            requestLog.record(completed)
        }
        let logger = self.logger
        configuration.eventHandler = { event in
            switch event {
            case .handlerFailed(let method, let route, let error):
                logger.error("handler failed", ["method": method.rawValue, "route": route, "error": error])
            case .protocolError(let status, let reason, let remoteAddress):
                // The request line (status, request id) is logged by the request log; this adds the reason.
                logger.debug("request refused", ["status": "\(status)", "reason": reason, "remote": remoteAddress])
            case .acceptFailed(let error):
                logger.error("accept failed", ["error": error.description])
            }
        }
    }

    /// Installs the hooks on a copy of `configuration` and returns it (see `instrument(_:router:)`).
    package func instrumented(_ configuration: HTTPServerConfiguration, router: Router) -> HTTPServerConfiguration {
        var copy = configuration
        instrument(&copy, router: router)
        return copy
    }

    /// Registers `prelude_policy_live_revision{app}`: the live revision of every app being served, read from the
    /// store at scrape time (an app whose live revision cannot be served has no sample).
    package func observe(policies store: PolicyStore) {
        registry.gauge(
            "prelude_policy_live_revision", help: "Live policy revision number of each app being served.",
            labelNames: ["app"]
        ) {
            store.appIDs.compactMap { app in
                store.snapshot(app: app).map { MetricGauge.Sample([app], Double($0.revision)) }
            }
        }
    }

    /// Registers `prelude_http_open_connections`, read from the server at scrape time.
    package func observe(server: HTTPServer) {
        // Weak: the server's router holds the /metrics handler, which holds this registry.
        registry.gauge(
            "prelude_http_open_connections", help: "Client connections open now (accepted and not yet closed)."
        ) { [weak server] in Double(server?.openConnectionCount ?? 0) }
    }
}
