import PreludeCore
import PreludeHTTP
import PreludeHTTPClient
import PreludeStorage
import PreludeStore

/// The named steps of ``PreludeService/start(configuration:logger:eventObservers:clock:adminClock:changeRules:webhookTiming:)``,
/// the composition root.
extension PreludeService {
    /// Nodes sharing one PostgreSQL database run the work that must run once on one of them each; on SQLite this
    /// process leads everything (docs/scaling.md, "PostgreSQL cluster"). A replica runs none of it: nil.
    static func makeElection(replica: ReadReplica?, database: Database, logger: Logger) -> LeaderElection? {
        guard replica == nil else { return nil }
        return LeaderElection(locks: SessionLocks(database: database), logger: logger.with(["component": "leader"]))
    }

    /// Only a primary sends webhooks: a replica mirrors revisions and never enqueues or sends deliveries (nil).
    /// With `timing` (tests) the dispatcher's clock and jitter are replaced and its thread is not started.
    static func makeWebhookDispatcher(
        configuration: ServiceConfiguration, webhooks: WebhookStore, logger: Logger,
        timing: (clock: ServiceClock, random: @Sendable () -> Double)?
    ) -> WebhookDispatcher? {
        guard configuration.followURL == nil else { return nil }
        let chosen = timing ?? (.system, { Double.random(in: 0..<1) })
        let client = HTTPClient(configuration: WebhookDispatcher.clientConfiguration(caFile: configuration.tlsCAFile))
        return WebhookDispatcher(
            store: webhooks, allowlist: configuration.webhookAllowedHosts,
            client: client, logger: logger.with(["component": "webhooks"]), clock: chosen.clock,
            random: chosen.random, threaded: timing == nil)
    }

    /// The event ingestor: a replica stores accepted batches in its outbox, through the same group commit, and its
    /// forwarder wakes after each commit; the primary counts experiment steps (`aggregator`) and wakes the rollout
    /// guard after each commit.
    static func makeEventIngestor(
        database: Database, replica: ReadReplica?, observers: [any EventIngestionObserver],
        aggregator: ExperimentAggregator, rolloutScheduler: RolloutScheduler?
    ) -> EventIngestor {
        if let replica {
            return EventIngestor(
                database: database, observers: observers, table: .outbox, afterCommit: { replica.forwarder.wake() })
        }
        return EventIngestor(
            database: database, observers: [aggregator] + observers, afterCommit: { rolloutScheduler?.wake() })
    }

    /// Starts the main listener, then the separate admin listener when `adminPort` is set (the main one is shut
    /// down again when that fails); returns both and their bound ports.
    static func listen(
        configuration: ServiceConfiguration, router: Router, adminRouter: Router, observability: Observability,
        logger: Logger
    ) throws -> (server: HTTPServer, port: Int, adminServer: HTTPServer?, adminPort: Int?) {
        let server = HTTPServer(
            configuration: observability.instrumented(
                HTTPServerConfiguration(host: configuration.host, port: configuration.port),
                routers: [router, adminRouter]),
            router: router)
        observability.observe(server: server)
        let port = try server.start()
        do {
            let (adminServer, adminPort) = try AdminAPI.startListener(
                configuration: configuration, router: adminRouter, logger: logger,
                instrument: observability.instrumented)
            adminServer.map(observability.observe(server:))
            return (server, port, adminServer, adminPort)
        } catch {
            server.shutdown(gracePeriod: 0)
            throw error
        }
    }

    /// The admin routes and the replication routes on `main`, or on `separate` when `adminPort` is set.
    static func registerAdmin(
        _ admin: AdminAPI, ingestor: EventIngestor, on main: inout Router, or separate: inout Router,
        configuration: ServiceConfiguration
    ) {
        AdminAPI.register(on: &main, or: &separate, api: admin, configuration: configuration)
        if configuration.adminPort == nil {
            ReplicationRoutes.register(on: &main, api: admin, ingestor: ingestor, followURL: configuration.followURL)
        } else {
            ReplicationRoutes.register(
                on: &separate, api: admin, ingestor: ingestor, followURL: configuration.followURL)
        }
    }
}

extension BackgroundServices {
    /// The list of this node's role: a replica's, or a primary's (which has an election and a rollout scheduler).
    static func forRole(
        replica: ReadReplica?, election: LeaderElection?, reloader: LivePolicyReloader, scheduler: PublishSchedulerTask,
        rollouts: RolloutScheduler?, webhooks: WebhookDispatcher?, retention: EventRetentionTask
    ) -> BackgroundServices {
        if let replica { return .replica(reloader: reloader, replica: replica) }
        guard let election, let rollouts else {
            preconditionFailure("a primary has an election and a rollout scheduler")
        }
        return .primary(
            election: election, reloader: reloader, scheduler: scheduler, rollouts: rollouts, webhooks: webhooks,
            retention: retention)
    }
}
