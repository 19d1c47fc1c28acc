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
/// assertions against both. This is the service tests' one HTTP client: the admin requests (``AdminRequest``), the
/// public client (``PublicClient``) and the raw requests of the live tests all go through it.
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

    /// A response: status, header fields, body (binary-safe).
    struct Response {
        let status: Int
        /// The header fields in the order received, names as sent.
        let fields: [(name: String, value: String)]
        /// The raw body bytes.
        let bytes: [UInt8]

        /// The header fields by lowercased name (the last one wins when a name repeats).
        var headers: [String: String] {
            var headers: [String: String] = [:]
            for field in fields { headers[field.name.lowercased()] = field.value }
            return headers
        }

        /// The body decoded as UTF-8.
        var body: String { String(decoding: bytes, as: UTF8.self) }
    }

    enum Failure: Error { case socket(Int32), malformed(String) }

    /// Sends `GET path` with `Connection: close` and returns the parsed response.
    func get(_ path: String) throws -> Response {
        try exchange(Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
    }

    /// Sends `request` exactly as given and returns the parsed response.
    ///
    /// Live, on a fresh connection read until the server closes. A write that fails part-way stops writing and the
    /// response is still read (a server may answer, e.g. 413, and close before reading everything); the write's
    /// error fails the exchange only when no response came.
    func exchange(_ request: [UInt8]) throws -> Response {
        switch self {
        case .live(let port):
            let fd = try Self.connect(port: port)
            defer { close(fd) }
            let writeError = Self.transmit(request, to: fd)
            do {
                return try Self.receive(fd)
            } catch {
                if let writeError { throw Failure.socket(writeError) }
                throw error
            }
        case .inProcess(let server):
            return try Self.parse(Self.respond(to: request, server: server))
        }
    }

    /// Live only: opens a connection per request, writes every request completely, and only then reads the
    /// responses, so the server has all of them in hand at once.
    func exchangeConcurrently(_ requests: [[UInt8]]) throws -> [Response] {
        guard case .live(let port) = self else { return try requests.map(exchange) }
        let sockets = try requests.map { _ in try Self.connect(port: port) }
        defer { sockets.forEach { close($0) } }
        for (fd, request) in zip(sockets, requests) { Self.transmit(request, to: fd) }
        return try sockets.map(Self.receive)
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

    // MARK: - The live back-end: a blocking socket, one request per connection

    /// Live only: whether 127.0.0.1:`port` accepts a connection now (the connection is closed at once). For
    /// readiness waits on a process the test started, never for timing.
    static func accepts(port: Int) -> Bool {
        guard let fd = try? connect(port: port) else { return false }
        close(fd)
        return true
    }

    /// A connected socket to 127.0.0.1:port.
    private static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure.socket(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let error = errno
            close(fd)
            throw Failure.socket(error)
        }
        return fd
    }

    /// Writes all of `bytes`; on a write error it stops and returns that `errno` (the server may answer and close
    /// before reading everything, and the response is still worth reading), otherwise `nil`.
    @discardableResult
    private static func transmit(_ bytes: [UInt8], to fd: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return errno }
            offset += sent
        }
        return nil
    }

    /// Reads until the server closes and parses the response.
    private static func receive(_ fd: Int32) throws -> Response {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        return try parse(received)
    }

    /// Parses a whole response (head and body up to the end of `received`).
    private static func parse(_ received: [UInt8]) throws -> Response {
        guard let split = headEnd(in: received) else {
            throw Failure.malformed(String(decoding: received, as: UTF8.self))
        }
        let lines = String(decoding: received[..<split], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure.malformed(lines[0]) }
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields.append(
                (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return Response(status: status, fields: fields, bytes: Array(received[(split + 4)...]))
    }

    /// The offset of the first CRLF CRLF (the end of the head), if any.
    private static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4)
        where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }
}
