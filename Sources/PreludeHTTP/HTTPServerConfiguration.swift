/// Listen address, limits and timeouts of the HTTP engine. Every value has a documented default
/// (docs/http.md compares them with nginx, h11 and SwiftNIO) and can be overridden.
public struct HTTPServerConfiguration: Sendable {
    /// The address to bind, e.g. `127.0.0.1`, `0.0.0.0` or `::`.
    public var host: String
    /// The TCP port; 0 asks the kernel for a free one.
    public var port: Int

    /// Event-loop threads that own connections; default: the number of online CPUs.
    public var eventLoopCount: Int
    /// The `listen(2)` backlog: connections beyond `maxConnections` wait here. Default 1024.
    public var backlog: Int
    /// Open connections served at once; further ones wait in the accept backlog. Default 4096.
    public var maxConnections: Int

    /// Longest request line (method, target, version) → 414. Default 8 KiB.
    public var maxRequestLineLength: Int
    /// Longest single header line → 431. Default 8 KiB.
    public var maxHeaderLineLength: Int
    /// Largest header block (all field lines) → 431. Default 16 KiB.
    public var maxHeaderBytes: Int
    /// Most header fields → 431. Default 100.
    public var maxHeaderCount: Int
    /// Largest request body for routes without their own `RouteOptions.maxBodySize` → 413. Default 1 MiB.
    public var maxBodySize: Int

    /// Absolute deadline, in seconds, for a request head from its first byte (slowloris) → 408 and close. Default 10.
    public var headerTimeout: Double
    /// Longest pause between two reads of a body → 408 and close. Default 10.
    public var bodyIdleTimeout: Double
    /// Absolute deadline for a whole body from the end of the head → 408 and close. Default 30.
    public var bodyTimeout: Double
    /// Longest time a response write may make no progress (slow reader) before the connection is closed. Default 10.
    public var writeTimeout: Double
    /// How long an idle keep-alive connection (or a new one that sends nothing) stays open. Default 5.
    public var keepAliveTimeout: Double
    /// Requests served on one connection before it is closed with `Connection: close`. Default 1000.
    public var maxRequestsPerConnection: Int
    /// After an error response or `Connection: close`, how long unread input is drained before closing,
    /// so the client reads the response instead of a reset. Default 2.
    public var lingerTimeout: Double
    /// Pause before accepting again after `accept` fails for lack of descriptors or memory (EMFILE). Default 0.1.
    public var acceptBackoff: Double
    /// The `Server` header value. Default `prelude`.
    public var serverName: String
    /// Receives engine events (handler failures, refused requests, accept failures). Called on the engine's
    /// threads, so it must be thread-safe and quick. Default nil.
    public var eventHandler: (@Sendable (HTTPServerEvent) -> Void)?
    /// Told about every response sent, the engine's own included (for request logs and metrics). Called on the
    /// event-loop thread that owns the connection, once the response is encoded and just before it is written (so
    /// a client that read it knows it was counted): it must be thread-safe and quick. Default nil: nothing is
    /// measured and no clock is read.
    public var onRequestCompleted: (@Sendable (CompletedRequest) -> Void)?
    /// The request id header: a valid client value (1–128 visible ASCII characters) is kept, otherwise one is
    /// generated; it is echoed on the response and given to handlers as `HTTPRequest.requestID`. Default
    /// `X-Request-ID`; nil turns request ids off.
    public var requestIDHeader: String?
    /// The event loops' clock, in monotonic milliseconds: read once per loop wake-up and handed to every
    /// connection's ``ConnectionStateMachine`` as `now`. Tests inject one to drive timeouts without waiting.
    /// Default `SystemInfo.monotonicMilliseconds`.
    package var monotonicClock: @Sendable () -> Int64 = SystemInfo.monotonicMilliseconds

    /// Creates a configuration with default limits.
    public init(host: String = "127.0.0.1", port: Int = 8080) {
        self.host = host
        self.port = port
        self.eventLoopCount = max(1, SystemInfo.onlineProcessorCount)
        self.backlog = 1024
        self.maxConnections = 4096
        self.maxRequestLineLength = 8192
        self.maxHeaderLineLength = 8192
        self.maxHeaderBytes = 16384
        self.maxHeaderCount = 100
        self.maxBodySize = 1 << 20
        self.headerTimeout = 10
        self.bodyIdleTimeout = 10
        self.bodyTimeout = 30
        self.writeTimeout = 10
        self.keepAliveTimeout = 5
        self.maxRequestsPerConnection = 1000
        self.lingerTimeout = 2
        self.acceptBackoff = 0.1
        self.serverName = "prelude"
        self.eventHandler = nil
        self.onRequestCompleted = nil
        self.requestIDHeader = "X-Request-ID"
    }

    /// The parser limits derived from this configuration.
    package var parserLimits: HTTPParserLimits {
        HTTPParserLimits(
            maxRequestLineLength: maxRequestLineLength, maxHeaderLineLength: maxHeaderLineLength,
            maxHeaderBytes: maxHeaderBytes, maxHeaderCount: maxHeaderCount)
    }
}
