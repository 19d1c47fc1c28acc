/// A parsed HTTP/1.1 request as handed to a route handler.
public struct HTTPRequest: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The percent-decoded path of the origin-form target, e.g. `/v1/apps/demo/policy`.
    public var path: String
    /// The raw query string after `?`, without the `?`, or empty.
    public var rawQuery: String
    /// Query parameters, percent-decoded (`+` as space), in order. For a request the server parsed, decoded from
    /// ``rawQuery`` each time it is read (the parser has checked that it decodes); read it once per handler.
    public var query: [(name: String, value: String)] {
        get {
            if let givenQuery { return givenQuery }
            var raw = rawQuery
            return raw.withUTF8 { PercentDecoding.parseQuery($0) } ?? []
        }
        set { givenQuery = newValue }
    }
    /// The query given to the initializer or set; nil while ``query`` is ``rawQuery`` decoded.
    private var givenQuery: [(name: String, value: String)]?
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

    /// Creates a request; used by the parser and by in-process tests.
    public init(
        method: HTTPMethod, path: String, rawQuery: String = "", query: [(name: String, value: String)] = [],
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], pathParameters: [String: String] = [:],
        remoteAddress: String = "127.0.0.1:0", requestID: String = ""
    ) {
        self.init(
            method: method, path: path, rawQuery: rawQuery, headers: headers, body: body,
            pathParameters: PathParameters(pathParameters), remoteAddress: remoteAddress,
            requestID: RequestIdentifier(requestID), queryFromRaw: ())
        givenQuery = query
    }

    /// The value the matched route's `{name}` segment captured, or nil.
    public func pathParameter(_ name: String) -> String? { captures[name] }

    /// The first value of a query parameter, or nil.
    public func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }

    /// A request as the server parsed it: ``query`` is ``rawQuery`` decoded, when read.
    package init(
        method: HTTPMethod, path: String, rawQuery: String, headers: HTTPHeaders, body: [UInt8],
        pathParameters: PathParameters, remoteAddress: String, requestID: RequestIdentifier, queryFromRaw: Void
    ) {
        // Assigned here rather than through the public initializer: delegating cost 1,100 instructions per request
        // (callgrind of the policy fetch), this runs for every request the server parses.
        self.method = method
        self.path = path
        self.rawQuery = rawQuery
        self.headers = headers
        self.body = body
        self.captures = pathParameters
        self.remoteAddress = remoteAddress
        self.identifier = requestID
    }

    /// True when ``query`` is ``rawQuery`` decoded (a request the server parsed, its query not replaced), so a
    /// handler may read the pairs straight from ``rawQuery`` (``PercentDecoding/scanQuery(_:_:)``).
    package var queryIsRawQueryDecoded: Bool { givenQuery == nil }
}
