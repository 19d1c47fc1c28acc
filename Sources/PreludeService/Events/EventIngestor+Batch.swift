import PreludeStore

extension EventIngestor {
    /// Queues a decoded request body's events for `app` (``submit(app:events:completion:)``).
    package func submit(
        app: String, environment: String = EnvironmentName.production, batch: EventBatch,
        completion: @escaping Completion
    ) {
        submit(app: app, environment: environment, events: batch.events, completion: completion)
    }
}
