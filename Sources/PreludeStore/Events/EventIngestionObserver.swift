import PreludeStorage

/// Code that must see every newly stored client event, inside the transaction that stores it (e.g. the
/// experiment results aggregator, which keeps its counts in step with the raw events).
///
/// Observers are injected once at service start (`PreludeService.start(configuration:logger:eventObservers:)`).
/// They run on the database writer, inside the write transaction (in the batch's own savepoint), once per batch
/// **after all of the batch's rows were inserted**, and only for events that were new (a retried duplicate is not
/// reported). Write through `connection` (use `connection.statement(sql)` for cached prepared statements); do not
/// call `Database.write`/`read` from here. Throwing rolls back the whole batch the events came in (nothing of it is
/// stored, the client gets a 500 and retries), so throw only for real failures.
///
/// Implement ``didInsert(batch:connection:)`` to work per batch (group lookups and writes: it is called once per
/// stored batch, which is what keeps ingestion fast), or only ``didInsert(_:connection:)`` to see one event at a
/// time (the default batch implementation calls it for each event, in batch order).
package protocol EventIngestionObserver: Sendable {
    /// Called for each newly inserted event, in batch order, inside the storing transaction (by the default
    /// ``didInsert(batch:connection:)``).
    func didInsert(_ event: StoredEvent, connection: Connection) throws

    /// Called once per stored batch with its newly inserted events, in batch order (never empty), inside the
    /// storing transaction, after their rows were inserted.
    func didInsert(batch events: [StoredEvent], connection: Connection) throws
}

extension EventIngestionObserver {
    /// Calls ``didInsert(_:connection:)`` for each event, in order.
    package func didInsert(batch events: [StoredEvent], connection: Connection) throws {
        for event in events { try didInsert(event, connection: connection) }
    }
}
