import PreludeStorage

/// Deletes raw events older than the retention, in bounded batches; the experiment aggregates are never touched.
///
/// Age is `received_at` (server time; `occurred_at` is the client's clock and cannot be trusted for deletion).
/// Each batch is its own short write transaction, so event ingestion waits for at most one batch, never for a
/// whole pruning run.
///
/// Which rows a batch looks at: ids follow arrival order, so the oldest events sit at the lowest ids. A batch takes
/// the `batchSize` lowest ids and deletes those received before the cutoff; the run stops at the first batch that
/// deletes nothing. That needs no index on `received_at` (which every insert would pay for) and costs O(batchSize)
/// per batch however large the table. The price: after the server clock stepped backwards, rows behind a newer
/// one wait until that one is old enough too — pruning can be late, never early.
package struct EventPruner: Sendable {
    /// Days raw events are kept; 0 keeps them forever.
    package let retentionDays: Int
    /// Rows examined (at most deleted) per write transaction.
    package let batchSize: Int

    /// Creates a pruner.
    package init(retentionDays: Int, batchSize: Int = 5000) {
        precondition(retentionDays >= 0 && batchSize > 0, "retention must be non-negative, batches non-empty")
        self.retentionDays = retentionDays
        self.batchSize = batchSize
    }

    /// The cutoff for `now` (unix ms): events received strictly before it are pruned.
    package func cutoff(now: Int64) -> Int64 { now - Int64(retentionDays) * 86_400_000 }

    /// Prunes until a batch finds nothing old; returns the number of events deleted. Does nothing when the
    /// retention is 0 (keep forever).
    @discardableResult
    package func prune(_ database: Database, now: Int64) throws -> Int {
        guard retentionDays > 0 else { return 0 }
        var total = 0
        while true {
            let deleted = try pruneBatch(database, now: now)
            total += deleted
            if deleted == 0 { return total }
        }
    }

    /// One batch in one write transaction: deletes, among the `batchSize` oldest events, those received before the
    /// cutoff. Returns how many it deleted (at most `batchSize`).
    package func pruneBatch(_ database: Database, now: Int64) throws -> Int {
        guard retentionDays > 0 else { return 0 }
        return try database.write { connection in
            try connection.statement(Self.deleteBatch).execute([.integer(Int64(batchSize)), .integer(cutoff(now: now))])
            return connection.changes
        }
    }

    private static let deleteBatch = """
        DELETE FROM events
        WHERE id IN (SELECT id FROM events ORDER BY id LIMIT ?) AND received_at < ?
        """
}
