/// CONTRACT (to be implemented by the HTTP engine work): an HTTP/1.1 server on POSIX sockets and Dispatch.
///
/// Lifecycle: `init` → `start()` (binds and listens, returns the bound port, so port 0 works) →
/// serve until `shutdown(gracePeriod:)` (stop accepting, finish in-flight requests within the grace
/// period, close idle keep-alive connections) → `waitUntilStopped()` returns.
public final class HTTPServer: Sendable {
    /// The configuration the server was created with.
    public let configuration: HTTPServerConfiguration
    /// The routes it serves.
    public let router: Router

    /// Creates a server; nothing is bound until `start()`.
    public init(configuration: HTTPServerConfiguration, router: Router) {
        self.configuration = configuration
        self.router = router
    }

    /// Binds, listens and starts accepting. Returns the bound TCP port.
    @discardableResult
    public func start() throws -> Int { fatalError("HTTP engine not implemented yet") }

    /// Stops accepting, lets in-flight requests finish for at most `gracePeriod` seconds, then closes everything.
    public func shutdown(gracePeriod: Double = 10) { fatalError("HTTP engine not implemented yet") }

    /// Blocks the calling thread until the server has fully stopped.
    public func waitUntilStopped() { fatalError("HTTP engine not implemented yet") }
}
