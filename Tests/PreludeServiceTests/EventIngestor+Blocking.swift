import PreludeStore
import PreludeStoreTestSupport

@testable import PreludeService

extension EventIngestor {
    /// Stores `batch` for `app` and returns once it is committed (``ingest(app:environment:events:)``, the store's
    /// tests' helper): the tests' way to ingest a decoded request body without a server.
    func ingest(app: String, batch: EventBatch) throws -> Outcome {
        try ingest(app: app, events: batch.events)
    }
}
