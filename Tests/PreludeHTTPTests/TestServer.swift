import PreludeHTTP

/// Starts a server on 127.0.0.1:0 with a few routes for live tests.
struct TestServer {
    let server: HTTPServer
    let port: Int

    struct Failure: Error {}

    /// 4 MiB: larger than the socket buffers, so writing it takes several EPOLLOUT rounds.
    static let largeBody = [UInt8](repeating: UInt8(ascii: "x"), count: 4 << 20)
    static let mediumBody = [UInt8](repeating: UInt8(ascii: "y"), count: 3300)

    static func make(
        configure: (inout HTTPServerConfiguration) -> Void = { _ in }, routes: (inout Router) -> Void = { _ in }
    )
        throws -> TestServer
    {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        configure(&configuration)
        var router = Router()
        router.add(.get, "/healthz", options: RouteOptions(runsInline: true)) { _ in
            .json(Array(#"{"status":"ok"}"#.utf8))
        }
        router.add(.post, "/echo") { request in
            HTTPResponse(status: .ok, headers: ["Content-Type": "application/octet-stream"], body: request.body)
        }
        router.add(.post, "/small", options: RouteOptions(maxBodySize: 16)) { request in
            HTTPResponse(status: .ok, body: request.body)
        }
        router.add(.get, "/items/{id}") { request in
            .json(
                Array(
                    "{\"id\":\"\(request.pathParameters["id"] ?? "")\",\"q\":\"\(request.queryValue("q") ?? "")\"}".utf8
                ))
        }
        router.add(.get, "/boom") { _ in throw Failure() }
        router.add(.get, "/bye") { _ in HTTPResponse(status: .ok, headers: ["Connection": "close"]) }
        router.add(.get, "/teapot") { _ in
            throw ProblemDetails(status: HTTPStatus(code: 418, reasonPhrase: "I'm a teapot"))
        }
        router.add(.get, "/large", options: RouteOptions(runsInline: true)) { _ in HTTPResponse(body: largeBody) }
        router.add(.get, "/large-ish", options: RouteOptions(runsInline: true)) { _ in HTTPResponse(body: mediumBody) }
        routes(&router)
        let server = HTTPServer(configuration: configuration, router: router)
        let port = try server.start()
        return TestServer(server: server, port: port)
    }

    func client(timeout: Double = 5) throws -> RawClient { try RawClient(port: port, timeout: timeout) }

    func stop() { server.shutdown(gracePeriod: 1) }
}
