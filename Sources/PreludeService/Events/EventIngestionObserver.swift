import PreludeStorage

/// Code that must see every newly stored client event, inside the transaction that stores it (e.g. the
/// experiment results aggregator, which keeps its counts in step with the raw events).
///
/// Observers are injected once at service start (`PreludeService.start(configuration:logger:eventObservers:)`).
/// `didInsert` runs on the database writer, inside the write transaction, right after the event's row was
/// inserted, and only for events that were new (a retried duplicate is not reported). Write through
/// `connection` (use `connection.statement(sql)` for cached prepared statements); do not call
/// `Database.write`/`read` from here. Throwing rolls back the whole batch the event came in (nothing of it is
/// stored, the client gets a 500 and retries), so throw only for real failures.
package protocol EventIngestionObserver: Sendable {
    /// Called once per newly inserted event, in batch order, inside the storing transaction.
    func didInsert(_ event: StoredEvent, connection: Connection) throws
}
