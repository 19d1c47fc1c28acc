/// A response produced by a handler. The server adds `Date`, `Server`, `Content-Length`
/// and `Connection`, and drops the body on HEAD, 204 and 304.
public struct HTTPResponse: Sendable {
    /// The status line's code and reason.
    public var status: HTTPStatus
    /// Header fields set by the handler.
    public var headers: HTTPHeaders
    /// The body bytes (shared, not copied, when a prepared array is reused).
    public var body: [UInt8]
    /// Fields for the server's request log, never sent to the client (e.g. the authenticated principal's name):
    /// the server reports them in ``CompletedRequest/logFields``.
    public var logFields: [String: String] = [:]

    /// Creates a response.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a JSON body and `Content-Type: application/json`.
    public static func json(_ body: [UInt8], status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
    }
}
