/// Serialises a response head into a reusable byte buffer (RFC 9112 §4, §6).
///
/// The server owns `Date`, `Server` (unless the handler set one), `Content-Length`, `Transfer-Encoding`
/// and `Connection`; handler values for those are replaced (a handler's `Connection: close` is honoured by
/// closing after the response). Field lines containing CR or LF are dropped,
/// so a handler cannot split a response.
package enum ResponseEncoder {
    /// Whether a body is sent, and the Content-Length to announce.
    package struct BodyPlan: Equatable, Sendable {
        /// Send the body bytes.
        package var sendBody: Bool
        /// The Content-Length to write, or nil to write none.
        package var contentLength: Int?
    }

    /// Decides body and Content-Length: no body for HEAD, 1xx, 204, 304 (RFC 9110 §6.4.1, §9.3.2);
    /// no Content-Length for 1xx and 204 (RFC 9110 §8.6); HEAD announces the GET's length.
    package static func plan(status: HTTPStatus, isHead: Bool, bodyCount: Int, handlerContentLength: String?)
        -> BodyPlan
    {
        if status.code < 200 || status.code == 204 { return BodyPlan(sendBody: false, contentLength: nil) }
        if status.code == 304 { return BodyPlan(sendBody: false, contentLength: nil) }
        if isHead {
            // A HEAD handler that set Content-Length itself (without a body) knows the GET's length.
            if bodyCount == 0, let v = handlerContentLength, let n = Int(v), n >= 0 {
                return BodyPlan(sendBody: false, contentLength: n)
            }
            return BodyPlan(sendBody: false, contentLength: bodyCount)
        }
        return BodyPlan(sendBody: true, contentLength: bodyCount)
    }

    /// The part of a response head that depends only on the response (status line and the handler's fields),
    /// rendered once per ``PreparedHead`` and reused for every response made from it.
    package struct Prefix: Sendable {
        /// `HTTP/1.1 200 OK\r\n` and the handler's field lines.
        package var bytes: [UInt8]
        /// The handler set `Server` itself (the engine's is then left out).
        package var hasServer: Bool
        /// The handler asked to close the connection (`Connection: close`).
        package var handlerCloses: Bool
        /// The handler's own Content-Length value (meaningful for HEAD), if any.
        package var handlerContentLength: String?
    }

    /// Renders the response-dependent part of the head. A handler's own field named `requestIDHeader` is
    /// dropped: the engine sends the request id itself, once.
    package static func prefix(status: HTTPStatus, headers: HTTPHeaders, requestIDHeader: String? = nil) -> Prefix {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        out.append(contentsOf: "HTTP/1.1 ".utf8)
        appendDecimal(status.code, to: &out)
        out.append(ByteClass.sp)
        out.append(contentsOf: status.reasonPhrase.utf8)
        out.append(contentsOf: crlf)
        var sawServer = false
        var closes = false
        var contentLength: String?
        for field in headers {
            let name = field.name
            if HTTPHeaders.namesEqual(name, "content-length") {
                if contentLength == nil { contentLength = field.value }
                continue
            }
            if HTTPHeaders.namesEqual(name, "connection") {
                if field.value.lowercased().contains("close") { closes = true }
                continue
            }
            if HTTPHeaders.namesEqual(name, "transfer-encoding") || HTTPHeaders.namesEqual(name, "date") { continue }
            if !isSafe(name) || !isSafe(field.value) || name.isEmpty { continue }
            if HTTPHeaders.namesEqual(name, "server") { sawServer = true }
            // The engine's request id replaces a handler's field of the same name (one value, never two).
            if let requestIDHeader, HTTPHeaders.namesEqual(name, requestIDHeader) { continue }
            out.append(contentsOf: name.utf8)
            out.append(contentsOf: ": ".utf8)
            out.append(contentsOf: field.value.utf8)
            out.append(contentsOf: crlf)
        }
        return Prefix(bytes: out, hasServer: sawServer, handlerCloses: closes, handlerContentLength: contentLength)
    }

    /// The rendered prefix of `response`: its ``PreparedHead``'s when it has one (and that head holds no field
    /// named `requestIDHeader`, which must be left out), else rendered now.
    package static func prefix(_ response: HTTPResponse, requestIDHeader: String?) -> Prefix {
        switch response.content {
        case .fields(let status, let headers, _):
            prefix(status: status, headers: headers, requestIDHeader: requestIDHeader)
        case .rendered(let head, _):
            prefix(head, requestIDHeader: requestIDHeader)
        case .negotiated(let prepared):
            prefix(prepared.identityResponse, requestIDHeader: requestIDHeader)
        }
    }

    /// The rendered prefix of `head`, or rendered again without its field named `requestIDHeader` if it has one.
    package static func prefix(_ head: PreparedHead, requestIDHeader: String?) -> Prefix {
        prefix(head, requestIDHeader: requestIDHeader, signature: requestIDHeader.map(HTTPHeaders.nameSignature) ?? 0)
    }

    /// ``prefix(_:requestIDHeader:)`` with the name's ``HTTPHeaders/nameSignature(_:)`` computed once by the caller.
    package static func prefix(_ head: PreparedHead, requestIDHeader: String?, signature: UInt64) -> Prefix {
        if let requestIDHeader, head.nameSignatures & signature != 0, head.headers.contains(requestIDHeader) {
            return prefix(status: head.status, headers: head.headers, requestIDHeader: requestIDHeader)
        }
        return head.rendered
    }

    /// The `Server` field line the engine adds for a server named `serverName`.
    package static func serverLine(_ serverName: String) -> [UInt8] {
        Array("Server: \(serverName)\r\n".utf8)
    }

    /// Appends the head to `out`: the prefix, `serverLine` unless the handler set `Server`, the request id,
    /// then the fields the server owns.
    package static func encodeHead(
        prefix: Prefix, serverLine: [UInt8], plan: BodyPlan, keepAlive: Bool, date: [UInt8],
        requestID: (name: String, value: RequestIdentifier)? = nil, into out: inout [UInt8]
    ) {
        out.append(contentsOf: prefix.bytes)
        if !prefix.hasServer { out.append(contentsOf: serverLine) }
        encodeHead(prefix: [], plan: plan, keepAlive: keepAlive, date: date, requestID: requestID, into: &out)
    }

    /// Appends the head to `out`: `prefix` bytes, the request id, then the fields the server owns.
    package static func encodeHead(
        prefix: [UInt8], plan: BodyPlan, keepAlive: Bool, date: [UInt8],
        requestID: (name: String, value: RequestIdentifier)? = nil, into out: inout [UInt8]
    ) {
        out.append(contentsOf: prefix)
        if let requestID {
            var name = requestID.name
            name.withUTF8 { out.append(contentsOf: $0) }
            out.append(UInt8(ascii: ":"))
            out.append(ByteClass.sp)
            requestID.value.append(to: &out)
            out.append(ByteClass.cr)
            out.append(ByteClass.lf)
        }
        out.append(contentsOf: date)
        if let length = plan.contentLength {
            append("Content-Length: ", to: &out)
            appendDecimal(length, to: &out)
            out.append(ByteClass.cr)
            out.append(ByteClass.lf)
        }
        // RFC 9112 §9.3: HTTP/1.0 needs an explicit keep-alive; close is always announced (§9.6).
        append(keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n", to: &out)
    }

    /// Appends a literal's bytes (static data: no array to retain or lazily initialise).
    @inline(__always) private static func append(_ literal: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    private static let crlf: [UInt8] = [13, 10]

    private static func isSafe(_ s: String) -> Bool {
        for b in s.utf8 where b == 13 || b == 10 || b == 0 { return false }
        return true
    }

    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        if value == 0 {
            out.append(48)
            return
        }
        // Digits are written from the end of a 20-byte buffer (Int.max has 19), then appended in one copy.
        var v = value
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buf in
            var start = 20
            while v > 0 {
                start -= 1
                buf[start] = UInt8(truncatingIfNeeded: 48 + v % 10)
                v /= 10
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start..<20]))
        }
    }
}
