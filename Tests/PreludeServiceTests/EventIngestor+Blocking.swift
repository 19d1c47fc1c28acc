import Dispatch
import PreludeStore
import Synchronization

@testable import PreludeService

extension EventIngestor {
    /// Stores `batch` for `app` through ``submit(app:batch:completion:)`` and returns once it is committed: the
    /// tests' way to ingest without a server.
    func ingest(app: String, batch: EventBatch) throws -> Outcome {
        let outcome = Mutex<Result<Outcome, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        submit(app: app, batch: batch) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0 }!.get()
    }
}
