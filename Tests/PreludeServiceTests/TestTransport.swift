import Foundation
import PreludeHTTP

/// How a service test reaches a server: two back-ends behind one call, in the spirit of HummingbirdTesting's
/// `RouterTestFramework` and `LiveTestFramework`.
///
/// - ``live(port:)``: over a socket to 127.0.0.1 (the server started on port 0), one request per connection.
/// - ``inProcess(_:)``: the same request bytes through the server's own code without a socket: the engine's request
///   decoder, its responder (routing, handlers, errors rendered as problems), the same negotiation of prepared
///   responses (coding, 304) and the same head encoder, then parsed as a live response is. What differs is only
///   what a socket adds: connection handling, timeouts and the event loop.
///
/// A test that takes the transport as an argument (`@Test(arguments: TestTransport.Kind.allCases)`) runs the same
/// assertions against both.
enum TestTransport {
    /// Which back-end, for test arguments.
    enum Kind: String, CaseIterable, Sendable, CustomStringConvertible {
        case live, inProcess
        var description: String { rawValue }
    }

    case live(port: Int)
    case inProcess(HTTPServer)

    /// The transport of `kind` to `server` (listening on `port`).
    init(_ kind: Kind, server: HTTPServer, port: Int) {
        switch kind {
        case .live: self = .live(port: port)
        case .inProcess: self = .inProcess(server)
        }
    }

    /// Sends `request` exactly as given and returns the parsed response.
    func exchange(_ request: [UInt8]) throws -> HTTPTestClient.Response {
        switch self {
        case .live(let port):
            let fd = try HTTPTestClient.connect(port: port)
            defer { close(fd) }
            // A request that cannot be written completely fails the test.
            if let error = HTTPTestClient.transmit(request, to: fd) { throw HTTPTestClient.Failure.socket(error) }
            return try HTTPTestClient.receive(fd)
        case .inProcess(let server):
            return try HTTPTestClient.parse(Self.respond(to: request, server: server))
        }
    }

    /// The bytes `server` sends for `request`, made without a socket.
    static func respond(to request: [UInt8], server: HTTPServer) -> [UInt8] {
        let configuration = server.configuration
        let responder = Responder(router: server.router, defaultMaxBodySize: configuration.maxBodySize)
        var decoder = RequestDecoder(limits: configuration.parserLimits)
        let requestIDHeader = configuration.requestIDHeader
        let signature = requestIDHeader.map(HTTPHeaders.nameSignature) ?? 0
        var method = HTTPMethod.get
        var acceptEncoding: String?
        var ifNoneMatch: String?
        var requestID = RequestIdentifier.none
        let response: HTTPResponse
        do throws(HTTPParseError) {
            let (event, consumed) = try request.withUnsafeBufferPointer { buffer throws(HTTPParseError) in
                try decoder.next(buffer)
            }
            guard case .head(let head) = consume event else {
                throw HTTPParseError(.badRequest, "the test request's head is incomplete")
            }
            method = head.method
            acceptEncoding = head.acceptEncoding
            ifNoneMatch = head.ifNoneMatch
            // As a connection does: a client's id is kept when it is safe to log and echo; otherwise one is made.
            if let name = requestIDHeader, let sent = head.headers.value(for: name, signature: signature),
                RequestIDGenerator.isAcceptable(sent)
            {
                requestID = .given(sent)
            }
            let decision = responder.decide(head)
            try decoder.beginBody(maxSize: responder.maxBodySize(for: decision))
            var body: [UInt8] = []
            if !decoder.takeEmptyBody() {
                let (bodyEvent, _) = try request.withUnsafeBufferPointer { buffer throws(HTTPParseError) in
                    try decoder.next(UnsafeBufferPointer(rebasing: buffer[consumed...]))
                }
                guard case .body(let bytes) = consume bodyEvent else {
                    throw HTTPParseError(.badRequest, "the test request's body is incomplete")
                }
                body = bytes
            }
            response = Responder.respond(
                decision, head: head, body: body, remoteAddress: "127.0.0.1:0", requestID: requestID,
                eventHandler: configuration.eventHandler)
        } catch {
            // As a connection answers a protocol error (and then closes).
            response = ProblemDetails(status: error.status, detail: error.reason).response()
        }
        let outgoing = ResponseEncoder.outgoing(
            response, method: method, acceptEncoding: acceptEncoding, ifNoneMatch: ifNoneMatch,
            requestIDHeader: requestIDHeader, signature: signature)
        let plan = ResponseEncoder.plan(
            status: outgoing.status, isHead: method == .head, bodyCount: outgoing.body.count,
            handlerContentLength: outgoing.prefix.handlerContentLength)
        if requestIDHeader != nil, case .none = requestID {
            var generator = RequestIDGenerator()
            requestID = .generated(generator.next())
        }
        var date = HTTPDate()
        date.refresh()
        var bytes: [UInt8] = []
        // One request per exchange, as the live transport's `Connection: close`.
        ResponseEncoder.encodeHead(
            prefix: outgoing.prefix, serverLine: ResponseEncoder.serverLine(configuration.serverName), plan: plan,
            keepAlive: false, date: date.headerLine, requestID: requestIDHeader.map { ($0, requestID) }, into: &bytes)
        if plan.sendBody { bytes += outgoing.body }
        return bytes
    }
}
