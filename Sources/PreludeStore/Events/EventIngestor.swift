import PreludeCore
import PreludeStorage
import Synchronization

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// Stores validated event batches durably, deduplicated, with group commit.
///
/// Each batch is stored with `INSERT … ON CONFLICT DO NOTHING` through one cached prepared statement: the table's
/// one uniqueness constraint is the dedupe index on (app, install, client event id), which orders UUIDv7 ids by
/// time (migration 0007, docs/storage.md "Dedupe index"); on PostgreSQL a batch is one statement (docs/storage.md,
/// "Event batches in one statement"). ``EventIngestionObserver``s see the new rows inside the same transaction, once
/// per group commit (``EventIngestionObserver/didInsert(batch:connection:)``). A batch's outcome is delivered only
/// after `COMMIT` (synchronous=FULL: on stable storage).
///
/// Group commit: ``submit(app:events:completion:)`` queues a batch and returns at once. One committer (a private
/// serial queue, so its thread is never one the HTTP worker pool needs) writes everything queued in one
/// transaction, then completes every batch of the group and starts on what queued up meanwhile. When one batch is
/// refused (its app deleted meanwhile, an observer throwing), that transaction rolls back and the group is written
/// again with each batch inside its own `SAVEPOINT`, so the refused batch fails alone. One fsync thus covers every batch that arrived during the previous commit, however many
/// connections sent them and however few threads the machine has: that is what makes tens of thousands of
/// events per second possible on one SQLite file. A group stops at ``maxEventsPerCommit`` events, so one
/// transaction stays short under a burst.
package final class EventIngestor: Sendable {
    /// What storing one batch did.
    package struct Outcome: Sendable, Equatable {
        /// Events newly stored.
        package var accepted: Int
        /// Events already stored (same app, install and client event id), not stored again.
        package var duplicates: Int
    }

    /// How a batch's storing ended: its outcome once committed, or why nothing of it was stored.
    package typealias Completion = @Sendable (Result<Outcome, any Error>) -> Void

    /// The most events one group commit takes (a batch is never split; a group holds at least one batch).
    package static let maxEventsPerCommit = 5_000

    /// One batch waiting for a group commit.
    private struct Ticket: Sendable {
        let app: String
        let environment: String
        let events: [IncomingEvent]
        let receivedAt: Int64
        let completion: Completion
    }

    /// Batches waiting, and whether the committer is at work (it keeps draining until the queue is empty).
    private struct Pending {
        var tickets: [Ticket] = []
        var draining = false
    }

    /// Where batches are stored: the primary's `events`, or a read replica's `replica_outbox` (same columns, same
    /// dedupe key; docs/scaling.md, "Events through replicas").
    package enum Table: String, Sendable {
        /// `events`: the table results are computed from.
        case events
        /// `replica_outbox`: what a read replica still has to forward to its primary.
        case outbox = "replica_outbox"
    }

    private let insertSQL: String
    private let database: Database
    private let observers: [any EventIngestionObserver]
    private let clock: ServiceClock
    private let afterCommit: (@Sendable () -> Void)?
    private let pending = Mutex(Pending())
    private let committer = DispatchQueue(label: "prelude.events.committer")
    private let stats = Mutex(Statistics())

    /// An ingestor writing to `table` of `database` and notifying `observers` (in order) of each new event;
    /// `afterCommit` runs after every group commit that stored something (the replica's forwarder wakes on it).
    package init(
        database: Database, observers: [any EventIngestionObserver] = [], table: Table = .events,
        clock: ServiceClock = .system, afterCommit: (@Sendable () -> Void)? = nil
    ) {
        self.database = database
        self.observers = observers
        self.clock = clock
        self.afterCommit = afterCommit
        insertSQL =
            database.engine == .postgres
            ? Self.postgresBatchInsert(table)
            : """
            INSERT INTO \(table.rawValue) (app_id, install_id, client_event_id, type, feature, experiment, variant, occurred_at, received_at, environment, task, os_major, locale)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING
            """
    }

    /// On PostgreSQL a batch is one statement, whatever its size: its columns go as arrays (``PostgresArrayLiteral``)
    /// and come back as rows through `unnest`, and the rows stored answer with their ids. One round trip per batch,
    /// where one statement per event paid one per event (3,436 events/s against SQLite's 74,994, BENCHMARKS.md).
    private static func postgresBatchInsert(_ table: Table) -> String {
        """
        INSERT INTO \(table.rawValue) (app_id, install_id, client_event_id, type, feature, experiment, variant, occurred_at, received_at, environment, task, os_major, locale)
        SELECT ?1, u.install_id, u.client_event_id, u.type, u.feature, u.experiment, u.variant, u.occurred_at, ?2, ?3,
            u.task, u.os_major, u.locale
        FROM unnest(?4::text[], ?5::text[], ?6::text[], ?7::text[], ?8::text[], ?9::text[], ?10::bigint[], ?11::text[],
            ?12::bigint[], ?13::text[]) AS u(install_id, client_event_id, type, feature, experiment, variant, occurred_at,
            task, os_major, locale)
        ON CONFLICT DO NOTHING
        RETURNING id, install_id, client_event_id
        """
    }

    /// The current time in milliseconds, as the ingestor stamps `received_at`.
    package var now: Int64 { clock.milliseconds }

    /// Queues one batch of `events` for `environment` of `app` and returns at once; `completion` runs on the committer's thread once the batch
    /// is committed (possibly together with concurrent batches) or has failed. It must be quick.
    package func submit(
        app: String, environment: String = EnvironmentName.production, events: [IncomingEvent],
        completion: @escaping Completion
    ) {
        let ticket = Ticket(
            app: app, environment: environment, events: events, receivedAt: clock.milliseconds,
            completion: completion)
        let startCommitter = pending.withLock { pending in
            pending.tickets.append(ticket)
            defer { pending.draining = true }
            return !pending.draining
        }
        if startCommitter { committer.async { self.drain() } }
    }

    /// Commits queued batches, group after group, until none is left.
    private func drain() {
        while true {
            let group = pending.withLock { pending -> [Ticket] in
                guard !pending.tickets.isEmpty else {
                    pending.draining = false
                    return []
                }
                var events = 0
                var taken = 0
                for ticket in pending.tickets {
                    if taken > 0 && events + ticket.events.count > Self.maxEventsPerCommit { break }
                    events += ticket.events.count
                    taken += 1
                }
                defer { pending.tickets.removeFirst(taken) }
                return Array(pending.tickets.prefix(taken))
            }
            if group.isEmpty { return }
            let results = commit(group)
            for (ticket, result) in zip(group, results) { ticket.completion(result) }
            if let afterCommit, results.contains(where: { (try? $0.get())?.accepted ?? 0 > 0 }) { afterCommit() }
        }
    }

    /// Counts since start, for metrics.
    package struct Statistics: Sendable, Equatable {
        /// Write transactions (group commits) attempted.
        package var transactions = 0
        /// Batches stored (batches ÷ transactions is the grouping factor).
        package var batches = 0
        /// Events newly stored.
        package var accepted = 0
        /// Events refused as already stored.
        package var duplicates = 0
        /// Batches that failed (rolled back) inside a successful transaction or with a failed one.
        package var failedBatches = 0
    }

    /// Counts since start, for metrics.
    package var statistics: Statistics { stats.withLock { $0 } }

    private func commit(_ group: [Ticket]) -> [Result<Outcome, any Error>] {
        var transactions = 1
        var results: [Result<Outcome, any Error>]
        do {
            results = try database.write { db in try storeTogether(group, db: db) }.map { .success($0) }
        } catch let error where group.count > 1 && (error as? StorageError)?.storageFault == nil {
            // One batch is refused (its app deleted meanwhile, an observer throwing): nothing was stored, so the
            // group is written again, each batch in its own savepoint, and only the refused batch fails.
            transactions += 1
            results = commitEachAlone(group)
        } catch {
            // The transaction itself failed (COMMIT, disk full): nothing of the group is stored.
            results = group.map { _ in .failure(error) }
        }
        stats.withLock { stats in
            stats.transactions += transactions
            for result in results {
                switch result {
                case .success(let outcome):
                    stats.batches += 1
                    stats.accepted += outcome.accepted
                    stats.duplicates += outcome.duplicates
                case .failure:
                    stats.failedBatches += 1
                }
            }
        }
        return results
    }

    /// The usual case: every batch of the group inserted, then the observers told once about all of their new rows
    /// (ExperimentAggregator reads and writes each arm once per group, not once per batch: on PostgreSQL each of
    /// those statements is a round trip).
    private func storeTogether(_ group: [Ticket], db: Connection) throws -> [Outcome] {
        let insert = try db.statement(insertSQL)
        var outcomes: [Outcome] = []
        outcomes.reserveCapacity(group.count)
        var inserted: [StoredEvent] = []
        for ticket in group {
            let (outcome, rows) = try insertRows(ticket, insert: insert, db: db)
            outcomes.append(outcome)
            inserted += rows
        }
        try notifyObservers(inserted, db: db)
        return outcomes
    }

    /// After a refused group: each batch in its own savepoint, so a refused one rolls back alone.
    private func commitEachAlone(_ group: [Ticket]) -> [Result<Outcome, any Error>] {
        var results: [Result<Outcome, any Error>] = []
        results.reserveCapacity(group.count)
        do {
            try database.write { db in
                let insert = try db.statement(insertSQL)
                for ticket in group {
                    try db.execute("SAVEPOINT batch")
                    do {
                        let (outcome, rows) = try insertRows(ticket, insert: insert, db: db)
                        try notifyObservers(rows, db: db)
                        try db.execute("RELEASE batch")
                        results.append(.success(outcome))
                    } catch {
                        insert.reset()
                        // Storage failing (disk full, I/O error) is not this batch's fault: fail the whole group
                        // (nothing of it is stored), so the transaction's outcome reports it to StorageHealth.
                        if (error as? StorageError)?.storageFault != nil { throw error }
                        try db.execute("ROLLBACK TO batch")
                        try db.execute("RELEASE batch")
                        results.append(.failure(error))
                    }
                }
            }
        } catch {
            results = group.map { _ in .failure(error) }
        }
        return results
    }

    /// Inserts one batch's events; returns its outcome and its new rows (for the observers; none without one).
    private func insertRows(_ ticket: Ticket, insert: Statement, db: Connection) throws -> (Outcome, [StoredEvent]) {
        if db.engine == .postgres { return try insertInOneStatement(ticket, insert: insert, db: db) }
        var outcome = Outcome(accepted: 0, duplicates: 0)
        var inserted: [StoredEvent] = []
        if !observers.isEmpty { inserted.reserveCapacity(ticket.events.count) }
        // The app and the receive time are the batch's: bound once, they stay bound across runs.
        insert.reset()
        try insert.bind(.text(ticket.app), at: 1)
        try insert.bind(.integer(ticket.receivedAt), at: 9)
        try insert.bind(.text(ticket.environment), at: 10)
        for event in ticket.events {
            try insert.bind(.text(event.installID), at: 2)
            try insert.bind(.text(event.id), at: 3)
            try insert.bind(.text(event.type.rawValue), at: 4)
            try insert.bind(.text(event.feature.rawValue), at: 5)
            try insert.bind(event.experiment.map(SQLValue.text) ?? .null, at: 6)
            try insert.bind(event.variant.map(SQLValue.text) ?? .null, at: 7)
            try insert.bind(.integer(event.occurredAt), at: 8)
            try insert.bind(event.task.map(SQLValue.text) ?? .null, at: 11)
            try insert.bind(event.segment.osMajor.map { .integer(Int64($0)) } ?? .null, at: 12)
            try insert.bind(event.segment.locale.map(SQLValue.text) ?? .null, at: 13)
            try insert.run()
            guard db.changes > 0 else {
                outcome.duplicates += 1
                continue
            }
            outcome.accepted += 1
            if !observers.isEmpty {
                inserted.append(
                    StoredEvent(
                        rowID: try db.lastInsertRowID, appID: ticket.app,
                        environment: ticket.environment,
                        installID: event.installID,
                        clientEventID: event.id, type: event.type, feature: event.feature, experiment: event.experiment,
                        variant: event.variant, occurredAt: event.occurredAt, receivedAt: ticket.receivedAt,
                        task: event.task, segment: event.segment))
            }
        }
        return (outcome, inserted)
    }

    /// Once per group (or per batch, in its savepoint, after a refusal): observers group their work
    /// (ExperimentAggregator reads and writes once per arm instead of three statements per event).
    private func notifyObservers(_ inserted: [StoredEvent], db: Connection) throws {
        guard !inserted.isEmpty else { return }
        for observer in observers { try observer.didInsert(batch: inserted, connection: db) }
    }

    /// PostgreSQL's path (``postgresBatchInsert(_:)``): the same outcome as one insert per event in order. An event
    /// repeating an earlier one of its batch (same install and id) is a duplicate without being sent, so each row
    /// the statement returns is the first of its key.
    private func insertInOneStatement(_ ticket: Ticket, insert: Statement, db: Connection) throws
        -> (Outcome, [StoredEvent])
    {
        struct Key: Hashable {
            let install: String
            let id: String
        }
        var seen = Set<Key>(minimumCapacity: ticket.events.count)
        let unique = ticket.events.filter { seen.insert(Key(install: $0.installID, id: $0.id)).inserted }
        let rows = try insert.query([
            .text(ticket.app), .integer(ticket.receivedAt), .text(ticket.environment),
            .text(PostgresArrayLiteral.text(unique.map(\.installID))),
            .text(PostgresArrayLiteral.text(unique.map(\.id))),
            .text(PostgresArrayLiteral.text(unique.map(\.type.rawValue))),
            .text(PostgresArrayLiteral.text(unique.map(\.feature.rawValue))),
            .text(PostgresArrayLiteral.text(unique.map(\.experiment))),
            .text(PostgresArrayLiteral.text(unique.map(\.variant))),
            .text(PostgresArrayLiteral.integers(unique.map(\.occurredAt))),
            .text(PostgresArrayLiteral.text(unique.map(\.task))),
            .text(PostgresArrayLiteral.integers(unique.map { $0.segment.osMajor.map(Int64.init) })),
            .text(PostgresArrayLiteral.text(unique.map(\.segment.locale))),
        ])
        var stored: [Key: Int64] = [:]
        stored.reserveCapacity(rows.count)
        for row in rows {
            stored[Key(install: try row.get(1, as: String.self), id: try row.get(2, as: String.self))] =
                try row.get(0, as: Int64.self)
        }
        let outcome = Outcome(accepted: rows.count, duplicates: ticket.events.count - rows.count)
        guard !observers.isEmpty else { return (outcome, []) }
        let inserted = unique.compactMap { event -> StoredEvent? in
            guard let rowID = stored[Key(install: event.installID, id: event.id)] else { return nil }
            return StoredEvent(
                rowID: rowID, appID: ticket.app, environment: ticket.environment, installID: event.installID,
                clientEventID: event.id, type: event.type, feature: event.feature, experiment: event.experiment,
                variant: event.variant, occurredAt: event.occurredAt, receivedAt: ticket.receivedAt, task: event.task,
                segment: event.segment)
        }
        return (outcome, inserted)
    }
}
