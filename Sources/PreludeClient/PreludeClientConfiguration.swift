import Foundation
import PreludeCore

/// Everything a ``PreludeClient`` needs: where the server is, which app, where to keep its files and the bundled
/// bootstrap policy (the four the initializer takes), then settings with production defaults — the device's
/// context, the injected transport, clock and jitter, backoffs, batch sizes, compression and foreground handling —
/// each a property to set when the default does not fit.
///
/// ```swift
/// var configuration = PreludeClientConfiguration(server: url, app: "demo", storageDirectory: directory)
/// configuration.observesForeground = false       // opt out: the app calls appBecameActive() itself
/// ```
public struct PreludeClientConfiguration: Sendable {
    /// The service's base URL (`https://prelude.example.com`); paths are appended to it.
    public var server: URL
    /// The app's id in the service (`demo`, `com.example.notes`).
    public var app: String
    /// The service environment the client reads its policy from and sends its events to (`production`, the default;
    /// a QA build may say `staging`: docs/change-management.md). Use a storage directory per environment.
    public var environment = "production"
    /// A directory the client owns (created if missing): cached policy, ledger, event queue, install id. One client
    /// per directory at a time.
    public var storageDirectory: URL
    /// A policy document bundled with the app, used until a policy was ever fetched (`prelude policy export`).
    public var bootstrapPolicy: Data?
    /// Platform, OS version, app version, locale for targeting and copy (default: empty; on iOS
    /// ``PreludeClient/init(server:app:storageDirectory:bootstrapPolicy:)`` fills it with `ClientContext.current()`).
    /// Its `installId`, when nil, is generated once and kept in the storage directory.
    public var context = ClientContext()
    /// The device segment sent with every events batch, in the `Prelude-OS-Major` and `Prelude-Locale` request
    /// headers, for the results' breakdowns per OS major version and locale (docs/client.md, "Breakdowns"). Default:
    /// none (no header); on iOS ``PreludeClient/init(server:app:storageDirectory:bootstrapPolicy:)`` fills it with
    /// `EventSegment.current()`. Elsewhere build it from raw values with
    /// ``PreludeCore/EventSegment/init(systemVersion:localeIdentifier:)``. Servers before the breakdowns ignore the
    /// headers.
    public var segment = EventSegment()
    /// The network (default: URLSession).
    public var transport: any PreludeTransport = URLSessionTransport()
    /// The clock (default: the system's; tests inject one).
    public var clock: any PreludeClock = SystemClock()
    /// Jitter for backoff (default: the system's random generator; tests inject one).
    public var jitter: any JitterSource = SystemJitter()
    /// Backoff of policy fetches after failures (default: 2 s doubling to 1 h).
    public var fetchBackoff = Backoff(base: 2, maximum: 3600)
    /// Backoff of event flushes after failures (default: 2 s doubling to 10 min).
    public var flushBackoff = Backoff(base: 2, maximum: 600)
    /// Events per request (default 500; the endpoint takes 1–500).
    public var eventBatchSize = 500
    /// The most events kept on disk while the server cannot be reached (default 10,000).
    public var eventQueueCapacity = 10_000
    /// Whether event batches of at least ``compressionThreshold`` bytes are sent with `Content-Encoding: gzip`
    /// (default true). A server that answers 415 to a gzip batch gets it again uncompressed, and no gzip after that.
    public var compressEvents = true
    /// Whether the client runs ``PreludeClient/appBecameActive()`` by itself each time ``foregroundSignal`` fires
    /// (default true: on iOS, every time the app becomes active). Opt out with false and call it yourself.
    public var observesForeground = true
    /// What tells the client the app came to the foreground (default ``ForegroundSignal/application``: on iOS,
    /// `UIApplication.didBecomeActiveNotification`; elsewhere only its `activate()`).
    public var foregroundSignal = ForegroundSignal.application
    /// Event batch bodies from this size up are compressed: a gzip member costs 18 bytes of framing.
    public static let compressionThreshold = 1024

    /// A configuration for `app` on `server`, keeping its files in `storageDirectory`, starting from
    /// `bootstrapPolicy`; every other setting has its production default (set the properties to change them).
    public init(server: URL, app: String, storageDirectory: URL, bootstrapPolicy: Data? = nil) {
        self.server = server
        self.app = app
        self.storageDirectory = storageDirectory
        self.bootstrapPolicy = bootstrapPolicy
    }

    /// A configuration with every setting as an argument (0.1.0's initializer).
    @available(
        *, deprecated,
        message: "use init(server:app:storageDirectory:bootstrapPolicy:) and set the other properties"
    )
    public init(
        server: URL, app: String, storageDirectory: URL, bootstrapPolicy: Data? = nil,
        context: ClientContext = ClientContext(), transport: any PreludeTransport = URLSessionTransport(),
        clock: any PreludeClock = SystemClock(), jitter: any JitterSource = SystemJitter(),
        fetchBackoff: Backoff = Backoff(base: 2, maximum: 3600), flushBackoff: Backoff = Backoff(base: 2, maximum: 600),
        eventBatchSize: Int = 500, eventQueueCapacity: Int = 10_000, compressEvents: Bool = true,
        environment: String = "production"
    ) {
        self.init(server: server, app: app, storageDirectory: storageDirectory, bootstrapPolicy: bootstrapPolicy)
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
