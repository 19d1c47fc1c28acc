import PreludeStorage
import PreludeStore

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// Follow mode (`prelude serve --follow URL`): the sync from the primary's change feed and the outbox forwarder (both
/// entries of the replica's ``BackgroundServices``), their metrics and the readiness rule (docs/scaling.md, "Read
/// replicas").
///
/// Readiness: ready once the replica holds a copy of the primary's policies, synced in this run or stored by an
/// earlier one (so a replica restarted while the primary is down serves its stored copy and stays in rotation); a
/// replica that never synced answers `/readyz` 503.
package final class ReadReplica: Sendable {
    /// The primary followed.
    package let primary: FollowURL
    /// The change-feed sync.
    package let sync: ReplicaSync
    /// The outbox forwarder.
    package let forwarder: OutboxForwarder

    /// The sync and forwarder for `configuration.followURL` over `repositories` (the sync mirrors into its database,
    /// the forwarder drains its outbox).
    package init(
        primary: FollowURL, token: RedactedSecret, repositories: Store, store: PolicyStore, logger: Logger,
        caFile: String? = nil
    ) throws {
        self.primary = primary
        // One client each: a held poll must not delay forwarding, and stopping aborts both.
        sync = try ReplicaSync(
            client: PrimaryClient(url: primary, token: token, caFile: caFile), database: repositories.database,
            store: store,
            logger: logger)
        forwarder = OutboxForwarder(
            client: PrimaryClient(url: primary, token: token, caFile: caFile), outbox: repositories.replicaOutbox,
            logger: logger)
    }

    /// Why `/readyz` must answer 503, or nil.
    package var notReadyReason: String? {
        sync.state.hasCopy ? nil : "no copy of the primary's policies yet (first sync from \(primary) pending)"
    }

    /// Registers the replica's metric families.
    package func register(on registry: MetricsRegistry) {
        let sync = self.sync
        let forwarder = self.forwarder
        registry.gauge(
            "prelude_replica_lag_seconds",
            help: "Seconds the served policies may be behind the primary: 0 while in step with its change feed, else "
                + "the time since the last successful sync (since the stored one before any sync in this run)."
        ) {
            let now = Date().timeIntervalSince1970
            return sync.state.lag(now: now) ?? 0
        }
        registry.gauge(
            "prelude_replica_last_sync_timestamp_seconds",
            help: "Unix time of the last successful exchange with the primary's change feed (0 before any)."
        ) { sync.state.lastSuccess ?? 0 }
        registry.counter(
            "prelude_replica_sync_failures_total", help: "Change-feed requests to the primary that failed."
        ) { Double(sync.state.totalFailures) }
        registry.counter(
            "prelude_replica_syncs_total", help: "Change feeds received from the primary and applied."
        ) { Double(sync.appliedFeeds) }
        registry.gauge(
            "prelude_replica_outbox_events", help: "Events accepted by this replica and not yet stored by the primary."
        ) { Double((try? forwarder.pendingEvents()) ?? 0) }
        registry.counter(
            "prelude_replica_forwarded_events_total", help: "Events forwarded that the primary newly stored."
        ) { Double(forwarder.statistics.forwarded) }
        registry.counter(
            "prelude_replica_forward_duplicates_total",
            help: "Events forwarded that the primary already had (a forward resent after a failure or a restart)."
        ) { Double(forwarder.statistics.duplicates) }
        registry.counter(
            "prelude_replica_forward_failures_total", help: "Forwards that failed and were retried with backoff."
        ) { Double(forwarder.statistics.failures) }
        registry.counter(
            "prelude_replica_dropped_events_total",
            help: "Events the primary refused for good (e.g. the app was deleted) and that were dropped."
        ) { Double(forwarder.statistics.dropped) }
    }
}
