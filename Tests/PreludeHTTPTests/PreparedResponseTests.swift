import PreludeHTTP
import Testing

/// A prepared response is negotiated by the engine per request (coding, 304) with heads rendered once.
@Suite struct PreparedResponseTests {
    static let representations = HTTPResponse.Prepared(identity: Array(String(repeating: "policy ", count: 50).utf8))
    static let prepared = PreparedResponse(
        representations, contentType: "application/json", headers: ["Cache-Control": "private, max-age=60"],
        vary: "Accept-Encoding, Accept-Language")

    static func fields(_ response: HTTPResponse) -> [String] { response.headers.map { "\($0.name): \($0.value)" } }

    @Test func negotiatesCodingAndLaysOutFieldsInOrder() {
        let identity = Self.prepared.response(to: HTTPRequest(method: .get, path: "/"))
        let identityTag = Self.representations.identityETag.headerValue
        let gzipTag = Self.representations.gzipETag.headerValue
        #expect(identity.status == .ok)
        #expect(identity.body == Self.representations.identity)
        #expect(
            Self.fields(identity) == [
                "Cache-Control: private, max-age=60", "ETag: \(identityTag)", "Content-Type: application/json",
                "Vary: Accept-Encoding, Accept-Language",
            ])
        let gzip = Self.prepared.response(
            to: HTTPRequest(method: .get, path: "/", headers: ["Accept-Encoding": "br, gzip;q=0.5"]))
        #expect(gzip.body == Self.representations.gzip)
        #expect(
            Self.fields(gzip) == [
                "Cache-Control: private, max-age=60", "ETag: \(gzipTag)", "Content-Type: application/json",
                "Content-Encoding: gzip", "Vary: Accept-Encoding, Accept-Language",
            ])
        // Two Accept-Encoding lines are one list (RFC 9110 §5.3): identity;q=1 then gzip;q=0 → identity.
        var twoLines = HTTPHeaders()
        twoLines.add("Accept-Encoding", "identity")
        twoLines.add("Accept-Encoding", "gzip;q=0")
        #expect(Self.prepared.response(to: HTTPRequest(method: .get, path: "/", headers: twoLines)).body.count == 350)
    }

    @Test func answersNotModifiedForTheCodingsOwnTag() {
        let gzipTag = Self.representations.gzipETag.headerValue
        let notModified = Self.prepared.response(
            to: HTTPRequest(
                method: .head, path: "/", headers: ["Accept-Encoding": "gzip", "If-None-Match": "\"x\", \(gzipTag)"]))
        #expect(notModified.status == .notModified)
        #expect(notModified.body.isEmpty)
        #expect(
            Self.fields(notModified) == [
                "Cache-Control: private, max-age=60", "ETag: \(gzipTag)", "Vary: Accept-Encoding, Accept-Language",
            ])
        // The gzip tag does not match the identity representation.
        let other = Self.prepared.response(
            to: HTTPRequest(method: .get, path: "/", headers: ["If-None-Match": gzipTag]))
        #expect(other.status == .ok)
        // On other methods a match is a failed precondition (RFC 9110 §13.1.2).
        let post = Self.prepared.response(
            to: HTTPRequest(method: .post, path: "/", headers: ["Accept-Encoding": "gzip", "If-None-Match": "*"]))
        #expect(post.status == .preconditionFailed)
    }

    @Test func changingAResponseDropsWhatWasPrepared() {
        var response = HTTPResponse(Self.prepared)
        #expect(response.prepared != nil)
        #expect(response.head != nil)
        response.headers.set("Cache-Control", "no-store")
        #expect(response.prepared == nil)
        #expect(response.head == nil)
        var withHead = HTTPResponse(head: PreparedHead(headers: ["Content-Type": "text/plain"]), body: [1])
        withHead.status = .created
        #expect(withHead.head == nil)
        var withBody = HTTPResponse(Self.prepared)
        withBody.body = [1, 2]
        #expect(withBody.prepared == nil)
    }

    /// A response made from a prepared one holds only the reference; read, it is the identity 200, and a changed
    /// field keeps every other field of that 200.
    @Test func aPreparedResponseReadsAsItsIdentityOkUntilChanged() {
        let identity = Self.prepared.identityResponse
        let response = HTTPResponse(Self.prepared)
        #expect(response.status == identity.status)
        #expect(Self.fields(response) == Self.fields(identity))
        #expect(response.body == identity.body)
        #expect(response.head === identity.head)
        #expect(response.logFields.isEmpty)

        var changedBody = response
        changedBody.body = [7]
        #expect(changedBody.body == [7])
        #expect(changedBody.status == .ok)
        #expect(Self.fields(changedBody) == Self.fields(identity))
        #expect(changedBody.head === identity.head, "a new body keeps the rendered head")
        #expect(response.prepared != nil, "the original is a value: unchanged")

        var changedStatus = response
        changedStatus.status = .accepted
        #expect(changedStatus.status == .accepted)
        #expect(changedStatus.body == identity.body)
        #expect(Self.fields(changedStatus) == Self.fields(identity))
        #expect(changedStatus.head == nil)

        var changedFields = response
        changedFields.headers.add("X-Extra", "1")
        #expect(Self.fields(changedFields) == Self.fields(identity) + ["X-Extra: 1"])
        #expect(changedFields.body == identity.body)
        #expect(changedFields.prepared == nil)

        var logged = response
        logged.logFields["token"] = "ops"
        #expect(logged.prepared != nil, "log fields are never sent: the response stays prepared")
    }

    @Test func engineNegotiatesAndSendsPreparedHeadsByteForByte() throws {
        let t = try TestServer.make(routes: { router in
            router.add(.get, "/prepared", options: RouteOptions(runsInline: true)) { _ in
                HTTPResponse(Self.prepared)
            }
            router.add(.get, "/changed") { _ in
                var response = HTTPResponse(Self.prepared)
                response.headers.set("Cache-Control", "no-store")
                return response
            }
            router.add(.get, "/head") { _ in
                HTTPResponse(
                    head: PreparedHead(
                        status: .created, headers: ["Content-Type": "text/plain", "X-Request-ID": "handler's"]),
                    body: Array("made".utf8))
            }
        })
        defer { t.stop() }
        let c = try t.client()
        try c.send("GET /prepared HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
        let gzip = try c.readResponse()
        #expect(gzip.status == 200)
        #expect(gzip.body == Self.representations.gzip)
        #expect(
            gzip.headers.map { "\($0.0): \($0.1)" }.filter { !$0.hasPrefix("Date:") && !$0.hasPrefix("X-Request-ID") }
                == [
                    "Cache-Control: private, max-age=60", "ETag: \(Self.representations.gzipETag.headerValue)",
                    "Content-Type: application/json", "Content-Encoding: gzip",
                    "Vary: Accept-Encoding, Accept-Language", "Server: prelude",
                    "Content-Length: \(Self.representations.gzip.count)", "Connection: keep-alive",
                ])
        try c.send(
            "GET /prepared HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n"
                + "If-None-Match: \(Self.representations.gzipETag.headerValue)\r\n\r\n")
        let notModified = try c.readResponse()
        #expect(notModified.status == 304)
        #expect(notModified.header("Content-Length") == nil)
        try c.send("GET /prepared HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try c.readResponse().body == Self.representations.identity)
        // A handler that changed the prepared response gets what it changed, not the prepared head.
        try c.send("GET /changed HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
        let changed = try c.readResponse()
        #expect(changed.header("Cache-Control") == "no-store")
        #expect(changed.header("Content-Encoding") == nil)
        // A prepared head holding the request-id field is rendered without it: the engine sends its own, once.
        try c.send("GET /head HTTP/1.1\r\nHost: x\r\nX-Request-ID: mine\r\n\r\n")
        let head = try c.readResponse()
        #expect(head.status == 201)
        #expect(head.headers.filter { $0.0 == "X-Request-ID" }.map { $0.1 } == ["mine"])
        #expect(head.text == "made")
    }
}
