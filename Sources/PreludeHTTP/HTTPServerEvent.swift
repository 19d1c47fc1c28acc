/// Something the engine reports for logs and metrics through `HTTPServerConfiguration.eventHandler`.
public enum HTTPServerEvent: Sendable, CustomStringConvertible {
    /// A handler threw an error that is not an `HTTPResponseError`; the client got a bare 500.
    case handlerFailed(method: HTTPMethod, route: String, error: String)
    /// A request was refused while parsing (400, 408, 413, 414, 417, 431, 501, 505) and the connection closed.
    case protocolError(status: Int, reason: String, remoteAddress: String)
    /// `accept` failed; for EMFILE/ENFILE the acceptor pauses for `acceptBackoff`.
    case acceptFailed(SocketError)

    public var description: String {
        switch self {
        case .handlerFailed(let method, let route, let error): "handler for \(method) \(route) failed: \(error)"
        case .protocolError(let status, let reason, let remote): "refused request from \(remote): \(status) \(reason)"
        case .acceptFailed(let error): error.description
        }
    }
}
