/// A parsed HTTP/1.1 request as handed to a route handler.
public struct HTTPRequest: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The percent-decoded path of the origin-form target, e.g. `/v1/apps/demo/policy`.
    public var path: String
    /// The raw query string after `?`, without the `?`, or empty: the only record of the query (``query`` and
    /// ``rawQueryView`` read it).
    public var rawQuery: String
    /// Query parameters, percent-decoded (`+` as space), in order: ``rawQuery`` decoded each time it is read (read
    /// it once per handler). Setting it replaces ``rawQuery`` with the pairs percent-encoded.
    public var query: [(name: String, value: String)] {
        get { rawQueryView.pairs }
        set { rawQuery = RawQuery(encoding: newValue).text }
    }
    /// The query as sent, read in place (no decoding, no strings): what a hot path scans.
    package var rawQueryView: RawQuery { RawQuery(rawQuery) }
    /// The header fields.
    public var headers: HTTPHeaders
    /// The request body, de-chunked.
    public var body: [UInt8]
    /// Values captured by `{name}` segments of the matched route pattern. Built when read:
    /// ``pathParameter(_:)`` reads one value without building the dictionary.
    public var pathParameters: [String: String] {
        get { captures.dictionary }
        set { captures = PathParameters(newValue) }
    }
    /// What the `{name}` segments captured.
    package var captures: PathParameters
    /// The peer address as `ip:port`, for logs and rate limits.
    public var remoteAddress: String
    /// The request id echoed in `X-Request-ID` (the client's when valid, else generated; empty when the server's
    /// `requestIDHeader` is nil). Put it in logs and error reports. A generated id's text is made when read.
    public var requestID: String {
        get { identifier.text }
        set { identifier = RequestIdentifier(newValue) }
    }
    /// The request id as the engine holds it.
    package var identifier: RequestIdentifier

    /// Creates a request, for in-process tests: give the query raw (`rawQuery`) or as pairs (`query`, encoded
    /// into ``rawQuery``), not both.
    public init(
        method: HTTPMethod, path: String, rawQuery: String = "", query: [(name: String, value: String)] = [],
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], pathParameters: [String: String] = [:],
        remoteAddress: String = "127.0.0.1:0", requestID: String = ""
    ) {
        precondition(rawQuery.isEmpty || query.isEmpty, "give the query raw or as pairs, not both")
        self.method = method
        self.path = path
        self.rawQuery = query.isEmpty ? rawQuery : RawQuery(encoding: query).text
        self.headers = headers
        self.body = body
        captures = PathParameters(pathParameters)
        self.remoteAddress = remoteAddress
        identifier = RequestIdentifier(requestID)
    }

    /// The value the matched route's `{name}` segment captured, or nil.
    public func pathParameter(_ name: String) -> String? { captures[name] }

    /// The first value of a query parameter, or nil.
    public func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }

    /// A request as the server parsed it, from its head.
    package init(
        head: consuming RequestHead, body: [UInt8], pathParameters: PathParameters, remoteAddress: String,
        requestID: RequestIdentifier
    ) {
        // Assigned field by field rather than through the public initializer: delegating cost 1,100 instructions
        // per request (callgrind of the policy fetch), this runs for every request the server parses.
        method = head.method
        path = head.path
        rawQuery = head.rawQuery
        headers = head.headers
        self.body = body
        captures = pathParameters
        self.remoteAddress = remoteAddress
        identifier = requestID
    }
}
