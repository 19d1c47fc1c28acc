import PreludeHTTP
import Testing

/// Raw-byte parser vectors, each fed whole, one byte at a time, and in 7-byte pieces.
@Suite struct RequestDecoderTests {
    enum Outcome: Equatable, CustomStringConvertible {
        case parsed(String)  // "METHOD path body"
        case failed(Int)

        var description: String {
            switch self {
            case .parsed(let s): "parsed(\(s))"
            case .failed(let c): "failed(\(c))"
            }
        }
    }

    static let limits = HTTPParserLimits(
        maxRequestLineLength: 64, maxHeaderLineLength: 64, maxHeaderBytes: 256, maxHeaderCount: 5)

    /// Feeds `raw` in pieces of `piece` bytes and returns every request or the first error.
    static func decode(_ raw: String, piece: Int, maxBody: Int = 16) -> [Outcome] {
        decode(Array(raw.utf8), piece: piece, maxBody: maxBody)
    }

    /// Feeds `bytes` in pieces of `piece` bytes and returns every request or the first error.
    static func decode(_ bytes: [UInt8], piece: Int, maxBody: Int = 16) -> [Outcome] {
        var decoder = RequestDecoder(limits: limits)
        var buffer: [UInt8] = []
        var outcomes: [Outcome] = []
        var pendingHead: RequestHead?
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + piece)
            buffer.append(contentsOf: bytes[offset..<end])
            offset = end
            while true {
                do {
                    let (event, consumed) = try buffer.withUnsafeBufferPointer { b throws(HTTPParseError) in
                        try decoder.next(b)
                    }
                    buffer.removeFirst(consumed)
                    switch event {
                    case .needMore:
                        break
                    case .head(let head):
                        pendingHead = head
                        try decoder.beginBody(maxSize: maxBody)
                        continue
                    case .body(let body):
                        let h = pendingHead!
                        outcomes.append(.parsed("\(h.method) \(h.path) \(String(decoding: body, as: UTF8.self))"))
                        continue
                    }
                } catch {
                    outcomes.append(.failed(error.status.code))
                    return outcomes
                }
                break
            }
        }
        return outcomes
    }

    struct Vector: CustomTestStringConvertible, Sendable {
        let name: String
        let raw: String
        let expected: [Outcome]
        var testDescription: String { name }
    }

    static func ok(_ name: String, _ raw: String, _ parsed: String...) -> Vector {
        Vector(name: name, raw: raw, expected: parsed.map { .parsed($0) })
    }
    static func fail(_ name: String, _ raw: String, _ status: Int) -> Vector {
        Vector(name: name, raw: raw, expected: [.failed(status)])
    }

    static let vectors: [Vector] = [
        // Valid requests (RFC 9112 §3, §5, §6, §7).
        ok("simple GET", "GET / HTTP/1.1\r\nHost: a\r\n\r\n", "GET / "),
        ok("HTTP/1.0 without Host", "GET /x HTTP/1.0\r\n\r\n", "GET /x "),
        ok("leading empty line ignored (§2.2)", "\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", "GET / "),
        ok("Content-Length body", "POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello", "POST /p hello"),
        ok("Content-Length zero", "POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n", "POST /p "),
        ok(
            "chunked body",
            "POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n3\r\n123\r\n0\r\n\r\n",
            "POST /p hello123"),
        ok(
            "chunked with extension and trailer",
            "POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\n5;ext=1\r\nhello\r\n0\r\nX-Sum: 1\r\n\r\n",
            "POST /p hello"),
        ok(
            "chunk size in upper-case hex",
            "POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n",
            "POST /p 0123456789"),
        ok(
            "pipelined requests",
            "GET /1 HTTP/1.1\r\nHost: a\r\n\r\nPOST /2 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhiGET /3 HTTP/1.1\r\nHost: a\r\n\r\n",
            "GET /1 ", "POST /2 hi", "GET /3 "),
        ok("percent-decoded path", "GET /a%20b/%C3%A9 HTTP/1.1\r\nHost: a\r\n\r\n", "GET /a b/é "),
        ok(
            "absolute-form target (§3.2.2)", "GET http://a.example/x?y=1 HTTP/1.1\r\nHost: a.example\r\n\r\n", "GET /x "
        ),
        ok("OPTIONS asterisk-form (§3.2.4)", "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n", "OPTIONS * "),
        ok("tab and spaces around value", "GET / HTTP/1.1\r\nHost:\t a \t\r\n\r\n", "GET / "),
        ok("unknown method parses (routing answers 501)", "BREW /pot HTTP/1.1\r\nHost: a\r\n\r\n", "BREW /pot "),
        ok("obs-text in a value", "GET / HTTP/1.1\r\nHost: a\r\nX: caf\u{e9}\r\n\r\n", "GET / "),

        // Request line (RFC 9112 §3).
        fail("bare LF line endings (§2.2, strict)", "GET / HTTP/1.1\nHost: a\n\n", 400),
        fail("bare CR in request line", "GET /\r HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        fail("double space in request line", "GET  / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        fail("missing version (HTTP/0.9 style)", "GET /\r\n\r\n", 400),
        fail("lower-case version", "GET / http/1.1\r\nHost: a\r\n\r\n", 400),
        fail("HTTP/2.0 → 505", "GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505),
        fail("HTTP/1.2 → 505", "GET / HTTP/1.2\r\nHost: a\r\n\r\n", 505),
        fail("HTTP/0.9 → 505", "GET / HTTP/0.9\r\n\r\n", 505),
        fail("invalid method character", "GE(T / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        fail("control character in target", "GET /a\u{01}b HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        fail("non-ASCII byte in target", "GET /\u{e9} HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        fail(
            "request line too long → 414", "GET /" + String(repeating: "a", count: 80) + " HTTP/1.1\r\nHost: a\r\n\r\n",
            414),
        fail("endless request line → 414 before its end", "GET /" + String(repeating: "a", count: 200), 414),
        fail("malformed percent escape", "GET /a%2 HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        fail("percent-encoded NUL", "GET /a%00 HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        fail("invalid UTF-8 after decoding", "GET /a%FF HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        fail("malformed query escape", "GET /a?x=%G1 HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        fail("fragment in target", "GET /a#b HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        fail("asterisk-form outside OPTIONS", "GET * HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        fail("relative target", "GET a/b HTTP/1.1\r\nHost: a\r\n\r\n", 400),

        // Header fields (RFC 9112 §5, RFC 9110 §5).
        fail("obs-fold (§5.2)", "GET / HTTP/1.1\r\nHost: a\r\nX: 1\r\n 2\r\n\r\n", 400),
        fail("whitespace before colon (§5.1)", "GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400),
        fail("NUL in a value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\u{0}b\r\n\r\n", 400),
        fail("bare CR in a value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n", 400),
        fail("DEL in a value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\u{7f}\r\n\r\n", 400),
        fail("field without colon", "GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n", 400),
        fail("empty field name", "GET / HTTP/1.1\r\nHost: a\r\n: v\r\n\r\n", 400),
        fail("missing Host on 1.1 (§3.2)", "GET / HTTP/1.1\r\nX: a\r\n\r\n", 400),
        fail("repeated Host (§3.2)", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        fail("repeated Host on 1.0", "GET / HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n", 400),
        fail(
            "header line too long → 431",
            "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "v", count: 80) + "\r\n\r\n", 431),
        fail("too many fields → 431", "GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 1\r\nC: 1\r\nD: 1\r\nE: 1\r\n\r\n", 431),
        fail(
            "header block too large → 431",
            "GET / HTTP/1.1\r\nHost: a\r\n"
                + String(repeating: "X-Long-Name: " + String(repeating: "v", count: 40) + "\r\n", count: 5) + "\r\n",
            431),
        fail(
            "unknown expectation → 417", "POST / HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\nContent-Length: 1\r\n\r\nx",
            417),

        // Framing and smuggling (RFC 9112 §6).
        fail(
            "CL + TE (§6.1)",
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
        fail(
            "TE + CL (§6.1)",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n0\r\n\r\n", 400),
        fail(
            "duplicate CL, same value",
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nContent-Length: 4\r\n\r\nabcd", 400),
        fail(
            "duplicate CL, different values",
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nContent-Length: 5\r\n\r\nabcd", 400),
        fail("CL list 4, 4", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4, 4\r\n\r\nabcd", 400),
        fail("CL with plus sign", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +4\r\n\r\nabcd", 400),
        fail("CL negative", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", 400),
        fail("CL hex", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0x4\r\n\r\nabcd", 400),
        fail("CL empty", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: \r\n\r\n", 400),
        fail("CL overflowing", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999\r\n\r\n", 400),
        fail(
            "CL over the body limit → 413 before reading", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 17\r\n\r\n",
            413),
        fail(
            "TE gzip, chunked → 501", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
            501),
        fail(
            "TE chunked, gzip → 400 (§6.3)",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n", 400),
        fail("TE xchunked → 501", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: xchunked\r\n\r\n0\r\n\r\n", 501),
        fail(
            "TE chunked twice",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            400),
        fail("TE gzip alone → 400 (§6.3)", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", 400),
        fail("TE empty element", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: ,chunked\r\n\r\n0\r\n\r\n", 400),
        fail("TE on HTTP/1.0 (§6.1)", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
        fail(
            "chunk size 4x", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n4x\r\nabcd\r\n0\r\n\r\n",
            400),
        fail(
            "chunk size 0x4",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0x4\r\nabcd\r\n0\r\n\r\n", 400),
        fail(
            "chunk size with sign",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n+4\r\nabcd\r\n0\r\n\r\n", 400),
        fail(
            "chunk size of 17 hex digits",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFF\r\n", 400),
        fail(
            "chunk size over the limit → 413",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFF\r\n", 413),
        fail(
            "chunks adding up over the limit → 413",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n9\r\n123456789\r\n9\r\n123456789\r\n0\r\n\r\n",
            413),
        fail(
            "chunk data not followed by CRLF",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nxxx__1a\r\n0\r\n\r\n", 400),
        fail(
            "chunk size line with bare LF",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\nabc\r\n0\r\n\r\n", 400),
        fail(
            "empty chunk size", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\r\nabc\r\n0\r\n\r\n",
            400),
        fail(
            "invalid trailer (obs-fold)",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n folded\r\n\r\n", 400),
        fail(
            "control character in chunk extension",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1;a\u{0}b\r\nx\r\n0\r\n\r\n", 400),
    ]

    @Test(arguments: vectors) func decodesWhole(_ vector: Vector) {
        #expect(Self.decode(vector.raw, piece: Int.max / 2) == vector.expected)
    }

    @Test(arguments: vectors) func decodesByteByByte(_ vector: Vector) {
        #expect(Self.decode(vector.raw, piece: 1) == vector.expected)
    }

    @Test(arguments: vectors) func decodesInSevenBytePieces(_ vector: Vector) {
        #expect(Self.decode(vector.raw, piece: 7) == vector.expected)
    }

    @Test func exposesHeadDetails() throws {
        let raw =
            "GET /a%2Fb/c?x=1&y=a+b&z=%26&flag HTTP/1.0\r\nConnection: Keep-Alive\r\nAccept: a\r\naccept: b\r\n\r\n"
        var decoder = RequestDecoder(limits: Self.limits)
        let bytes = Array(raw.utf8)
        let (event, consumed) = try bytes.withUnsafeBufferPointer { b throws(HTTPParseError) in try decoder.next(b) }
        #expect(consumed == bytes.count)
        guard case .head(let head) = event else {
            Issue.record("expected a head")
            return
        }
        #expect(head.path == "/a/b/c")
        #expect(head.rawQuery == "x=1&y=a+b&z=%26&flag")
        #expect(head.query.map { "\($0.name)=\($0.value)" } == ["x=1", "y=a b", "z=&", "flag="])
        #expect(head.minorVersion == 0)
        #expect(head.keepAlive)
        #expect(head.headers.values(for: "ACCEPT") == ["a", "b"])
        #expect(head.framing == .none)
    }

    @Test(arguments: [
        ("GET / HTTP/1.1\r\nHost: a\r\n\r\n", true),
        ("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", false),
        ("GET / HTTP/1.1\r\nHost: a\r\nConnection:\tclose\r\n\r\n", false),
        ("GET / HTTP/1.1\r\nHost: a\r\nConnection: x-foo,\tclose\r\n\r\n", false),
        ("GET / HTTP/1.0\r\n\r\n", false),
        ("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", true),
        ("GET / HTTP/1.0\r\nConnection: keep-alive, close\r\n\r\n", false),
    ])
    func decidesPersistence(raw: String, keepAlive: Bool) throws {
        let bytes = Array(raw.utf8)
        let head = try bytes.withUnsafeBufferPointer { b throws(HTTPParseError) in
            try RequestDecoder.parseHead(b, limits: Self.limits)
        }
        #expect(head.keepAlive == keepAlive)
    }

    @Test(arguments: [
        ("POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n", true),
        ("POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-Continue\r\nContent-Length: 3\r\n\r\n", true),
        ("POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n", false),
        ("GET / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\n\r\n", false),
    ])
    func recognisesExpectContinue(raw: String, expects: Bool) throws {
        let bytes = Array(raw.utf8)
        let head = try bytes.withUnsafeBufferPointer { b throws(HTTPParseError) in
            try RequestDecoder.parseHead(b, limits: Self.limits)
        }
        #expect(head.expectsContinue == expects)
    }
}
