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

    @Test func headCacheReusesAPreparedResponseAndSeesChanges() {
        var cache = ResponseHeadCache(serverName: "prelude", capacity: 2)
        let prepared = HTTPResponse.json(Array("{}".utf8))
        let first = cache.prefix(for: prepared)
        #expect(
            String(decoding: first.bytes, as: UTF8.self)
                == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nServer: prelude\r\n")
        #expect(cache.prefix(for: prepared).bytes == first.bytes)

        // A copy changed by a handler gets its own storage, so it is not mistaken for the cached one.
        var changed = prepared
        changed.headers.set("Content-Type", "text/plain")
        changed.headers.add("Connection", "close")
        changed.headers.add("Content-Length", "7")
        let other = cache.prefix(for: changed)
        #expect(
            String(decoding: other.bytes, as: UTF8.self)
                == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nServer: prelude\r\n")
        #expect(other.handlerCloses)
        #expect(other.handlerContentLength == "7")
        #expect(!first.handlerCloses)

        // Same headers, another status: another prefix. Eviction keeps answers right.
        let created = HTTPResponse(status: .created, headers: prepared.headers)
        #expect(String(decoding: cache.prefix(for: created).bytes, as: UTF8.self).hasPrefix("HTTP/1.1 201 Created\r\n"))
        #expect(cache.prefix(for: prepared).bytes == first.bytes)
        #expect(cache.prefix(for: changed).bytes == other.bytes)
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
