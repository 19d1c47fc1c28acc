import PreludeHTTP
import PreludeHTTPClient
import Testing

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// The outbound client against the real engine on 127.0.0.1:0 (plain HTTP) and against sockets that never answer.
@Suite struct HTTPClientTests {
    /// A server with the routes the tests below ask for.
    static func withServer(_ body: (String) throws -> Void) throws {
        var router = Router()
        router.add(.get, "/hello") { _ in
            HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain", "X-Test": "one"], body: Array("hi".utf8))
        }
        router.add(.post, "/echo") { request in
            HTTPResponse(
                status: .ok,
                headers: [
                    "Content-Type": "application/octet-stream",
                    "X-Content-Type": request.headers["Content-Type"] ?? "none",
                    "X-User-Agent": request.headers["User-Agent"] ?? "none",
                    "X-Expect": request.headers["Expect"] ?? "none",
                ], body: request.body)
        }
        router.add(.get, "/moved") { _ in HTTPResponse(status: HTTPStatus(code: 302), headers: ["Location": "/hello"]) }
        router.add(.get, "/big") { _ in HTTPResponse(body: [UInt8](repeating: 0x61, count: 100_000)) }
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.maxBodySize = 4 << 20
        let server = HTTPServer(configuration: configuration, router: router)
        let port = try server.start()
        defer { server.shutdown(gracePeriod: 1) }
        try body("http://127.0.0.1:\(port)")
    }

    @Test func getsStatusHeadersAndBody() throws {
        try Self.withServer { base in
            let response = try HTTPClient().send("GET", url: base + "/hello")
            #expect(response.status == 200)
            #expect(response.text == "hi")
            #expect(response.header("X-Test") == "one")
            #expect(response.headers["content-type"] == "text/plain")
        }
    }

    @Test func postsTheBodyWithoutLibcurlsDefaultFields() throws {
        try Self.withServer { base in
            // Over libcurl's 1 MiB threshold for `Expect: 100-continue`.
            let body = [UInt8](repeating: 0x62, count: 2 << 20)
            let client = HTTPClient(configuration: HTTPClientConfiguration(userAgent: "prelude-test"))
            let response = try client.send("POST", url: base + "/echo", body: body)
            #expect(response.status == 200)
            #expect(response.body == body)
            // No form Content-Type and no `Expect: 100-continue` slipped in; the configured User-Agent was sent.
            #expect(response.header("X-Content-Type") == "none")
            #expect(response.header("X-Expect") == "none")
            #expect(response.header("X-User-Agent") == "prelude-test")
            let typed = try client.send(
                "POST", url: base + "/echo", headers: [("Content-Type", "application/json")], body: Array("{}".utf8))
            #expect(typed.header("X-Content-Type") == "application/json")
            #expect(typed.text == "{}")
        }
    }

    @Test func returnsARedirectUnlessAskedToFollow() throws {
        try Self.withServer { base in
            let response = try HTTPClient().send("GET", url: base + "/moved")
            #expect(response.status == 302)
            #expect(response.header("Location") == "/hello")
            let following = HTTPClient(configuration: HTTPClientConfiguration(followRedirects: true))
            let followed = try following.send("GET", url: base + "/moved")
            #expect(followed.status == 200)
            #expect(followed.text == "hi")
            // Only the final response's fields are reported.
            #expect(followed.header("Location") == nil)
        }
    }

    @Test func refusesABodyOverTheLimit() throws {
        try Self.withServer { base in
            let client = HTTPClient(configuration: HTTPClientConfiguration(maxResponseSize: 99_999))
            #expect(Self.failure { try client.send("GET", url: base + "/big") } == .tooLarge)
            let roomy = HTTPClient(configuration: HTTPClientConfiguration(maxResponseSize: 100_000))
            let fits = try roomy.send("GET", url: base + "/big")
            #expect(fits.body.count == 100_000)
        }
    }

    @Test func refusesOtherSchemesAndHeaderInjection() throws {
        let client = HTTPClient()
        #expect(Self.failure { try client.send("GET", url: "ftp://127.0.0.1/") } == .invalidRequest)
        #expect(Self.failure { try client.send("GET", url: "file:///etc/passwd") } == .invalidRequest)
        #expect(Self.failure { try client.send("GET", url: "not a url") } == .invalidRequest)
        #expect(
            Self.failure { try client.send("GET", url: "http://127.0.0.1:1/", headers: [("X-A", "b\r\nX-Evil: 1")]) }
                == .invalidRequest)
        #expect(Self.failure { try client.send("GET /x", url: "http://127.0.0.1:1/") } == .invalidRequest)
    }

    @Test func reportsARefusedConnection() throws {
        let listener = try SilentListener()
        let port = listener.port
        listener.close()  // nothing listens there any more
        #expect(Self.failure { try HTTPClient().send("GET", url: "http://127.0.0.1:\(port)/") } == .connect)
    }

    @Test func boundsAnExchangeThatNeverAnswers() throws {
        // The kernel completes the handshake from the listen queue; nobody ever reads or answers.
        let listener = try SilentListener()
        defer { listener.close() }
        let error = Self.error { try HTTPClient().send("GET", url: "http://127.0.0.1:\(listener.port)/", timeout: 0.3) }
        #expect(error?.kind == .timedOut)
    }

    @Test func abortEndsAHeldExchangeAndLaterOnes() throws {
        let listener = try SilentListener()
        defer { listener.close() }
        let client = HTTPClient()
        let url = "http://127.0.0.1:\(listener.port)/"
        let finished = DispatchSemaphore(value: 0)
        let outcome = OutcomeBox()
        DispatchQueue.global().async {
            // 60 s: were abort() to do nothing, this would end as .timedOut, not .aborted.
            outcome.set(Self.error { try client.send("GET", url: url, timeout: 60) }?.kind)
            finished.signal()
        }
        // Abort only once the exchange is in progress: its socket is in the listener's queue.
        listener.waitForPendingConnection()
        client.abort()
        finished.wait()
        #expect(outcome.get() == .aborted)
        #expect(Self.failure { try client.send("GET", url: url) } == .aborted)
    }

    /// The client's error `body` threw; nil when it returned a response (or, wrongly, threw another type).
    static func error(_ body: () throws -> HTTPClientResponse) -> HTTPClientError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? HTTPClientError
        }
    }

    static func failure(_ body: () throws -> HTTPClientResponse) -> HTTPClientError.Kind? {
        error(body)?.kind
    }
}

/// A listening socket on 127.0.0.1:0 that never accepts: connections complete in the kernel and wait there.
final class SilentListener: Sendable {
    let fd: Int32
    let port: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            _ = Glibc.close(fd)
            throw ListenerFailure()
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Blocks until a connection waits in the queue (poll reports the listener readable), without accepting it.
    func waitForPendingConnection() {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, -1) <= 0 {}
    }

    func close() { _ = Glibc.close(fd) }

    struct ListenerFailure: Error {}
}

/// A value set by one thread and read by another after a semaphore.
final class OutcomeBox: @unchecked Sendable {
    // Written once before `finished.signal()` and read after `finished.wait()`: the semaphore orders the two.
    private var value: HTTPClientError.Kind?
    func set(_ value: HTTPClientError.Kind?) { self.value = value }
    func get() -> HTTPClientError.Kind? { value }
}
