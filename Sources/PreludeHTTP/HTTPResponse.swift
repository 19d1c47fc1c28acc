/// A response produced by a handler. The server adds `Date`, `Server`, `Content-Length`
/// and `Connection`, and drops the body on HEAD, 204 and 304.
public struct HTTPResponse: Sendable {
    /// The status line's code and reason.
    public var status: HTTPStatus {
        didSet { dropPrepared() }
    }
    /// Header fields set by the handler.
    public var headers: HTTPHeaders {
        didSet { dropPrepared() }
    }
    /// The body bytes (shared, not copied, when a prepared array is reused).
    public var body: [UInt8] {
        didSet { prepared = nil }
    }
    /// Fields for the server's request log, never sent to the client (e.g. the authenticated principal's name):
    /// the server reports them in ``CompletedRequest/logFields``.
    public var logFields: [String: String] = [:]
    /// The rendered status and fields, when the response was made from a ``PreparedHead`` and not changed since.
    public private(set) var head: PreparedHead?
    /// The prepared response the engine negotiates for the request, when the response was made from one
    /// (``init(_:)``) and not changed since; `status`, `headers` and `body` are then its identity 200.
    public private(set) var prepared: PreparedResponse?

    /// Creates a response.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response whose status and fields were rendered once (``PreparedHead``).
    public init(head: PreparedHead, body: [UInt8] = []) {
        self.status = head.status
        self.headers = head.headers
        self.body = body
        self.head = head
    }

    /// A prepared response, negotiated by the engine for each request (coding, 304). Read directly, it is the
    /// identity 200; ``PreparedResponse/response(to:)`` gives what a given request gets.
    public init(_ prepared: PreparedResponse) {
        self = prepared.identityResponse
        self.prepared = prepared
    }

    /// A response with a JSON body and `Content-Type: application/json`.
    public static func json(_ body: [UInt8], status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
    }

    private mutating func dropPrepared() {
        head = nil
        prepared = nil
    }
}
