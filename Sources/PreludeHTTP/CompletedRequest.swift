/// What the engine reports through `HTTPServerConfiguration.onRequestCompleted` for every response it sends:
/// handler answers and the engine's own (404, 405, OPTIONS, and the 400/408/413/414/431/501/505 refusals).
public struct CompletedRequest: Sendable {
    /// The request method (`GET` for a request refused before its method was read).
    public var method: HTTPMethod
    /// The matched route pattern, e.g. `/v1/apps/{app}/policy`; nil when no handler ran (engine answers).
    public var route: String?
    /// The response status code.
    public var status: Int
    /// From the request's first byte to its response being ready to write, in monotonic nanoseconds.
    public var durationNanoseconds: UInt64
    /// Response bytes (head and body) queued for the socket.
    public var bytesSent: Int
    /// The request id echoed in `X-Request-ID` (the client's when valid, else generated). A generated id's text is
    /// made when read.
    public var requestID: String {
        get { identifier.text }
        set { identifier = RequestIdentifier(newValue) }
    }
    /// The request id as the engine holds it.
    package var identifier: RequestIdentifier
    /// The peer address as `ip:port`.
    public var remoteAddress: String
    /// The path parameters the matched route captured (e.g. `app`); empty when no handler ran. Built when read:
    /// ``pathParameter(_:)`` reads one value without building the dictionary.
    public var pathParameters: [String: String] {
        get { captures.dictionary }
        set { captures = PathParameters(newValue) }
    }
    /// What the matched route's `{name}` segments captured.
    package var captures: PathParameters
    /// The handler's ``HTTPResponse/logFields``.
    public var logFields: [String: String]

    /// Creates a report; the engine fills it, tests may build one.
    public init(
        method: HTTPMethod, route: String?, status: Int, durationNanoseconds: UInt64, bytesSent: Int,
        requestID: String, remoteAddress: String, pathParameters: [String: String] = [:],
        logFields: [String: String] = [:]
    ) {
        self.init(
            method: method, route: route, status: status, durationNanoseconds: durationNanoseconds,
            bytesSent: bytesSent, identifier: RequestIdentifier(requestID), remoteAddress: remoteAddress,
            captures: PathParameters(pathParameters), logFields: logFields)
    }

    /// A report with the captures as the engine holds them.
    package init(
        method: HTTPMethod, route: String?, status: Int, durationNanoseconds: UInt64, bytesSent: Int,
        identifier: RequestIdentifier, remoteAddress: String, captures: PathParameters, logFields: [String: String]
    ) {
        self.method = method
        self.route = route
        self.status = status
        self.durationNanoseconds = durationNanoseconds
        self.bytesSent = bytesSent
        self.identifier = identifier
        self.remoteAddress = remoteAddress
        self.captures = captures
        self.logFields = logFields
    }

    /// The value the matched route's `{name}` segment captured, or nil.
    public func pathParameter(_ name: String) -> String? { captures[name] }
}
