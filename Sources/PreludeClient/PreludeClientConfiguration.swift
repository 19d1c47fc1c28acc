import Foundation
import PreludeCore

/// Everything a ``PreludeClient`` needs: where the server is, which app, where to keep its files, the bundled
/// bootstrap policy, and the injected transport, clock and jitter.
public struct PreludeClientConfiguration: Sendable {
    /// The service's base URL (`https://prelude.example.com`); paths are appended to it.
    public var server: URL
    /// The app's id in the service (`demo`, `com.example.notes`).
    public var app: String
    /// The service environment the client reads its policy from and sends its events to (`production`, the default;
    /// a QA build may say `staging`: docs/change-management.md). Use a storage directory per environment.
    public var environment: String
    /// A directory the client owns (created if missing): cached policy, ledger, event queue, install id. One client
    /// per directory at a time.
    public var storageDirectory: URL
    /// A policy document bundled with the app, used until a policy was ever fetched (`prelude policy export`).
    public var bootstrapPolicy: Data?
    /// Platform, OS version, app version, locale for targeting and copy. Its `installId`, when nil, is generated
    /// once and kept in the storage directory.
    public var context: ClientContext
    /// The network.
    public var transport: any PreludeTransport
    /// The clock (tests inject one).
    public var clock: any PreludeClock
    /// Jitter for backoff (tests inject one).
    public var jitter: any JitterSource
    /// Backoff of policy fetches after failures.
    public var fetchBackoff: Backoff
    /// Backoff of event flushes after failures.
    public var flushBackoff: Backoff
    /// Events per request (the endpoint takes 1–500).
    public var eventBatchSize: Int
    /// The most events kept on disk while the server cannot be reached.
    public var eventQueueCapacity: Int
    /// Whether event batches of at least ``compressionThreshold`` bytes are sent with `Content-Encoding: gzip`
    /// (default true). A server that answers 415 to a gzip batch gets it again uncompressed, and no gzip after that.
    public var compressEvents: Bool
    /// Event batch bodies from this size up are compressed: a gzip member costs 18 bytes of framing.
    public static let compressionThreshold = 1024

    /// A configuration with production defaults (URLSession, the system clock, system random jitter).
    public init(
        server: URL, app: String, storageDirectory: URL, bootstrapPolicy: Data? = nil,
        context: ClientContext = ClientContext(), transport: any PreludeTransport = URLSessionTransport(),
        clock: any PreludeClock = SystemClock(), jitter: any JitterSource = SystemJitter(),
        fetchBackoff: Backoff = Backoff(base: 2, maximum: 3600), flushBackoff: Backoff = Backoff(base: 2, maximum: 600),
        eventBatchSize: Int = 500, eventQueueCapacity: Int = 10_000, compressEvents: Bool = true,
        environment: String = "production"
    ) {
        precondition((1...500).contains(eventBatchSize), "the events endpoint takes 1–500 events per batch")
        self.server = server
        self.app = app
        self.storageDirectory = storageDirectory
        self.bootstrapPolicy = bootstrapPolicy
        self.context = context
        self.transport = transport
        self.clock = clock
        self.jitter = jitter
        self.fetchBackoff = fetchBackoff
        self.flushBackoff = flushBackoff
        self.eventBatchSize = eventBatchSize
        self.eventQueueCapacity = eventQueueCapacity
        self.compressEvents = compressEvents
        self.environment = environment
    }

    /// The path under ``server`` of the app's endpoints in ``environment``: `v1/apps/{app}` for production (the
    /// paths every server version has), `v1/apps/{app}/environments/{env}` otherwise.
    public var appPath: String {
        environment == "production" ? "v1/apps/\(app)" : "v1/apps/\(app)/environments/\(environment)"
    }
}
