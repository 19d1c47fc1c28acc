#if canImport(Glibc)
    import Glibc
#endif

/// An incremental HTTP/1.1 request decoder (RFC 9112): head first, then the body, one request at a time.
///
/// The caller owns the bytes. It passes every unconsumed byte on each call and drops the `consumed`
/// prefix afterwards; the decoder remembers how far it has scanned, so bytes arriving one at a time
/// cost O(n) overall. A thrown `HTTPParseError` means: answer its status and close.
package struct RequestDecoder: Sendable {
    /// What a call to `next(_:)` produced.
    package enum Event: Sendable {
        /// More bytes are needed.
        case needMore
        /// A complete head. Call `beginBody(maxSize:)` before the next call.
        case head(RequestHead)
        /// The complete, de-chunked body of the current request; the decoder is ready for the next head.
        case body([UInt8])
    }

    private enum ChunkPhase: Sendable {
        case sizeLine
        case data(remaining: Int)
        case dataEnd
        case trailers(count: Int)
    }

    private enum State: Sendable {
        case head
        case awaitingBodyDecision(RequestHead.Framing)
        case length(Int)
        case chunked(ChunkPhase)
    }

    /// The size limits in force.
    package var limits: HTTPParserLimits
    private var state: State = .head
    // Head scan progress, as offsets into the unconsumed bytes (stable until a head is consumed).
    private var scanned = 0
    private var lineStart = 0
    private var headStart = 0
    private var requestLineEnd = -1
    private var headerLines = 0
    // Body progress.
    private var body: [UInt8] = []
    private var bodyLimit = 0

    /// Creates a decoder with the given limits.
    package init(limits: HTTPParserLimits) { self.limits = limits }

    /// Decides how to read the body of the head just returned: throws 413 when a declared length is over
    /// `maxSize`, before any of it is read (RFC 9110 §15.5.14).
    package mutating func beginBody(maxSize: Int) throws(HTTPParseError) {
        guard case .awaitingBodyDecision(let framing) = state else {
            preconditionFailure("beginBody called without a pending head")
        }
        body = []
        bodyLimit = maxSize
        switch framing {
        case .none: state = .length(0)
        case .length(let n):
            if n > maxSize { throw HTTPParseError(.contentTooLarge, "body larger than \(maxSize) bytes") }
            state = .length(n)
        case .chunked: state = .chunked(.sizeLine)
        }
    }

    /// After ``beginBody(maxSize:)`` for a head without a body: true, and the decoder is ready for the next head
    /// (what the next call to ``next(_:)`` would do, returning an empty body); false when there is a body to read.
    package mutating func takeEmptyBody() -> Bool {
        guard case .length(0) = state else { return false }
        state = .head
        return true
    }

    /// Decodes as much as the bytes allow. `consumed` bytes must be dropped by the caller.
    package mutating func next(_ bytes: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) -> (Event, consumed: Int) {
        switch state {
        case .head:
            return try scanHead(bytes)
        case .awaitingBodyDecision:
            preconditionFailure("call beginBody(maxSize:) after a head")
        case .length(let n):
            guard bytes.count >= n else { return (.needMore, 0) }
            let result = n == 0 ? [] : Array(UnsafeBufferPointer(rebasing: bytes[0..<n]))
            state = .head
            return (.body(result), n)
        case .chunked(let phase):
            return try decodeChunked(bytes, phase: phase)
        }
    }

    // MARK: Head

    private mutating func scanHead(_ bytes: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) -> (Event, consumed: Int)
    {
        var i = scanned
        let count = bytes.count
        while i < count {
            guard let lf = Self.findLF(bytes, from: i) else {
                i = count
                break
            }
            i = lf
            // Size limits first, with the same arithmetic as the checks on an incomplete line below: the answer
            // must not depend on whether the line's end arrived in the same read (found by the fuzzer).
            try checkLimits(lineBytes: i - lineStart, headerBytes: i + 1 - requestLineEnd)
            // RFC 9112 §2.2: a bare LF MAY be accepted; we reject it (strict, like llhttp), and every line must end in CRLF.
            guard i > lineStart, bytes[i - 1] == ByteClass.cr else { throw .bad("line not terminated by CRLF") }
            let lineLength = i - 1 - lineStart
            if requestLineEnd < 0 {
                if lineLength == 0 {
                    // RFC 9112 §2.2: ignore at least one empty line before the request line; allow a few.
                    guard i + 1 <= 8 else { throw .bad("too many empty lines before the request line") }
                    lineStart = i + 1
                    headStart = i + 1
                    i += 1
                    continue
                }
                requestLineEnd = i + 1
            } else if lineLength == 0 {
                let headEnd = i + 1
                let head = try Self.parseHead(
                    UnsafeBufferPointer(rebasing: bytes[headStart..<headEnd]), limits: limits)
                resetHeadScan()
                state = .awaitingBodyDecision(head.framing)
                return (.head(head), headEnd)
            } else {
                headerLines += 1
                if headerLines > limits.maxHeaderCount {
                    throw HTTPParseError(
                        .requestHeaderFieldsTooLarge, "more than \(limits.maxHeaderCount) header fields")
                }
            }
            lineStart = i + 1
            i += 1
        }
        scanned = i
        // Enforce limits on the incomplete line too, so an endless line is cut off without buffering it.
        try checkLimits(lineBytes: count - lineStart, headerBytes: count - requestLineEnd)
        return (.needMore, 0)
    }

    /// The size limits on the current line (`lineBytes` before its LF, CR included) and, once the request
    /// line is done, on the header block so far (`headerBytes`).
    private func checkLimits(lineBytes: Int, headerBytes: Int) throws(HTTPParseError) {
        if requestLineEnd < 0 {
            // RFC 9112 §3: a request line longer than we accept → 414.
            if lineBytes > limits.maxRequestLineLength + 1 {
                throw HTTPParseError(.uriTooLong, "request line longer than \(limits.maxRequestLineLength) bytes")
            }
        } else {
            // RFC 6585 §5: the header section as a whole, or one field line, too large → 431.
            if headerBytes > limits.maxHeaderBytes {
                throw HTTPParseError(
                    .requestHeaderFieldsTooLarge, "header block larger than \(limits.maxHeaderBytes) bytes")
            }
            if lineBytes > limits.maxHeaderLineLength + 1 {
                throw HTTPParseError(
                    .requestHeaderFieldsTooLarge, "header line longer than \(limits.maxHeaderLineLength) bytes")
            }
        }
    }

    private mutating func resetHeadScan() {
        scanned = 0
        lineStart = 0
        headStart = 0
        requestLineEnd = -1
        headerLines = 0
    }

    /// Parses a complete head (request line and field lines, each ending in CRLF, then an empty line), in named
    /// steps: the request line, each field line (recording the framing fields), the framing, then the target.
    /// Errors keep the steps' order, so a head with several faults is refused for the first.
    package static func parseHead(_ head: UnsafeBufferPointer<UInt8>, limits: HTTPParserLimits) throws(HTTPParseError)
        -> RequestHead
    {
        // Lines are walked in place (no array of line ranges: this runs for every request).
        guard let firstLF = findLF(head, from: 0), firstLF >= 1 else { throw .bad("incomplete head") }
        let requestLine = try parseRequestLine(UnsafeBufferPointer(rebasing: head[0..<(firstLF - 1)]))

        // Header fields (RFC 9112 §5).
        // Room for a typical request's fields (a browser sends about ten), so the list is not grown line by line.
        var headers = HTTPHeaders(capacity: 12)
        var fields = FramingFields()
        var lineStart = firstLF + 1
        while true {
            // Each field line ends in CRLF (checked by the scan); the empty line ends the head.
            guard let lf = findLF(head, from: lineStart), lf > lineStart else { throw .bad("incomplete head") }
            if lf - 1 == lineStart { break }
            let line = UnsafeBufferPointer(rebasing: head[lineStart..<(lf - 1)])
            lineStart = lf + 1
            try parseHeaderLine(line, minor: requestLine.minor, into: &headers, fields: &fields)
        }

        let framing = try fields.framing(minor: requestLine.minor)
        let target = try parseTarget(requestLine)
        let method = Self.method(requestLine.method)
        // RFC 9112 §9.3: HTTP/1.1 defaults to persistent; HTTP/1.0 only with keep-alive.
        let minor = requestLine.minor
        let keepAlive = minor == 1 ? !fields.connectionClose : (fields.connectionKeepAlive && !fields.connectionClose)
        return RequestHead(
            method: method, path: target.path, rawQuery: target.rawQuery,
            isAsterisk: target.isAsterisk, minorVersion: minor, headers: headers, framing: framing,
            keepAlive: keepAlive, expectsContinue: fields.expectsContinue && framing != .none,
            acceptEncoding: fields.acceptEncoding?.isEmpty == false ? fields.acceptEncoding : nil,
            ifNoneMatch: fields.ifNoneMatch?.isEmpty == false ? fields.ifNoneMatch : nil)
    }

    /// The method for its token: the common ones without building a string (tokens are case-sensitive).
    private static func method(_ bytes: UnsafeBufferPointer<UInt8>) -> HTTPMethod {
        if ByteClass.equals(bytes, "GET") { return .get }
        if ByteClass.equals(bytes, "HEAD") { return .head }
        if ByteClass.equals(bytes, "POST") { return .post }
        return HTTPMethod(rawValue: String(decoding: bytes, as: UTF8.self))
    }

    /// The parts of a request line, as bytes of the head.
    private struct RequestLine {
        var method: UnsafeBufferPointer<UInt8>
        var target: UnsafeBufferPointer<UInt8>
        /// 0 for HTTP/1.0, 1 for HTTP/1.1.
        var minor: Int
        /// The offset of the target's first `?`, or its length.
        var queryStart: Int
        /// The target holds a `#`.
        var hasFragment: Bool
    }

    /// Step 1: the request line (without its CRLF).
    private static func parseRequestLine(_ requestLine: UnsafeBufferPointer<UInt8>) throws(HTTPParseError)
        -> RequestLine
    {
        // RFC 9112 §3: request-line = method SP request-target SP HTTP-version, single spaces.
        var firstSpace = -1
        for i in 0..<requestLine.count where requestLine[i] == ByteClass.sp {
            firstSpace = i
            break
        }
        guard firstSpace > 0 else { throw .bad("malformed request line") }
        // One pass over the target: its end, whether every byte is allowed, its first `?` and any `#` (the checks
        // themselves keep their order below).
        var secondSpace = -1
        var targetIsValid = true
        var question = -1
        var hasFragment = false
        var i = firstSpace + 1
        while i < requestLine.count {
            let b = requestLine[i]
            // 0x40–0x7E: allowed target bytes that are none of space, `?` and `#` (letters, most punctuation).
            if b &- 0x40 < 0x3F {
                i += 1
                continue
            }
            if b == ByteClass.sp {
                secondSpace = i
                break
            }
            if !ByteClass.isTargetByte(b) {
                targetIsValid = false
            } else if b == UInt8(ascii: "?") {
                if question < 0 { question = i - firstSpace - 1 }
            } else if b == UInt8(ascii: "#") {
                hasFragment = true
            }
            i += 1
        }
        guard secondSpace > firstSpace + 1 else { throw .bad("malformed request line") }
        let methodBytes = UnsafeBufferPointer(rebasing: requestLine[0..<firstSpace])
        let target = UnsafeBufferPointer(rebasing: requestLine[(firstSpace + 1)..<secondSpace])
        let version = UnsafeBufferPointer(rebasing: requestLine[(secondSpace + 1)...])

        // RFC 9110 §9.1: the method is a token.
        for b in methodBytes where !ByteClass.isTchar(b) { throw .bad("invalid method") }
        // RFC 9112 §3.2: the target has no whitespace or control characters.
        guard targetIsValid else { throw .bad("invalid character in request target") }

        // RFC 9112 §2.3: HTTP-version = "HTTP/" DIGIT "." DIGIT; other versions → 505 (RFC 9110 §15.6.6).
        guard version.count == 8, version[0] == UInt8(ascii: "H"), version[1] == UInt8(ascii: "T"),
            version[2] == UInt8(ascii: "T"), version[3] == UInt8(ascii: "P"), version[4] == UInt8(ascii: "/"),
            version[6] == UInt8(ascii: "."), (48...57).contains(version[5]), (48...57).contains(version[7])
        else { throw .bad("malformed HTTP version") }
        guard version[5] == UInt8(ascii: "1"), version[7] == UInt8(ascii: "0") || version[7] == UInt8(ascii: "1") else {
            throw HTTPParseError(.httpVersionNotSupported, "only HTTP/1.0 and HTTP/1.1 are supported")
        }
        return RequestLine(
            method: methodBytes, target: target, minor: Int(version[7] - 48),
            queryStart: question < 0 ? target.count : question, hasFragment: hasFragment)
    }

    /// What the field lines say about framing and persistence, gathered line by line.
    private struct FramingFields {
        var contentLength: Int?
        var contentLengthFields = 0
        var transferCodings: [String] = []
        var sawTransferEncoding = false
        var hostCount = 0
        var connectionClose = false
        var connectionKeepAlive = false
        var expectsContinue = false
        var unknownExpectation = false
        /// Every `Accept-Encoding` value so far, joined with commas (RFC 9110 §5.3), as
        /// ``HTTPHeaders/combinedValue(for:)`` would give it: read here once, for negotiating prepared responses.
        var acceptEncoding: String?
        /// Every `If-None-Match` value so far, joined likewise.
        var ifNoneMatch: String?

        /// Records one field, rejecting framing fields that are malformed on their own.
        mutating func record(
            name nameBytes: UnsafeBufferPointer<UInt8>, value valueBytes: UnsafeBufferPointer<UInt8>,
            valueString: String, minor: Int
        ) throws(HTTPParseError) {
            switch nameBytes.count {
            case 4 where ByteClass.equalsLowercase(nameBytes, "host"):
                hostCount += 1
            case 14 where ByteClass.equalsLowercase(nameBytes, "content-length"):
                // RFC 9112 §6.3 / RFC 9110 §8.6: Content-Length = 1*DIGIT. A list (`4, 4`), a sign, or a second
                // field is refused outright (reference policy, like llhttp and nginx).
                contentLengthFields += 1
                guard contentLengthFields == 1 else { throw .bad("repeated Content-Length") }
                guard valueBytes.count >= 1, valueBytes.count <= 18 else { throw .bad("invalid Content-Length") }
                var n = 0
                for b in valueBytes {
                    guard b >= 48 && b <= 57 else { throw .bad("invalid Content-Length") }
                    n = n * 10 + Int(b - 48)
                }
                contentLength = n
            case 17 where ByteClass.equalsLowercase(nameBytes, "transfer-encoding"):
                sawTransferEncoding = true
                for coding in valueString.split(separator: ",", omittingEmptySubsequences: false) {
                    let trimmed = coding.trimmingOWS().lowercased()
                    guard !trimmed.isEmpty else { throw .bad("empty transfer coding") }
                    transferCodings.append(trimmed)
                }
            case 10 where ByteClass.equalsLowercase(nameBytes, "connection"):
                // RFC 9110 §7.6.1: a comma-separated list of options, case-insensitive.
                for option in valueString.split(separator: ",") {
                    let o = option.trimmingOWS().lowercased()
                    if o == "close" { connectionClose = true } else if o == "keep-alive" { connectionKeepAlive = true }
                }
            case 15 where ByteClass.equalsLowercase(nameBytes, "accept-encoding"):
                acceptEncoding = acceptEncoding.map { $0 + ", " + valueString } ?? valueString
            case 13 where ByteClass.equalsLowercase(nameBytes, "if-none-match"):
                ifNoneMatch = ifNoneMatch.map { $0 + ", " + valueString } ?? valueString
            case 6 where ByteClass.equalsLowercase(nameBytes, "expect"):
                // RFC 9110 §10.1.1: only 100-continue is defined; ignored on HTTP/1.0.
                if valueString.trimmingOWS().lowercased() == "100-continue" {
                    expectsContinue = minor == 1
                } else {
                    unknownExpectation = true
                }
            default:
                break
            }
        }

        /// Step 3: the body's framing from all the fields together (and the checks that need all of them).
        func framing(minor: Int) throws(HTTPParseError) -> RequestHead.Framing {
            // RFC 9112 §3.2: an HTTP/1.1 request without Host, or with more than one, → 400.
            if minor == 1 && hostCount != 1 {
                throw .bad(hostCount == 0 ? "missing Host" : "repeated Host")
            }
            if hostCount > 1 { throw .bad("repeated Host") }

            var framing = RequestHead.Framing.none
            if sawTransferEncoding {
                // RFC 9112 §6.1: Content-Length with Transfer-Encoding MAY be rejected; we do (smuggling), and close.
                if contentLength != nil { throw .bad("both Content-Length and Transfer-Encoding") }
                // RFC 9112 §6.1: Transfer-Encoding in an HTTP/1.0 message means faulty framing.
                if minor == 0 { throw .bad("Transfer-Encoding in an HTTP/1.0 request") }
                let known: Set<String> = ["chunked", "gzip", "x-gzip", "deflate", "compress", "x-compress"]
                // RFC 9112 §6.1: a transfer coding the server does not understand → 501.
                if transferCodings.contains(where: { !known.contains($0) }) {
                    throw HTTPParseError(.notImplemented, "unknown transfer coding")
                }
                // RFC 9112 §6.3: chunked must be the final coding, applied once, else 400 and close.
                let chunkedCount = transferCodings.filter { $0 == "chunked" }.count
                guard transferCodings.last == "chunked", chunkedCount == 1 else {
                    throw .bad("chunked is not the final transfer coding")
                }
                // We decode no content codings in transfer: gzip, chunked is understood but not implemented.
                guard transferCodings.count == 1 else {
                    throw HTTPParseError(.notImplemented, "unsupported transfer coding")
                }
                framing = .chunked
            } else if let contentLength, contentLength > 0 {
                framing = .length(contentLength)
            }
            if unknownExpectation {
                throw HTTPParseError(.expectationFailed, "unsupported expectation")
            }
            return framing
        }
    }

    /// Step 2: one field line (without its CRLF), added to `headers` and recorded in `fields`.
    private static func parseHeaderLine(
        _ line: UnsafeBufferPointer<UInt8>, minor: Int, into headers: inout HTTPHeaders, fields: inout FramingFields
    ) throws(HTTPParseError) {
        let (name, value) = try parseFieldLine(line)
        let nameBytes = UnsafeBufferPointer(rebasing: line[0..<name])
        let valueBytes = UnsafeBufferPointer(rebasing: line[value])
        let valueString = String(decoding: valueBytes, as: UTF8.self)
        headers.add(
            knownName(nameBytes) ?? String(decoding: nameBytes, as: UTF8.self), valueString,
            signature: HTTPHeaders.nameSignature(bytes: nameBytes))
        try fields.record(name: nameBytes, value: valueBytes, valueString: valueString, minor: minor)
    }

    /// Field names as clients usually spell them (canonical or lower case), returned as string literals when sent
    /// exactly so (a name keeps the sender's spelling) instead of building a new string for each field.
    private static func knownName(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        switch bytes.count {
        case 4:
            if ByteClass.equals(bytes, "Host") { return "Host" }
            if ByteClass.equals(bytes, "host") { return "host" }
        case 6:
            if ByteClass.equals(bytes, "Accept") { return "Accept" }
            if ByteClass.equals(bytes, "Origin") { return "Origin" }
            if ByteClass.equals(bytes, "Cookie") { return "Cookie" }
            if ByteClass.equals(bytes, "accept") { return "accept" }
            if ByteClass.equals(bytes, "origin") { return "origin" }
            if ByteClass.equals(bytes, "cookie") { return "cookie" }
        case 7:
            if ByteClass.equals(bytes, "Referer") { return "Referer" }
            if ByteClass.equals(bytes, "referer") { return "referer" }
        case 10:
            if ByteClass.equals(bytes, "User-Agent") { return "User-Agent" }
            if ByteClass.equals(bytes, "Connection") { return "Connection" }
            if ByteClass.equals(bytes, "user-agent") { return "user-agent" }
            if ByteClass.equals(bytes, "connection") { return "connection" }
        case 12:
            if ByteClass.equals(bytes, "Content-Type") { return "Content-Type" }
            if ByteClass.equals(bytes, "X-Request-ID") { return "X-Request-ID" }
            if ByteClass.equals(bytes, "content-type") { return "content-type" }
            if ByteClass.equals(bytes, "x-request-id") { return "x-request-id" }
        case 13:
            if ByteClass.equals(bytes, "If-None-Match") { return "If-None-Match" }
            if ByteClass.equals(bytes, "Authorization") { return "Authorization" }
            if ByteClass.equals(bytes, "Cache-Control") { return "Cache-Control" }
            if ByteClass.equals(bytes, "if-none-match") { return "if-none-match" }
            if ByteClass.equals(bytes, "authorization") { return "authorization" }
            if ByteClass.equals(bytes, "cache-control") { return "cache-control" }
        case 14:
            if ByteClass.equals(bytes, "Content-Length") { return "Content-Length" }
            if ByteClass.equals(bytes, "content-length") { return "content-length" }
        case 15:
            if ByteClass.equals(bytes, "Accept-Encoding") { return "Accept-Encoding" }
            if ByteClass.equals(bytes, "Accept-Language") { return "Accept-Language" }
            if ByteClass.equals(bytes, "accept-encoding") { return "accept-encoding" }
            if ByteClass.equals(bytes, "accept-language") { return "accept-language" }
        default: break
        }
        return nil
    }

    /// Step 4: the request target's path and query (RFC 9112 §3.2).
    private static func parseTarget(_ requestLine: RequestLine)
        throws(HTTPParseError) -> (
            isAsterisk: Bool, path: String, rawQuery: String
        )
    {
        let target = requestLine.target
        let methodBytes = requestLine.method
        var isAsterisk = false
        var pathBytes = target
        if target.count == 1 && target[0] == UInt8(ascii: "*") {
            // RFC 9112 §3.2.4: asterisk-form only for OPTIONS.
            guard methodBytes.count == 7, ByteClass.equalsLowercase(methodBytes, "options"),
                methodBytes[0] == UInt8(ascii: "O")
            else { throw .bad("asterisk-form target outside OPTIONS") }
            isAsterisk = true
        } else if target[0] != UInt8(ascii: "/") {
            // RFC 9112 §3.2.2: a server MUST accept absolute-form; we keep its path and query.
            pathBytes = try absoluteFormPath(target)
        }
        var queryStart = requestLine.queryStart
        var hasFragment = requestLine.hasFragment
        if pathBytes.baseAddress != target.baseAddress || pathBytes.count != target.count {
            // Absolute form: the path and query are a part of the target.
            queryStart = pathBytes.count
            for i in 0..<pathBytes.count where pathBytes[i] == UInt8(ascii: "?") {
                queryStart = i
                break
            }
            hasFragment = pathBytes.contains(UInt8(ascii: "#"))
        }
        // RFC 9112 §3.2.1: a fragment is never sent in a request target.
        if hasFragment { throw .bad("fragment in request target") }
        let rawPath = UnsafeBufferPointer(rebasing: pathBytes[0..<queryStart])
        let rawQueryBytes =
            queryStart < pathBytes.count
            ? UnsafeBufferPointer(rebasing: pathBytes[(queryStart + 1)...])
            : UnsafeBufferPointer(rebasing: pathBytes[0..<0])
        let path: String
        if isAsterisk {
            path = "*"
        } else {
            // RFC 3986 §2.1: percent-decoding; `+` stays `+` in a path.
            guard let decoded = PercentDecoding.decode(rawPath, plusAsSpace: false) else {
                throw .bad("invalid percent-encoding in path")
            }
            path = decoded
        }
        // Checked here, decoded when a handler reads it (``HTTPRequest/query``).
        guard PercentDecoding.isValidQuery(rawQueryBytes) else {
            throw .bad("invalid percent-encoding in query")
        }
        return (isAsterisk, path, String(decoding: rawQueryBytes, as: UTF8.self))
    }

    /// Splits a field line into the name's length and the value's range (OWS trimmed), enforcing RFC 9112 §5.
    static func parseFieldLine(_ line: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) -> (
        name: Int, value: Range<Int>
    ) {
        // RFC 9112 §5.2: obs-fold (a line starting with SP or HTAB) → 400.
        guard let first = line.first, first != ByteClass.sp, first != ByteClass.htab else {
            throw .bad("obsolete line folding")
        }
        var colon = -1
        for i in 0..<line.count {
            let b = line[i]
            if b == ByteClass.colon {
                colon = i
                break
            }
            // RFC 9112 §5.1: no whitespace between the field name and the colon; names are tokens (RFC 9110 §5.1).
            guard ByteClass.isTchar(b) else { throw .bad("invalid character in field name") }
        }
        guard colon > 0 else { throw .bad("field line without a name and colon") }
        var start = colon + 1
        var end = line.count
        while start < end, line[start] == ByteClass.sp || line[start] == ByteClass.htab { start += 1 }
        while end > start, line[end - 1] == ByteClass.sp || line[end - 1] == ByteClass.htab { end -= 1 }
        // RFC 9110 §5.5 / RFC 9112 §2.2: no CTLs (NUL, bare CR, DEL...) in field values.
        for i in start..<end where !ByteClass.isFieldValueByte(line[i]) {
            throw .bad("control character in field value")
        }
        return (colon, start..<end)
    }

    private static func absoluteFormPath(_ target: UnsafeBufferPointer<UInt8>) throws(HTTPParseError)
        -> UnsafeBufferPointer<UInt8>
    {
        // scheme "://" authority [path-abempty] ["?" query]
        var i = 0
        while i < target.count, target[i] != UInt8(ascii: ":") {
            let b = ByteClass.lower(target[i])
            guard (b >= 97 && b <= 122) || (i > 0 && ((b >= 48 && b <= 57) || b == 43 || b == 45 || b == 46)) else {
                throw .bad("invalid request target")
            }
            i += 1
        }
        guard i > 0, i + 2 < target.count, target[i + 1] == UInt8(ascii: "/"), target[i + 2] == UInt8(ascii: "/") else {
            throw .bad("invalid request target")
        }
        var j = i + 3
        while j < target.count, target[j] != UInt8(ascii: "/"), target[j] != UInt8(ascii: "?") { j += 1 }
        guard j > i + 3 else { throw .bad("absolute-form target without authority") }
        if j == target.count { return UnsafeBufferPointer(start: rootPath.utf8Start, count: 1) }
        if target[j] == UInt8(ascii: "?") {
            throw .bad("absolute-form target with a query but no path")
        }
        return UnsafeBufferPointer(rebasing: target[j...])
    }

    private static let rootPath: StaticString = "/"

    // MARK: Chunked (RFC 9112 §7.1)

    private mutating func decodeChunked(_ bytes: UnsafeBufferPointer<UInt8>, phase startPhase: ChunkPhase)
        throws(HTTPParseError) -> (Event, consumed: Int)
    {
        var pos = 0
        var phase = startPhase
        while true {
            switch phase {
            case .sizeLine:
                guard let lf = Self.findLF(bytes, from: pos) else {
                    if bytes.count - pos > limits.maxHeaderLineLength { throw .bad("chunk size line too long") }
                    state = .chunked(phase)
                    return (.needMore, pos)
                }
                // The length limit first, as for an incomplete line above (the answer must not depend on reads).
                if lf - pos > limits.maxHeaderLineLength { throw .bad("chunk size line too long") }
                guard lf > pos, bytes[lf - 1] == ByteClass.cr else {
                    throw .bad("chunk size line not terminated by CRLF")
                }
                let size = try Self.parseChunkSize(UnsafeBufferPointer(rebasing: bytes[pos..<(lf - 1)]))
                pos = lf + 1
                if size == 0 {
                    phase = .trailers(count: 0)
                } else {
                    guard size <= UInt64(bodyLimit - body.count) else {
                        throw HTTPParseError(.contentTooLarge, "body larger than \(bodyLimit) bytes")
                    }
                    body.reserveCapacity(body.count + Int(size))
                    phase = .data(remaining: Int(size))
                }
            case .data(let remaining):
                let available = min(remaining, bytes.count - pos)
                if available > 0 {
                    body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[pos..<(pos + available)]))
                    pos += available
                }
                if available < remaining {
                    state = .chunked(.data(remaining: remaining - available))
                    return (.needMore, pos)
                }
                phase = .dataEnd
            case .dataEnd:
                // RFC 9112 §7.1: chunk-data is followed by CRLF; anything else is a framing error.
                guard bytes.count - pos >= 2 else {
                    if bytes.count - pos == 1 && bytes[pos] != ByteClass.cr {
                        throw .bad("chunk data not followed by CRLF")
                    }
                    state = .chunked(phase)
                    return (.needMore, pos)
                }
                guard bytes[pos] == ByteClass.cr, bytes[pos + 1] == ByteClass.lf else {
                    throw .bad("chunk data not followed by CRLF")
                }
                pos += 2
                phase = .sizeLine
            case .trailers(let count):
                guard let lf = Self.findLF(bytes, from: pos) else {
                    if bytes.count - pos > limits.maxHeaderLineLength {
                        throw HTTPParseError(.requestHeaderFieldsTooLarge, "trailer line too long")
                    }
                    state = .chunked(phase)
                    return (.needMore, pos)
                }
                // The length limit first, as for an incomplete line above (the answer must not depend on reads).
                if lf - pos > limits.maxHeaderLineLength {
                    throw HTTPParseError(.requestHeaderFieldsTooLarge, "trailer line too long")
                }
                guard lf > pos, bytes[lf - 1] == ByteClass.cr else { throw .bad("trailer line not terminated by CRLF") }
                if lf - 1 == pos {
                    pos = lf + 1
                    state = .head
                    let result = body
                    body = []
                    return (.body(result), pos)
                }
                // RFC 9112 §7.1.2: trailer fields have field-line syntax; we validate and discard them
                // (RFC 9110 §6.5.1: never merge trailers into the header section without knowing they are safe).
                _ = try Self.parseFieldLine(UnsafeBufferPointer(rebasing: bytes[pos..<(lf - 1)]))
                guard count + 1 <= limits.maxHeaderCount else {
                    throw HTTPParseError(.requestHeaderFieldsTooLarge, "too many trailer fields")
                }
                pos = lf + 1
                phase = .trailers(count: count + 1)
            }
        }
    }

    /// The index of the first LF at or after `from` (libc's vectorised `memchr`: a head is scanned for line ends
    /// twice per request).
    private static func findLF(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard from < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + from, Int32(ByteClass.lf), bytes.count - from)
        else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    /// chunk-size = 1*HEXDIG (at most 16 digits, no sign, no `0x`), then optional chunk extensions.
    static func parseChunkSize(_ line: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) -> UInt64 {
        var size: UInt64 = 0
        var digits = 0
        var i = 0
        while i < line.count, let v = ByteClass.hexValue(line[i]) {
            digits += 1
            guard digits <= 16 else { throw .bad("chunk size too long") }
            size = size << 4 | UInt64(v)
            i += 1
        }
        guard digits > 0 else { throw .bad("invalid chunk size") }
        if i < line.count {
            // RFC 9112 §7.1.1: chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] ).
            var j = i
            while j < line.count, line[j] == ByteClass.sp || line[j] == ByteClass.htab { j += 1 }
            guard j < line.count, line[j] == UInt8(ascii: ";") else { throw .bad("invalid chunk size") }
            for k in j..<line.count where !ByteClass.isFieldValueByte(line[k]) { throw .bad("invalid chunk extension") }
        }
        return size
    }
}

extension Substring {
    /// The substring without leading and trailing SP / HTAB (OWS, RFC 9110 §5.6.3).
    func trimmingOWS() -> Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return s
    }
}

extension String {
    func trimmingOWS() -> Substring { self[...].trimmingOWS() }
}
