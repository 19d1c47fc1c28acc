import PreludeHTTP
import Testing

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
        #expect(r.header("Server") == "prelude")
        #expect(r.header("Date")?.hasSuffix("GMT") == true)
        #expect(r.header("Connection") == "keep-alive")
    }
}

extension LiveServerTests {
    @Test func runsBlockingHandlersOnTheWorkerPoolAndKeepsAlive() throws {
        let t = try TestServer.make()
        defer { t.stop() }
        let c = try t.client()
        try c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
        let r = try c.readResponse()
        #expect(r.status == 200)
        #expect(r.text == "hello")
        try c.send("GET /items/a%20b?q=x+y HTTP/1.1\r\nHost: x\r\n\r\n")
        let r2 = try c.readResponse()
        #expect(r2.text == #"{"id":"a b","q":"x y"}"#)
        try c.send("GET /nope HTTP/1.1\r\nHost: x\r\n\r\n")
        let r3 = try c.readResponse()
        #expect(r3.status == 404)
        #expect(r3.header("Content-Type") == "application/problem+json")
    }
}
