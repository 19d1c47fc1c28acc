import Foundation
import PreludeCore
import PreludeHTTP
import PreludeStorage
import Synchronization

/// Stores validated event batches durably, deduplicated, with group commit.
///
/// Each batch is stored in one write transaction with `INSERT … ON CONFLICT (app_id, install_id,
/// client_event_id) DO NOTHING` through one cached prepared statement; ``EventIngestionObserver``s see every
/// new row inside that transaction. `ingest` returns only after `COMMIT` (synchronous=FULL: on stable storage).
///
/// Group commit: batches arriving while a transaction is being written queue up, and the next thread to take
/// the commit lock writes *all* queued batches in one transaction, each inside its own `SAVEPOINT` so one
/// failing batch (its app deleted meanwhile, an observer throwing) rolls back alone. One fsync then covers many
/// batches, which is what makes tens of thousands of events per second possible on one SQLite file.
package final class EventIngestor: Sendable {
    /// What storing one batch did.
    package struct Outcome: Sendable, Equatable {
        /// Events newly stored.
        package var accepted: Int
        /// Events already stored (same app, install and client event id), not stored again.
        package var duplicates: Int
    }

    /// One batch waiting for, or finished by, a group commit.
    ///
    /// `@unchecked Sendable` invariant: `outcome` is written and read only while holding `EventIngestor.commitLock`.
    private final class Ticket: @unchecked Sendable {
        let app: String
        let batch: EventBatch
        let receivedAt: Int64
        var outcome: Result<Outcome, any Error>?

        init(app: String, batch: EventBatch, receivedAt: Int64) {
            self.app = app
            self.batch = batch
            self.receivedAt = receivedAt
        }
    }

    private static let insertSQL = """
        INSERT INTO events (app_id, install_id, client_event_id, type, feature, experiment, variant, occurred_at, received_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (app_id, install_id, client_event_id) DO NOTHING
        """

    private let database: Database
    private let observers: [any EventIngestionObserver]
    private let clock: @Sendable () -> Int64
    private let queue = Mutex<[Ticket]>([])
    private let commitLock = NSLock()
    private let stats = Mutex(Statistics())

    /// An ingestor writing to `database` and notifying `observers` (in order) of each new event.
    package init(
        database: Database, observers: [any EventIngestionObserver] = [],
        clock: @escaping @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
    ) {
        self.database = database
        self.observers = observers
        self.clock = clock
    }

    /// The current time in milliseconds, as the ingestor stamps `received_at`.
    package var now: Int64 { clock() }

    /// Stores `batch` for `app` and returns once it is committed (possibly together with concurrent batches).
    package func ingest(app: String, batch: EventBatch) throws -> Outcome {
        let ticket = Ticket(app: app, batch: batch, receivedAt: clock())
        queue.withLock { $0.append(ticket) }
        commitLock.lock()
        defer { commitLock.unlock() }
        if ticket.outcome == nil {
            // Nobody took our batch yet: lead a group commit of everything queued (ours included).
            let group = queue.withLock { queued in
                defer { queued.removeAll(keepingCapacity: true) }
                return queued
            }
            commit(group)
        }
        return try ticket.outcome!.get()
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

    private func commit(_ group: [Ticket]) {
        var results: [Result<Outcome, any Error>] = []
        results.reserveCapacity(group.count)
        do {
            try database.write { db in
                let insert = try db.statement(Self.insertSQL)
                for ticket in group {
                    try db.execute("SAVEPOINT batch")
                    do {
                        let outcome = try store(ticket, insert: insert, db: db)
                        try db.execute("RELEASE batch")
                        results.append(.success(outcome))
                    } catch {
                        insert.reset()
                        try db.execute("ROLLBACK TO batch")
                        try db.execute("RELEASE batch")
                        results.append(.failure(error))
                    }
                }
            }
            for (ticket, result) in zip(group, results) { ticket.outcome = result }
        } catch {
            // The transaction itself failed (COMMIT, disk full): nothing of the group is stored.
            for ticket in group { ticket.outcome = .failure(error) }
        }
        stats.withLock { stats in
            stats.transactions += 1
            for ticket in group {
                switch ticket.outcome {
                case .success(let outcome)?:
                    stats.batches += 1
                    stats.accepted += outcome.accepted
                    stats.duplicates += outcome.duplicates
                default:
                    stats.failedBatches += 1
                }
            }
        }
    }

    private func store(_ ticket: Ticket, insert: Statement, db: Connection) throws -> Outcome {
        var outcome = Outcome(accepted: 0, duplicates: 0)
        let app = SQLValue.text(ticket.app)
        let received = SQLValue.integer(ticket.receivedAt)
        for event in ticket.batch.events {
            try insert.execute([
                app, .text(event.installID), .text(event.id), .text(event.type.rawValue), .text(event.feature.rawValue),
                event.experiment.map(SQLValue.text) ?? .null, event.variant.map(SQLValue.text) ?? .null,
                .integer(event.occurredAt), received,
            ])
            guard db.changes > 0 else {
                outcome.duplicates += 1
                continue
            }
            outcome.accepted += 1
            if !observers.isEmpty {
                let stored = StoredEvent(
                    rowID: db.lastInsertRowID, appID: ticket.app, installID: event.installID, clientEventID: event.id,
                    type: event.type, feature: event.feature, experiment: event.experiment, variant: event.variant,
                    occurredAt: event.occurredAt, receivedAt: ticket.receivedAt)
                for observer in observers { try observer.didInsert(stored, connection: db) }
            }
        }
        return outcome
    }
}
