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
        configuration: ServiceConfiguration, database: Database, logger: Logger,
        timing: (clock: ServiceClock, random: @Sendable () -> Double)?
    ) -> WebhookDispatcher? {
        guard configuration.followURL == nil else { return nil }
        let chosen = timing ?? (.system, { Double.random(in: 0..<1) })
        let client = HTTPClient(configuration: WebhookDispatcher.clientConfiguration(caFile: configuration.tlsCAFile))
        return WebhookDispatcher(
            store: WebhookStore(database: database), allowlist: configuration.webhookAllowedHosts,
            client: client, logger: logger.with(["component": "webhooks"]), clock: chosen.clock,
            random: chosen.random, threaded: timing == nil)
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
