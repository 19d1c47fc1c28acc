import PreludeStorage

/// Every repository over one database, built once by the composition root (the service's start-up, or a `prelude`
/// command that opens a database) and handed to the features that use them.
///
/// Each repository method that writes is one whole transaction that keeps the tables' invariants (a revision, its
/// live pointer, its audit record and its webhook deliveries together). A write whose change reaches another
/// repository's table is still one method, given a value that says what else it does (a publish applying a change
/// request takes a ``ChangeRequestRepository/Application``), never a closure over the connection: the store owns
/// every transaction. Model: GRDB's `AppDatabase` (one owner, invariant-preserving write methods).
///
/// The event ingestor (``EventIngestor``, a group-commit thread) and the results reader (it takes the serving
/// snapshot, ``experimentResults(livePolicy:)``) are built by their users over ``database``: they are not plain
/// repositories.
package struct Store: Sendable {
    /// The database every repository reads and writes.
    package let database: Database
    /// Apps, environments, revisions and the live pointer (`apps`, `environments`, `policy_revisions`).
    package let policies: PolicyRepository
    /// The audit log (`audit_log`), read by the admin API; its records are written by the other repositories'
    /// transactions.
    package let audit: AuditLog
    /// Admin tokens (`tokens`).
    package let tokens: TokenStore
    /// Change requests, approvals and schedules (`change_requests`).
    package let changeRequests: ChangeRequestRepository
    /// Webhook subscriptions, deliveries and attempts (`webhooks`, `webhook_deliveries`, `webhook_attempts`).
    package let webhooks: WebhookStore
    /// Progressive rollouts (`rollouts`).
    package let rollouts: RolloutRepository
    /// Saved rollout plans (`rollout_templates`).
    package let rolloutTemplates: RolloutTemplateRepository
    /// A read replica's events not yet forwarded (`replica_outbox`).
    package let replicaOutbox: ReplicaOutbox

    /// The repositories over `database` (open and migrated).
    package init(database: Database) {
        self.database = database
        policies = PolicyRepository(database: database)
        audit = AuditLog(database: database)
        tokens = TokenStore(database: database)
        changeRequests = ChangeRequestRepository(database: database)
        webhooks = WebhookStore(database: database)
        rollouts = RolloutRepository(database: database)
        rolloutTemplates = RolloutTemplateRepository(database: database)
        replicaOutbox = ReplicaOutbox(database: database)
    }

    /// The experiment results over ``database``; `livePolicy` is the serving snapshot when the caller has one (the
    /// service), else each experiment's configuration is read from the stored revisions (the command line).
    package func experimentResults(livePolicy: ExperimentResultsReader.LivePolicy? = nil) -> ExperimentResultsReader {
        ExperimentResultsReader(database: database, livePolicy: livePolicy)
    }
}
