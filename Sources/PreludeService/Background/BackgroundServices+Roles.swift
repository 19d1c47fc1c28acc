/// The list of each role (docs/architecture.md, "Background services"). A primary — alone on SQLite, or one of
/// several nodes sharing one PostgreSQL database — runs the same list: its election decides which leader-only entries
/// run here (on SQLite it grants every role at its first round). A read replica runs no leader-only work.
extension BackgroundServices {
    /// A primary or cluster node: the election first (its first round, run at start, decides the roles before the
    /// leader-only entries start), the live reloader, then the work that must run once in the cluster.
    ///
    /// The service (``PreludeService/start(configuration:logger:eventObservers:clock:adminClock:changeRules:webhookTiming:)``)
    /// passes the ``LivePolicyReloader``, ``PublishSchedulerTask``, ``RolloutScheduler``, ``WebhookDispatcher`` (nil
    /// where none runs) and ``EventRetentionTask``. Stopped in reverse: the leader-only work stops before the
    /// election gives its roles back, so another node takes them only once this one is done.
    package static func primary(
        election: LeaderElection, reloader: any BackgroundService, scheduler: any BackgroundService,
        rollouts: any BackgroundService, webhooks: (any BackgroundService)?, retention: any BackgroundService
    ) -> BackgroundServices {
        let services = BackgroundServices(
            [
                .everyNode(election),
                .everyNode(reloader),
                .leaderOnly(.scheduler, scheduler),
                .leaderOnly(.rollouts, rollouts),
            ] + (webhooks.map { [.leaderOnly(.webhooks, $0)] } ?? []) + [
                .leaderOnly(.retention, retention)
            ],
            roles: election)
        // A role taken wakes its work, so a change due during the takeover is applied at once.
        election.whenTaken { [weak services] work in services?.wake(leading: work) }
        return services
    }

    /// A read replica (`--follow`): the live reloader, the change-feed sync and the outbox forwarder.
    package static func replica(reloader: any BackgroundService, replica: ReadReplica) -> BackgroundServices {
        BackgroundServices(
            [.everyNode(reloader), .everyNode(replica.sync), .everyNode(replica.forwarder)], roles: nil)
    }
}
