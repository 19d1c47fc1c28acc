import PreludeHTTP
import Testing

/// The shortcuts taken on the request hot path give the same answers as the general code.
@Suite struct HotPathTests {
    static func router() -> Router {
        var router = Router()
        router.add(.get, "/") { _ in HTTPResponse(status: .ok) }
        router.add(.get, "/v1/policy") { _ in HTTPResponse(status: .ok) }
        router.add(.post, "/v1/policy") { _ in HTTPResponse(status: .accepted) }
        router.add(.head, "/v1/{x}") { _ in HTTPResponse(status: .noContent) }
        router.add(.get, "/v1/{x}") { _ in HTTPResponse(status: .created) }
        return router
    }

    static func describe(_ match: Router.Match) -> String {
        switch match {
        case .found(let route, let parameters):
            "\(route.method) \(route.pattern) \(parameters.sorted { $0.key < $1.key }.map { "\($0)=\($1)" })"
        case .methodNotAllowed(let allowed): "405 \(allowed.map(\.rawValue).sorted())"
        case .notFound: "404"
        }
    }

    @Test(arguments: [
        (HTTPMethod.get, "/", "GET / []"),
        (.get, "/v1/policy", "GET /v1/policy []"),
        (.post, "/v1/policy", "POST /v1/policy []"),
        // Not canonical: the full scan (empty segments are ignored) still finds the literal route.
        (.get, "//v1//policy/", "GET /v1/policy []"),
        (.get, "/v1/other", "GET /v1/{x} [\"x=other\"]"),
        // HEAD prefers an exact HEAD capture over the GET literal's fallback (the scan's rule).
        (.head, "/v1/policy", "HEAD /v1/{x} [\"x=policy\"]"),
        (.delete, "/v1/policy", "405 [\"GET\", \"HEAD\", \"POST\"]"),
        (.get, "/v2", "404"),
        // Not canonical (no leading slash; the parser never produces it): the scan ignores the missing slash.
        (.get, "v1/policy", "GET /v1/policy []"),
    ])
    func literalFastPathAgreesWithTheScan(method: HTTPMethod, path: String, expected: String) {
        #expect(Self.describe(Self.router().match(method: method, path: path)) == expected)
    }

    @Test func preparedHeadRendersOnceAndTheEngineAddsServer() {
        let head = PreparedHead(headers: ["Content-Type": "application/json"])
        #expect(
            String(decoding: head.rendered.bytes, as: UTF8.self)
                == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n")
        #expect(!head.rendered.hasServer)
        let response = HTTPResponse(head: head, body: Array("{}".utf8))
        #expect(ResponseEncoder.prefix(response, requestIDHeader: "X-Request-ID").bytes == head.rendered.bytes)

        // Fields the engine owns are left out and remembered; a handler's Server replaces the engine's.
        let own = PreparedHead(
            status: .created, headers: ["Server": "mine", "Connection": "close", "Content-Length": "7"])
        #expect(own.rendered.hasServer)
        #expect(own.rendered.handlerCloses)
        #expect(own.rendered.handlerContentLength == "7")
        var out: [UInt8] = []
        ResponseEncoder.encodeHead(
            prefix: own.rendered, serverLine: ResponseEncoder.serverLine("prelude"),
            plan: ResponseEncoder.plan(status: .created, isHead: false, bodyCount: 0, handlerContentLength: "7"),
            keepAlive: false, date: Array("Date: X\r\n".utf8), into: &out)
        #expect(
            String(decoding: out, as: UTF8.self)
                == "HTTP/1.1 201 Created\r\nServer: mine\r\nDate: X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")

        // A head holding the request-id field is rendered again without it.
        let withID = HTTPResponse(head: PreparedHead(headers: ["X-Request-ID": "h", "A": "b"]))
        #expect(
            String(decoding: ResponseEncoder.prefix(withID, requestIDHeader: "x-request-id").bytes, as: UTF8.self)
                == "HTTP/1.1 200 OK\r\nA: b\r\n")
    }

    @Test func headEncodingAddsTheServerFields() {
        var out: [UInt8] = []
        ResponseEncoder.encodeHead(
            prefix: Array("HTTP/1.1 200 OK\r\n".utf8),
            plan: ResponseEncoder.plan(status: .ok, isHead: false, bodyCount: 12, handlerContentLength: nil),
            keepAlive: false,
            date: Array("Date: X\r\n".utf8), into: &out)
        #expect(
            String(decoding: out, as: UTF8.self)
                == "HTTP/1.1 200 OK\r\nDate: X\r\nContent-Length: 12\r\nConnection: close\r\n\r\n")
    }
}
