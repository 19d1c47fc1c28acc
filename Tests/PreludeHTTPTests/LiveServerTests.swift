import Dispatch
import PreludeHTTP
import PreludeLocking
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Live tests: a real server on 127.0.0.1:0 and raw bytes over real sockets.
@Suite struct LiveServerTests {
    @Test func servesHealthzOverARealSocket() throws {
        let t = try TestServer.make()
        defer { t.stop() }
        let c = try t.client()
        try c.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        let r = try c.readResponse()
        #expect(r.status == 200)
        #expect(r.text == #"{"status":"ok"}"#)
        #expect(r.header("Content-Type") == "application/json")
        #expect(r.header("Content-Length") == "15")
        #expect(r.header("Server") == "prelude")
        #expect(r.header("Date")?.hasSuffix(" GMT") == true)
        #expect(r.header("Connection") == "keep-alive")
    }

    @Test func keepsConnectionsAliveAcrossRequests() throws {
        let t = try TestServer.make()
        defer { t.stop() }
        let c = try t.client()
        try c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
        #expect(try c.readResponse().text == "hello")
        try c.send("GET /items/a%20b?q=x+y HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try c.readResponse().text == #"{"id":"a b","q":"x y"}"#)
        try c.send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\nX-T: 1\r\n\r\n"
        )
        #expect(try c.readResponse().text == "abcde")
    }

    @Test func answersPipelinedRequestsInOrderWithHeadBodiless() throws {
        let t = try TestServer.make()
        defer { t.stop() }
        let c = try t.client()
        try c.send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\none"
                + "HEAD /items/7 HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /items/8 HTTP/1.1\r\nHost: x\r\n\r\n"
                + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nfour")
        #expect(try c.readResponse().text == "one")
        let head = try c.readResponse(head: true)
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == "17")  // the GET's length, no body (RFC 9110 §9.3.2)
        #expect(try c.readResponse().text == #"{"id":"8","q":""}"#)
        #expect(try c.readResponse().text == "four")
    }

    @Test func answersHalfClosedClientsThenCloses() throws {
        let t = try TestServer.make()
        defer { t.stop() }
        let c = try t.client()
        try c.send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhiGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        c.shutdownWrite()
        #expect(try c.readResponse().text == "hi")
        #expect(try c.readResponse().status == 200)
        #expect(c.readsEOF())
    }

    @Test func honoursConnectionCloseAndHTTP10() throws {
        let t = try TestServer.make()
        defer { t.stop() }
        let c1 = try t.client()
        try c1.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(try c1.readResponse().header("Connection") == "close")
        #expect(c1.readsEOF())

        let c2 = try t.client()
        try c2.send("GET /healthz HTTP/1.0\r\n\r\n")
        #expect(try c2.readResponse().header("Connection") == "close")
        #expect(c2.readsEOF())

        let bye = try t.client()
        try bye.send("GET /bye HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try bye.readResponse().header("Connection") == "close")
        #expect(bye.readsEOF())

        let c3 = try t.client()
        try c3.send("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(try c3.readResponse().header("Connection") == "keep-alive")
        try c3.send("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(try c3.readResponse().status == 200)
    }

    struct ErrorCase: Sendable, CustomTestStringConvertible {
        let name: String
        let raw: String
        let status: Int
        let closes: Bool
        var testDescription: String { name }
    }

    @Test(arguments: [
        ErrorCase(name: "unknown path → 404", raw: "GET /nope HTTP/1.1\r\nHost: x\r\n\r\n", status: 404, closes: false),
        ErrorCase(
            name: "wrong method → 405", raw: "DELETE /healthz HTTP/1.1\r\nHost: x\r\n\r\n", status: 405, closes: false),
        ErrorCase(
            name: "unknown method → 501", raw: "BREW /healthz HTTP/1.1\r\nHost: x\r\n\r\n", status: 501, closes: true),
        ErrorCase(name: "TRACE → 501", raw: "TRACE / HTTP/1.1\r\nHost: x\r\n\r\n", status: 501, closes: true),
        ErrorCase(name: "HTTP/2.0 → 505", raw: "GET / HTTP/2.0\r\nHost: x\r\n\r\n", status: 505, closes: true),
        ErrorCase(
            name: "CL + TE → 400",
            raw: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            status: 400, closes: true),
        ErrorCase(name: "missing Host → 400", raw: "GET /healthz HTTP/1.1\r\n\r\n", status: 400, closes: true),
        ErrorCase(
            name: "unknown TE → 501", raw: "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: br\r\n\r\n",
            status: 501, closes: true),
        ErrorCase(
            name: "handler error → 500", raw: "GET /boom HTTP/1.1\r\nHost: x\r\n\r\n", status: 500, closes: false),
        ErrorCase(
            name: "handler problem → its status", raw: "GET /teapot HTTP/1.1\r\nHost: x\r\n\r\n", status: 418,
            closes: false),
    ])
    func rendersErrorsAsProblemJSON(_ e: ErrorCase) throws {
        let t = try TestServer.make()
        defer { t.stop() }
        let c = try t.client()
        try c.send(e.raw)
        let r = try c.readResponse()
        #expect(r.status == e.status)
        #expect(r.header("Content-Type") == "application/problem+json")
        #expect(r.text.contains("\"status\":\(e.status)"))
        if e.closes {
            #expect(r.header("Connection") == "close")
            #expect(c.readsEOF())
        } else {
            try c.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try c.readResponse().status == 200)
        }
        if e.status == 405 { #expect(r.header("Allow") == "GET, HEAD, OPTIONS") }
    }

    @Test func answersOptions() throws {
        let t = try TestServer.make()
        defer { t.stop() }
        let c = try t.client()
        try c.send("OPTIONS /echo HTTP/1.1\r\nHost: x\r\n\r\n")
        let r = try c.readResponse()
        #expect(r.status == 204)
        #expect(r.header("Allow") == "POST, OPTIONS")
        #expect(r.header("Content-Length") == nil)
        try c.send("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n")
        let star = try c.readResponse()
        #expect(star.status == 204)
        #expect(star.header("Allow")?.contains("GET") == true)
    }

    @Test func sendsContinueBeforeReadingTheBody() throws {
        let t = try TestServer.make()
        defer { t.stop() }
        let c = try t.client()
        try c.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
        #expect(try c.readResponse().status == 100)
        try c.send("hello")
        #expect(try c.readResponse().text == "hello")
    }

    @Test func refusesOversizedBodiesWithoutReadingThem() throws {
        let t = try TestServer.make()
        defer { t.stop() }
        let c = try t.client()
        // Expect: 100-continue with a body over the route's limit: 413 at once, no 100 (RFC 9110 §10.1.1).
        try c.send("POST /small HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 100000000\r\n\r\n")
        let r = try c.readResponse()
        #expect(r.status == 413)
        #expect(r.header("Connection") == "close")
        #expect(c.readsEOF())
        // Chunked bodies are cut off as soon as they pass the limit.
        let c2 = try t.client()
        try c2.send(
            "POST /small HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n0123456789abcdef\r\n10\r\n0123456789abcdef\r\n"
        )
        #expect(try c2.readResponse().status == 413)
    }

    /// The loops' clock for timeout tests: once started, every reading (one per loop wake-up) is `step` ms later
    /// than the last, so a deadline set at one wake-up has passed at the next, however fast the machine is.
    final class SteppingClock: Sendable {
        private let milliseconds = Atomic<Int64>(1_000_000)
        private let step = Atomic<Int64>(0)

        func start(step: Int64) { self.step.store(step, ordering: .relaxed) }

        var read: @Sendable () -> Int64 {
            { [self] in milliseconds.wrappingAdd(step.load(ordering: .relaxed), ordering: .relaxed).newValue }
        }
    }

    static func timeoutServer(_ clock: SteppingClock, _ configure: @escaping (inout HTTPServerConfiguration) -> Void)
        throws -> TestServer
    {
        try TestServer.make(configure: { c in
            // Hours: nothing times out unless the stepping clock jumps past it.
            (c.headerTimeout, c.bodyIdleTimeout, c.bodyTimeout) = (3600, 3600, 3600)
            (c.writeTimeout, c.keepAliveTimeout) = (3600, 3600)
            c.monotonicClock = clock.read
            configure(&c)
        })
    }

    @Test func cutsOffSlowlorisWith408() throws {
        let clock = SteppingClock()
        let t = try Self.timeoutServer(clock) { $0.headerTimeout = 10 }
        defer { t.stop() }
        let c = try t.client()
        clock.start(step: 10_000)
        try c.send("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        let r = try c.readResponse()
        #expect(r.status == 408)
        #expect(r.header("Connection") == "close")
        #expect(c.readsEOF())
    }

    @Test func cutsOffSlowBodiesWith408() throws {
        let clock = SteppingClock()
        let t = try Self.timeoutServer(clock) { $0.bodyIdleTimeout = 10 }
        defer { t.stop() }
        let c = try t.client()
        clock.start(step: 10_000)
        try c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
        #expect(try c.readResponse().status == 408)
        #expect(c.readsEOF())
    }

    @Test func closesIdleKeepAliveConnections() throws {
        let clock = SteppingClock()
        let t = try Self.timeoutServer(clock) { $0.keepAliveTimeout = 5 }
        defer { t.stop() }
        let c = try t.client()
        try c.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try c.readResponse().status == 200)
        // Idle from here on (the deadline was set with a time read before the clock starts stepping).
        clock.start(step: 5_000)
        #expect(c.readsEOF())
    }

    @Test func limitsRequestsPerConnection() throws {
        let t = try TestServer.make(configure: { $0.maxRequestsPerConnection = 2 })
        defer { t.stop() }
        let c = try t.client()
        try c.send(
            "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
        )
        #expect(try c.readResponse().header("Connection") == "keep-alive")
        #expect(try c.readResponse().header("Connection") == "close")
        #expect(c.readsEOF())
    }

    @Test func holdsAThousandIdleConnectionsWhileServing() throws {
        let t = try TestServer.make()
        defer { t.stop() }
        var idle: [RawClient] = []
        for _ in 0..<1000 { idle.append(try t.client()) }
        let c = try t.client()
        try c.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try c.readResponse().status == 200)
        // The idle ones are live connections, not just queued in the backlog.
        for i in stride(from: 0, to: 1000, by: 97) {
            try idle[i].send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try idle[i].readResponse().status == 200)
        }
        #expect(t.server.openConnectionCount >= 1000)
    }

    @Test func survivesClientsThatResetMidResponse() throws {
        let t = try TestServer.make()
        defer { t.stop() }
        for _ in 0..<5 {
            let c = try t.client()
            try c.send("GET /large HTTP/1.1\r\nHost: x\r\n\r\n")
            c.reset()
        }
        // A slow reader of a large response does not hold up anyone else either.
        let slow = try t.client()
        try slow.send("GET /large HTTP/1.1\r\nHost: x\r\n\r\n")
        let c = try t.client()
        for _ in 0..<3 {
            try c.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try c.readResponse().status == 200)
        }
        let big = try slow.readResponse()
        #expect(big.body.count == TestServer.largeBody.count)
    }

    @Test func keepsWaitingConnectionsInTheBacklogAtTheLimit() throws {
        let t = try TestServer.make(configure: { $0.maxConnections = 2 })
        defer { t.stop() }
        let a = try t.client()
        try a.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try a.readResponse().status == 200)
        let b = try t.client()
        try b.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try b.readResponse().status == 200)
        let waiting = try t.client(timeout: 0.3)
        try waiting.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(throws: SocketError.self) { try waiting.readResponse() }
        try a.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(try a.readResponse().status == 200)
        #expect(a.readsEOF())
        a.close()
        // Once a slot frees up, the waiting connection is accepted and answered.
        let late = try waiting.readResponseRetrying(attempts: 20)
        #expect(late.status == 200)
    }

    @Test func shutsDownGracefullyWithARequestInFlight() throws {
        let gate = Gate()
        // One loop, so the idle connection's close proves the loop has begun its graceful stop.
        let t = try TestServer.make(
            configure: { $0.eventLoopCount = 1 },
            routes: { router in
                router.add(.get, "/slow") { _ in
                    gate.arrived()
                    gate.waitForRelease()
                    return .json(Array("{\"slow\":true}".utf8))
                }
            })
        let idle = try t.client()
        try idle.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try idle.readResponse().status == 200)
        let c = try t.client()
        try c.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        gate.waitForArrival()
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            t.server.shutdown(gracePeriod: 5)
            stopped.signal()
        }
        // Idle keep-alive connections are closed at once; the listener stops accepting.
        #expect(idle.readsEOF())
        var refused = false
        for _ in 0..<200 where !refused {
            do { _ = try RawClient(port: t.port, timeout: 1) } catch { refused = true }
        }
        #expect(refused)
        gate.release()
        let r = try c.readResponse()
        #expect(r.status == 200)
        #expect(r.header("Connection") == "close")
        #expect(stopped.wait(timeout: .now() + 5) == .success)
        t.server.waitUntilStopped()
    }

    /// Nagle's algorithm with the client's delayed ACK would hold a response's last segment ~40 ms: the server
    /// disables it (TCP_NODELAY) on every connection it accepts. Checked on the accepted socket itself, found in this
    /// process by its peer address (the client's local port), not by timing responses.
    @Test func acceptedConnectionsHaveNagleDisabled() throws {
        let t = try TestServer.make()
        defer { t.stop() }
        let c = try t.client()
        // Inline and worker-pool routes alternating on one keep-alive connection, each answered in full.
        for i in 0..<4 {
            if i % 2 == 0 {
                try c.send("GET /large-ish HTTP/1.1\r\nHost: x\r\n\r\n")
            } else {
                try c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
            }
            #expect(try c.readResponse().status == 200)
        }
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(c.fd, $0, &length) }
        }
        let accepted = try #require(Self.socket(withPeerPort: local.sin_port, except: c.fd), "no accepted socket")
        var noDelay: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        #expect(getsockopt(accepted, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, &size) == 0)
        #expect(noDelay != 0, "TCP_NODELAY is not set on the accepted connection")
    }

    /// The descriptor of this process whose peer is `127.0.0.1:port` (network byte order), other than `except`.
    static func socket(withPeerPort port: in_port_t, except: Int32) -> Int32? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            guard let fd = Int32(name), fd != except else { continue }
            var peer = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let rc = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
            }
            if rc == 0, peer.sin_family == sa_family_t(AF_INET), peer.sin_port == port { return fd }
        }
        return nil
    }
}

/// Lets a test hold a handler until it says so.
final class Gate: Sendable {
    private let arrivedSemaphore = DispatchSemaphore(value: 0)
    private let releaseSemaphore = DispatchSemaphore(value: 0)
    func arrived() { arrivedSemaphore.signal() }
    func waitForArrival() { arrivedSemaphore.wait() }
    func release() { releaseSemaphore.signal() }
    func waitForRelease() { releaseSemaphore.wait() }
}

extension LiveServerTests {
    @Test func reportsHandlerFailuresAndRefusedRequests() throws {
        let events = PosixLock<[String]>([])
        let t = try TestServer.make(configure: { c in
            c.eventHandler = { event in events.withLock { $0.append(event.description) } }
        })
        defer { t.stop() }
        let c = try t.client()
        try c.send("GET /boom HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try c.readResponse().status == 500)
        try c.send("GET / HTTP/1.1\r\nHost : x\r\n\r\n")
        #expect(try c.readResponse().status == 400)
        let seen = events.withLock { $0 }
        #expect(seen.contains { $0.hasPrefix("handler for GET /boom failed") })
        #expect(seen.contains { $0.contains("400 invalid character in field name") })
    }
}
