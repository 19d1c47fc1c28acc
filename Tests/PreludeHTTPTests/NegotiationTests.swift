import Testing

@testable import PreludeHTTP

@Suite struct NegotiationTests {
    @Test func gzipRoundTrips() throws {
        let text = Array(String(repeating: "{\"feature\":\"camera\",\"copy\":\"Continue\"}", count: 50).utf8)
        let compressed = Gzip.compress(text)
        #expect(compressed.count < text.count / 4)
        #expect(compressed.prefix(2) == [0x1f, 0x8b])  // RFC 1952 magic
        #expect(try Gzip.decompress(compressed) == text)
        #expect(try Gzip.decompress(Gzip.compress([])) == [])
    }

    @Test func gzipRejectsCorruptAndTruncatedInput() {
        let compressed = Gzip.compress(Array("hello hello hello".utf8))
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(Array(compressed.dropLast(4))) }
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress([1, 2, 3, 4]) }
        #expect(throws: Gzip.Failure.self) {
            try Gzip.decompress(Gzip.compress([UInt8](repeating: 0, count: 10000)), maxSize: 100)
        }
    }

    @Test(
        arguments: [
            (nil, false),
            ("gzip", true),
            ("GZIP", true),
            ("x-gzip", true),
            ("gzip, deflate, br", true),
            ("br, deflate", false),
            ("gzip;q=0", false),
            ("gzip; q=0.000", false),
            ("*", true),
            ("*;q=0", false),
            ("*;q=0.5", true),
            ("identity", false),
            ("gzip;q=0.5, identity", false),
            ("gzip;q=1.0, identity;q=0.5", true),
            ("identity;q=0, gzip;q=0.1", true),
            ("gzip;q=2", false),
            ("gzip;q=abc", false),
            ("deflate, gzip;q=0.8", true),
            ("", false),
        ] as [(String?, Bool)])
    func negotiatesGzipWithQValues(header: String?, gzip: Bool) {
        #expect(AcceptEncoding.prefersGzip(header) == gzip)
    }

    /// The allocation-free fast path answers the common headers itself and, whenever it answers, agrees with the
    /// general parser (which it leaves parameters, identity, `*` and non-ASCII to).
    @Test func theFastPathAgreesWithTheGeneralParser() {
        let common = [
            "gzip", "gzip, deflate", "gzip, deflate, br", "br, gzip", "GZIP", " x-gzip ", "deflate", "br,zstd",
        ]
        for value in common { #expect(AcceptEncoding.plainList(value) != nil, "\(value)") }
        let codings = [
            "gzip", "GZip", "x-gzip", "deflate", "br", "identity", "*", "gzip;q=0", "gzip ;q=0.5", "", " ",
            "gzipx", "gzi", "x-gzi", "é", "\t gzip\t",
        ]
        var checked = 0
        for a in codings {
            for b in codings {
                for value in [a, "\(a),\(b)", "\(a), \(b)", "\(b) ,\(a),deflate"] {
                    guard let fast = AcceptEncoding.plainList(value) else { continue }
                    #expect(fast == AcceptEncoding.negotiated(value), "\(value)")
                    checked += 1
                }
            }
        }
        #expect(checked > 200)
    }

    @Test func etagIsStableAndContentDerived() {
        let a = ETag.strong(for: Array("abc".utf8))
        #expect(a == ETag.strong(for: Array("abc".utf8)))
        #expect(a != ETag.strong(for: Array("abd".utf8)))
        #expect(a.headerValue.hasPrefix("\"") && a.headerValue.hasSuffix("\""))
    }

    @Test(arguments: [
        ("\"v1\"", true, true),
        ("\"v0\", \"v1\"", true, true),
        ("W/\"v1\"", true, false),  // weak comparison for If-None-Match, strong for If-Match
        ("*", true, true),
        ("\"v2\"", false, false),
        ("v1", false, false),
    ])
    func comparesEntityTags(header: String, noneMatch: Bool, match: Bool) {
        let tag = ETag("v1")
        #expect(tag.matchesIfNoneMatch(header) == noneMatch)
        #expect(tag.matchesIfMatch(header) == match)
    }

    @Test func answers304ForMatchingIfNoneMatchOnGet() {
        let tag = ETag("v1")
        let get = HTTPRequest(method: .get, path: "/", headers: ["If-None-Match": "\"v1\""])
        let response = ConditionalRequest.notModified(get, etag: tag, headers: ["Cache-Control": "max-age=60"])
        #expect(response?.status == .notModified)
        #expect(response?.headers["ETag"] == "\"v1\"")
        #expect(response?.headers["Cache-Control"] == "max-age=60")
        let post = HTTPRequest(method: .post, path: "/", headers: ["If-None-Match": "*"])
        #expect(ConditionalRequest.notModified(post, etag: tag)?.status == .preconditionFailed)
        #expect(ConditionalRequest.notModified(HTTPRequest(method: .get, path: "/"), etag: tag) == nil)
    }

    @Test func requiresIfMatchForWrites() throws {
        let tag = ETag("v1")
        do {
            try ConditionalRequest.requireIfMatch(HTTPRequest(method: .put, path: "/"), current: tag)
            Issue.record("expected 428")
        } catch { #expect(error.status == .preconditionRequired) }
        do {
            try ConditionalRequest.requireIfMatch(
                HTTPRequest(method: .put, path: "/", headers: ["If-Match": "\"v0\""]), current: tag)
            Issue.record("expected 412")
        } catch {
            #expect(error.status == .preconditionFailed)
            #expect(error.headers["ETag"] == "\"v1\"")
        }
        try ConditionalRequest.requireIfMatch(
            HTTPRequest(method: .put, path: "/", headers: ["If-Match": "\"v1\""]), current: tag)
        try ConditionalRequest.requireIfMatch(HTTPRequest(method: .put, path: "/"), current: nil, required: false)
    }

    @Test func problemDetailsRenderAsProblemJSON() {
        let problem = ProblemDetails(
            status: .unprocessableContent, type: "https://prelude.dev/problems/validation", detail: "2 \"problems\"",
            instance: "/v1/x",
            errors: [FieldProblem(pointer: "/features/0/copy", code: "missing", detail: "line\nbreak")])
        let response = problem.response()
        #expect(response.status.code == 422)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        #expect(
            String(decoding: response.body, as: UTF8.self)
                == #"{"type":"https://prelude.dev/problems/validation","title":"Unprocessable Content","status":422,"detail":"2 \"problems\"","instance":"/v1/x","errors":[{"pointer":"/features/0/copy","code":"missing","detail":"line\nbreak"}]}"#
        )
    }
}
