import PreludeStore

extension EventIngestor {
    /// Queues a decoded request body's events for `app` (``submit(app:events:completion:)``).
    package func submit(app: String, batch: EventBatch, completion: @escaping Completion) {
        submit(app: app, events: batch.events, completion: completion)
    }
}
