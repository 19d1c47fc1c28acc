import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What the acceptor and the event loops share: configuration in convenient units, the responder,
/// and the open-connection count that enforces `maxConnections`.
final class ServerCore: Sendable {
    let configuration: HTTPServerConfiguration
    let responder: Responder
    /// `configuration.onRequestCompleted`, read once per response.
    let requestObserver: (@Sendable (CompletedRequest) -> Void)?
    /// `configuration.requestIDHeader`.
    let requestIDHeader: String?
    /// `HTTPHeaders.nameSignature` of `requestIDHeader` (0 when there is none).
    let requestIDSignature: UInt64
    let parserLimits: HTTPParserLimits
    /// `Server: <serverName>\r\n`, rendered once.
    let serverLine: [UInt8]
    /// The configured timeouts in milliseconds.
    let timeouts: ConnectionStateMachine.Timeouts
    /// Open connections (accepted and not yet closed).
    let openConnections = Atomic<Int>(0)
    /// Written to when the acceptor should look again (a slot freed up, or shutdown).
    let acceptorWakeFD: Int32
    /// Left once per thread (acceptor and each loop) when it ends.
    let running = DispatchGroup()

    init(configuration: HTTPServerConfiguration, router: Router) throws {
        self.configuration = configuration
        responder = Responder(router: router, defaultMaxBodySize: configuration.maxBodySize)
        requestObserver = configuration.onRequestCompleted
        requestIDHeader = configuration.requestIDHeader
        requestIDSignature = configuration.requestIDHeader.map(HTTPHeaders.nameSignature) ?? 0
        parserLimits = configuration.parserLimits
        serverLine = ResponseEncoder.serverLine(configuration.serverName)
        func ms(_ seconds: Double) -> Int64 { Int64((seconds * 1000).rounded()) }
        timeouts = ConnectionStateMachine.Timeouts(
            header: ms(configuration.headerTimeout), bodyIdle: ms(configuration.bodyIdleTimeout),
            body: ms(configuration.bodyTimeout), write: ms(configuration.writeTimeout),
            keepAlive: ms(configuration.keepAliveTimeout), linger: ms(configuration.lingerTimeout))
        acceptorWakeFD = try Epoll.makeEventFD()
    }

    deinit { close(acceptorWakeFD) }

    func wakeAcceptor() {
        var one: UInt64 = 1
        _ = write(acceptorWakeFD, &one, 8)
    }

    /// Called by a loop when it closed a connection; wakes the acceptor if it was at the limit.
    func connectionClosed() {
        let (old, _) = openConnections.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        if old >= configuration.maxConnections { wakeAcceptor() }
    }

    func loopStopped() { running.leave() }
}
