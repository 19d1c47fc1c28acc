/// A response produced by a handler. The server adds `Date`, `Server`, `Content-Length`
/// and `Connection`, and drops the body on HEAD, 204 and 304.
///
/// A response is one of three kinds (``Content``), each sent its own way by the engine: fields set by the handler
/// (rendered when sent), a head rendered once (``PreparedHead``) with a body, or a prepared representation the
/// engine negotiates per request (``PreparedResponse``: coding, 304). Reading ``status``, ``headers`` or ``body``
/// works for every kind; changing one turns the response into fields.
public struct HTTPResponse: Sendable {
    /// What a response is made of.
    public enum Content: Sendable {
        /// Status, fields and body, rendered when sent.
        case fields(status: HTTPStatus, headers: HTTPHeaders, body: [UInt8])
        /// A head rendered once (status line and fields) with the body to send after it.
        case rendered(PreparedHead, body: [UInt8])
        /// A representation prepared once, negotiated by the engine for each request. Only the reference is held:
        /// copying the identity 200's fields into every response cost about 600 instructions per policy fetch
        /// (callgrind).
        case negotiated(PreparedResponse)
    }

    /// What this response is made of; the engine switches on it.
    public private(set) var content: Content

    /// The status line's code and reason (a negotiated response's identity 200).
    public var status: HTTPStatus {
        get {
            switch content {
            case .fields(let status, _, _): status
            case .rendered(let head, _): head.status
            case .negotiated(let prepared): prepared.identityResponse.status
            }
        }
        set {
            let (_, headers, body) = fields
            content = .fields(status: newValue, headers: headers, body: body)
        }
    }
    /// Header fields set by the handler.
    public var headers: HTTPHeaders {
        get {
            switch content {
            case .fields(_, let headers, _): headers
            case .rendered(let head, _): head.headers
            case .negotiated(let prepared): prepared.identityResponse.headers
            }
        }
        set {
            let (status, _, body) = fields
            content = .fields(status: status, headers: newValue, body: body)
        }
    }
    /// The body bytes (shared, not copied, when a prepared array is reused).
    public var body: [UInt8] {
        get {
            switch content {
            case .fields(_, _, let body), .rendered(_, let body): body
            case .negotiated(let prepared): prepared.identityResponse.body
            }
        }
        set {
            switch content {
            case .fields(let status, let headers, _):
                content = .fields(status: status, headers: headers, body: newValue)
            // The head does not depend on the body (the engine adds Content-Length): it stays rendered.
            case .rendered(let head, _): content = .rendered(head, body: newValue)
            case .negotiated(let prepared):
                // Its identity 200 (whose head was rendered once) with this body.
                let identity = prepared.identityResponse
                if let head = identity.head {
                    content = .rendered(head, body: newValue)
                } else {
                    content = .fields(status: identity.status, headers: identity.headers, body: newValue)
                }
            }
        }
    }
    /// Fields for the server's request log, never sent to the client (e.g. the authenticated principal's name):
    /// the server reports them in ``CompletedRequest/logFields``.
    public var logFields: [String: String] = [:]
    /// The rendered status and fields, when the response was made from a ``PreparedHead`` and not changed since.
    public var head: PreparedHead? {
        switch content {
        case .fields: nil
        case .rendered(let head, _): head
        case .negotiated(let prepared): prepared.identityResponse.head
        }
    }
    /// The prepared response the engine negotiates for the request, when the response was made from one
    /// (``init(_:)``) and not changed since; `status`, `headers` and `body` are then its identity 200.
    public var prepared: PreparedResponse? {
        if case .negotiated(let prepared) = content { return prepared }
        return nil
    }

    /// Creates a response.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        content = .fields(status: status, headers: headers, body: body)
    }

    /// A response whose status and fields were rendered once (``PreparedHead``).
    public init(head: PreparedHead, body: [UInt8] = []) {
        content = .rendered(head, body: body)
    }

    /// A prepared response, negotiated by the engine for each request (coding, 304). Read directly, it is the
    /// identity 200; ``PreparedResponse/response(to:)`` gives what a given request gets.
    public init(_ prepared: PreparedResponse) {
        // No log fields: a prepared response's identity 200 has none (``PreparedResponse`` makes it from a head).
        content = .negotiated(prepared)
    }

    /// A response with a JSON body and `Content-Type: application/json`.
    public static func json(_ body: [UInt8], status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
    }

    /// The status, fields and body as they stand, whatever the kind (before one of them changes).
    private var fields: (HTTPStatus, HTTPHeaders, [UInt8]) {
        switch content {
        case .fields(let status, let headers, let body): (status, headers, body)
        case .rendered(let head, let body): (head.status, head.headers, body)
        case .negotiated(let prepared):
            (prepared.identityResponse.status, prepared.identityResponse.headers, prepared.identityResponse.body)
        }
    }
}
