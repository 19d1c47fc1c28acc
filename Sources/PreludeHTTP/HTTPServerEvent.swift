/// Something the engine reports for logs and metrics through `HTTPServerConfiguration.eventHandler`.
public enum HTTPServerEvent: Sendable, CustomStringConvertible {
    /// A handler threw an error that is not an `HTTPResponseError`; the client got a bare 500. `requestID` is the
    /// request's id (empty when the server sends none), so the log line joins the request's other lines.
    case handlerFailed(method: HTTPMethod, route: String, error: String, requestID: String)
    /// A request was refused while parsing (400, 408, 413, 414, 417, 431, 501, 505) and the connection closed;
    /// `requestID` is the id its answer carries (empty when the server sends none).
    case protocolError(status: Int, reason: String, remoteAddress: String, requestID: String)
    /// `accept` failed; for EMFILE/ENFILE the acceptor pauses for `acceptBackoff`.
    case acceptFailed(SocketError)
    /// `epoll_ctl` refused to watch, re-arm or forget a connection's socket (the connection is closed).
    case pollFailed(SocketError)

    public var description: String {
        switch self {
        case .handlerFailed(let method, let route, let error, _): "handler for \(method) \(route) failed: \(error)"
        case .protocolError(let status, let reason, let remote, _):
            "refused request from \(remote): \(status) \(reason)"
        case .acceptFailed(let error), .pollFailed(let error): error.description
        }
    }
}
