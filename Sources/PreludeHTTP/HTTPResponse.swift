/// A response produced by a handler. The server adds `Date`, `Server`, `Content-Length`
/// and `Connection`, and drops the body on HEAD, 204 and 304.
public struct HTTPResponse: Sendable {
    /// The status line's code and reason.
    public var status: HTTPStatus {
        get { prepared?.identityResponse.status ?? storedStatus }
        set {
            materialize()
            storedStatus = newValue
            storedHead = nil
        }
    }
    /// Header fields set by the handler.
    public var headers: HTTPHeaders {
        get { prepared?.identityResponse.headers ?? storedHeaders }
        set {
            materialize()
            storedHeaders = newValue
            storedHead = nil
        }
    }
    /// The body bytes (shared, not copied, when a prepared array is reused).
    public var body: [UInt8] {
        get { prepared?.identityResponse.body ?? storedBody }
        set {
            materialize()
            storedBody = newValue
        }
    }
    /// Fields for the server's request log, never sent to the client (e.g. the authenticated principal's name):
    /// the server reports them in ``CompletedRequest/logFields``.
    public var logFields: [String: String] = [:]
    /// The rendered status and fields, when the response was made from a ``PreparedHead`` and not changed since.
    public var head: PreparedHead? { prepared?.identityResponse.head ?? storedHead }
    /// The prepared response the engine negotiates for the request, when the response was made from one
    /// (``init(_:)``) and not changed since; `status`, `headers` and `body` are then its identity 200.
    public private(set) var prepared: PreparedResponse?

    // A response made from a prepared one holds only the reference (the engine negotiates it and never reads the
    // fields; copying the identity 200's fields into every response cost about 600 instructions per policy fetch,
    // callgrind); its fields are read from there, and copied here when one is changed (`materialize()`).
    private var storedStatus: HTTPStatus
    private var storedHeaders: HTTPHeaders
    private var storedBody: [UInt8]
    private var storedHead: PreparedHead?

    /// Creates a response.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        storedStatus = status
        storedHeaders = headers
        storedBody = body
    }

    /// A response whose status and fields were rendered once (``PreparedHead``).
    public init(head: PreparedHead, body: [UInt8] = []) {
        storedStatus = head.status
        storedHeaders = head.headers
        storedBody = body
        storedHead = head
    }

    /// A prepared response, negotiated by the engine for each request (coding, 304). Read directly, it is the
    /// identity 200; ``PreparedResponse/response(to:)`` gives what a given request gets.
    public init(_ prepared: PreparedResponse) {
        storedStatus = .ok
        storedHeaders = HTTPHeaders()
        storedBody = []
        self.prepared = prepared
        // No log fields: a prepared response's identity 200 has none (``PreparedResponse`` makes it from a head).
    }

    /// A response with a JSON body and `Content-Type: application/json`.
    public static func json(_ body: [UInt8], status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
    }

    /// Copies a prepared response's identity 200 into the stored fields and forgets the prepared response (a field
    /// is about to change, so the engine must send the fields, no longer negotiate).
    private mutating func materialize() {
        guard let prepared else { return }
        let identity = prepared.identityResponse
        storedStatus = identity.status
        storedHeaders = identity.headers
        storedBody = identity.body
        storedHead = identity.head
        self.prepared = nil
    }
}
