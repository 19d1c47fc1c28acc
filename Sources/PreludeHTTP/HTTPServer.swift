import PreludeLocking

/// An HTTP/1.1 server on POSIX sockets: one accept thread, `eventLoopCount` epoll loops, and Dispatch's
/// global queue for handlers that may block (see docs/http.md).
///
/// Lifecycle: `init` → `start()` (binds and listens, returns the bound port, so port 0 works) →
/// serve until `shutdown(gracePeriod:)` (stop accepting, finish in-flight requests within the grace
/// period, close idle keep-alive connections) → `waitUntilStopped()` returns.
public final class HTTPServer: Sendable {
    /// The configuration the server was created with.
    public let configuration: HTTPServerConfiguration
    /// The routes it serves.
    public let router: Router

    private enum State {
        case created
        case running(ServerCore, Acceptor)
        case stopping(ServerCore)
        case stopped
    }

    private let state = PosixLock<State>(.created)

    /// Creates a server; nothing is bound until `start()`.
    public init(configuration: HTTPServerConfiguration, router: Router) {
        self.configuration = configuration
        self.router = router
    }

    /// Binds, listens and starts accepting. Returns the bound TCP port. Throws
    /// `HTTPServerConfiguration.InvalidSetting` for a bad configuration and `SocketError` when binding fails.
    @discardableResult
    public func start() throws -> Int {
        try state.withLock { state in
            guard case .created = state else { preconditionFailure("start() called twice") }
            try configuration.validate()
            let core = try ServerCore(configuration: configuration, router: router)
            let listener = try Socket.listen(
                host: configuration.host, port: configuration.port, backlog: configuration.backlog)
            let loops = try (0..<max(1, configuration.eventLoopCount)).map { _ in try EventLoop(core: core) }
            let acceptor = Acceptor(core: core, listenFD: listener.fd, loops: loops)
            for loop in loops {
                core.running.enter()
                ThreadLauncher.start { loop.run() }
            }
            core.running.enter()
            ThreadLauncher.start { acceptor.run() }
            state = .running(core, acceptor)
            return listener.port
        }
    }

    /// Stops accepting, closes idle connections, lets in-flight requests finish (their responses carry
    /// `Connection: close`) for at most `gracePeriod` seconds, then closes everything and returns.
    ///
    /// Do not call it from a handler that runs inline on an event loop: it waits for those loops.
    public func shutdown(gracePeriod: Double = 10) {
        let core: ServerCore? = state.withLock { state in
            switch state {
            case .created:
                state = .stopped
                return nil
            case .running(let core, let acceptor):
                acceptor.stop(graceMilliseconds: Int64((max(0, gracePeriod) * 1000).rounded()))
                state = .stopping(core)
                return core
            case .stopping(let core):
                return core
            case .stopped:
                return nil
            }
        }
        guard let core else { return }
        core.running.wait()
        state.withLock { $0 = .stopped }
    }

    /// Blocks the calling thread until the server has fully stopped (returns at once if it never started).
    public func waitUntilStopped() {
        let core: ServerCore? = state.withLock { state in
            switch state {
            case .running(let core, _), .stopping(let core): core
            case .created, .stopped: nil
            }
        }
        core?.running.wait()
    }

    /// Connections open right now (for tests and metrics).
    public var openConnectionCount: Int {
        state.withLock { state in
            switch state {
            case .running(let core, _), .stopping(let core): core.openConnections.load(ordering: .relaxed)
            case .created, .stopped: 0
            }
        }
    }
}
