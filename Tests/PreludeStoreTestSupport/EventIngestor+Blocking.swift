import Dispatch
import PreludeStore
import Synchronization

extension EventIngestor {
    /// Stores `events` for `environment` of `app` through ``submit(app:environment:events:completion:)`` and returns
    /// once they are committed: the tests' way to ingest without a server.
    package func ingest(
        app: String, environment: String = EnvironmentName.production, events: [IncomingEvent]
    ) throws -> Outcome {
        let outcome = Mutex<Result<Outcome, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        submit(app: app, environment: environment, events: events) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0 }!.get()
    }
}
