/// CONTRACT: listen address and the engine's limits. The HTTP engine work adds every limit and timeout
/// with documented defaults; `host` and `port` are fixed here because the service configures them.
public struct HTTPServerConfiguration: Sendable {
    /// The address to bind, e.g. `127.0.0.1` or `0.0.0.0`.
    public var host: String
    /// The TCP port; 0 asks the kernel for a free one.
    public var port: Int

    /// Creates a configuration with default limits.
    public init(host: String = "127.0.0.1", port: Int = 8080) {
        self.host = host
        self.port = port
    }
}
