import Foundation
import PreludeCore
import PreludeHTTP
import Synchronization
import Testing

@testable import PreludeService

@Suite struct RequestLogTests {
    /// A raw HTTP/1.1 exchange over a fresh socket: send `request` as is, read until the server closes.
    enum Client {
        struct Response {
            let status: Int
            let headers: [String: String]
            let body: [UInt8]
        }

        static func exchange(port: Int, _ request: String) throws -> Response {
            let response = try TestTransport.live(port: port).exchange(Array(request.utf8))
            return Response(status: response.status, headers: response.headers, body: response.bytes)
        }
    }

    final class Lines: Sendable {
        let value = Mutex<[String]>([])
        var all: [String] { value.withLock { $0 } }
        var logger: Logger { Logger(level: .info) { line in self.value.withLock { $0.append(line) } } }

        /// The parsed `"msg":"request"` lines.
        func requests() -> [[String: Any]] {
            all.compactMap { line in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    object["msg"] as? String == "request"
                else { return nil }
                return object
            }
        }
    }

    let fixture = ServiceFixture()

    /// A generated request id: 16 lowercase hex digits.
    static func isGenerated(_ id: String) -> Bool {
        id.utf8.count == 16 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    @Test func rendersEveryFieldAsJSONWithNumbersAndNullRoute() throws {
        let completed = CompletedRequest(
            method: .get, route: nil, status: 404, durationNanoseconds: 1_234_567, bytesSent: 321,
            requestID: "abc\"d", remoteAddress: "127.0.0.1:5000")
        let lines = Lines()
        RequestLog(logger: lines.logger).record(completed)
        let line = try #require(lines.all.first)
        #expect(line.contains(#""route":null,"status":404,"duration_ms":1.235,"bytes":321,"#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["level"] as? String == "info")
        #expect(object["method"] as? String == "GET")
        #expect(object["request_id"] as? String == "abc\"d")
        #expect(object["remote"] as? String == "127.0.0.1:5000")
        #expect(
            Set(object.keys) == [
                "time", "level", "msg", "method", "route", "status", "duration_ms", "bytes",
                "request_id", "remote",
            ])
    }

    @Test(arguments: [
        (UInt64(0), "0.000"), (499, "0.000"), (500, "0.001"), (1_000_000, "1.000"), (12_345_678_901, "12345.679"),
    ])
    func formatsMilliseconds(nanoseconds: UInt64, expected: String) {
        #expect(RequestLog.milliseconds(nanoseconds) == expected)
    }

    @Test(arguments: [
        "", "GET", "/v1/apps/{app}/policy", "127.0.0.1:51234", "[::1]:8080", "quote\"in", "back\\slash",
        "tab\tnew\nline",
        "bell\u{07}", "del\u{7F}", "é→🙂", "\u{1F}\u{20}",
    ])
    func quotesAsAJSONStringThatDecodesBack(text: String) throws {
        // Foundation's JSON parser is the independent oracle for both the plain fast path and the escaping path.
        let quoted = JSONValue.quoted(text)
        let decoded = try JSONSerialization.jsonObject(with: Data("[\(quoted)]".utf8)) as? [String]
        #expect(decoded == [text])
        #expect(!quoted.dropFirst().dropLast().contains("\n"))
    }

    @Test func isSilentAboveInfo() {
        let lines = Lines()
        let logger = Logger(level: .notice) { line in lines.value.withLock { $0.append(line) } }
        RequestLog(logger: logger).record(
            CompletedRequest(
                method: .get, route: "/healthz", status: 200, durationNanoseconds: 1, bytesSent: 1, requestID: "x",
                remoteAddress: "r"))
        #expect(lines.all.isEmpty)
    }

    @Test func logsOneLinePerRequestWithRequestIDAndNeverTheCredentials() throws {
        let lines = Lines()
        var configuration = ServiceFixture.make(fixture)
        configuration.logLevel = .info
        let secret = "prelude_secret_DO_NOT_LOG_8f3a"
        let service = try PreludeService.start(configuration: configuration, logger: lines.logger)
        let port = service.port

        let health = try Client.exchange(
            port: port,
            "GET /healthz?token=\(secret) HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(secret)\r\n"
                + "Cookie: session=\(secret)\r\nX-Request-ID: client-id-1\r\nConnection: close\r\n\r\n")
        #expect(health.status == 200)
        let admin = try Client.exchange(
            port: port,
            "GET /v1/admin/apps HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(secret)\r\nConnection: close\r\n\r\n")
        #expect(admin.status == 401)
        let missing = try Client.exchange(port: port, "GET /nope HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        #expect(missing.status == 404)
        service.stop()

        let requests = lines.requests()
        #expect(requests.count == 3)
        let first = try #require(requests.first)
        #expect(first["method"] as? String == "GET")
        #expect(first["route"] as? String == "/healthz")
        #expect(first["status"] as? Int == 200)
        #expect(first["request_id"] as? String == "client-id-1")
        #expect((first["bytes"] as? Int ?? 0) > health.body.count)
        #expect((first["duration_ms"] as? Double ?? -1) >= 0)
        #expect((first["remote"] as? String)?.hasPrefix("127.0.0.1:") == true)
        #expect(requests[1]["route"] as? String == "/v1/admin/apps")
        #expect(requests[1]["status"] as? Int == 401)
        #expect(requests[1]["request_id"] as? String == admin.headers["x-request-id"])
        #expect(requests[2]["route"] is NSNull)
        #expect(requests[2]["status"] as? Int == 404)
        #expect(requests[2]["request_id"] as? String == missing.headers["x-request-id"])
        // Start, listening, shutdown and every request line are there; the secret is in none of them.
        let all = lines.all
        #expect(all.contains { $0.contains(#""msg":"listening""#) })
        #expect(all.contains { $0.contains(#""msg":"stopped""#) })
        #expect(!all.contains { $0.contains(secret) }, "a credential reached the log")
    }

    @Test func acceptsAValidClientRequestIDAndEchoesIt() throws {
        let service = try PreludeService.start(
            configuration: ServiceFixture.make(fixture), logger: Logger(level: .error))
        defer { service.stop() }
        let id = String(repeating: "a", count: 120) + "-_.:/+="
        let response = try Client.exchange(
            port: service.port, "GET /healthz HTTP/1.1\r\nHost: t\r\nX-Request-ID: \(id)\r\nConnection: close\r\n\r\n")
        #expect(response.headers["x-request-id"] == id)
    }

    @Test(arguments: [
        String(repeating: "a", count: 129),  // too long
        "has space",
        "caf\u{E9}",  // not ASCII
        "",
    ])
    func replacesAnInvalidClientRequestID(_ bad: String) throws {
        let service = try PreludeService.start(
            configuration: ServiceFixture.make(fixture), logger: Logger(level: .error))
        defer { service.stop() }
        let response = try Client.exchange(
            port: service.port,
            "GET /healthz HTTP/1.1\r\nHost: t\r\nX-Request-ID: \(bad)\r\nConnection: close\r\n\r\n")
        let generated = try #require(response.headers["x-request-id"])
        #expect(generated != bad)
        #expect(Self.isGenerated(generated))
    }

    @Test func generatesDistinctIDsAlsoForEngineErrors() throws {
        let service = try PreludeService.start(
            configuration: ServiceFixture.make(fixture), logger: Logger(level: .error))
        defer { service.stop() }
        var seen: Set<String> = []
        for _ in 0..<20 {
            let response = try Client.exchange(
                port: service.port, "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            seen.insert(try #require(response.headers["x-request-id"]))
        }
        #expect(seen.count == 20)
        // A request refused while parsing (bare LF → 400) still gets an id.
        let refused = try Client.exchange(port: service.port, "GET /healthz HTTP/1.1\nHost: t\n\n")
        #expect(refused.status == 400)
        #expect(refused.headers["x-request-id"].map(Self.isGenerated) == true)
    }
}

@Suite struct RequestLogTimestampTests {
    @Test func timestampIsUTCWithMillisecondsAndMatchesTheClock() throws {
        let before = Date()
        let text = Logger.timestamp()
        let after = Date()
        #expect(text.utf8.count == 24)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let parsed = try #require(formatter.date(from: text))
        // Truncated to the millisecond, so up to 1 ms before `before`.
        #expect(parsed.timeIntervalSince(before) > -0.002)
        #expect(parsed.timeIntervalSince(after) <= 0.001)
        #expect(text.hasSuffix("Z"))
    }
}

/// Fields for log pipelines (Loki, Elasticsearch): the app, the admin token's name, the request id on every line a
/// request causes, numbers as numbers.
@Suite struct RequestLogFieldsTests {
    let fixture = ServiceFixture()

    @Test func requestLinesCarryTheAppAndTheTokenNameAndAdminLinesTheRequestID() throws {
        let lines = RequestLogTests.Lines()
        var configuration = ServiceFixture.make(fixture)
        configuration.logLevel = .info
        let secret = "prelude_admin_secret_DO_NOT_LOG_0123456789abcdef"
        configuration.adminToken = RedactedSecret(secret)
        let service = try PreludeService.start(configuration: configuration, logger: lines.logger)
        let port = service.port
        defer { service.stop() }

        let document = try RequestLogTests.Client.exchange(
            port: port, "GET /v1/apps/demo/policy/document HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        let body = #"{"name":"ci-reader","scope":"read"}"#
        let created = try RequestLogTests.Client.exchange(
            port: port,
            "POST /v1/admin/tokens HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(secret)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nX-Request-ID: trace-42\r\n"
                + "Connection: close\r\n\r\n\(body)")
        #expect(created.status == 201)

        let requests = lines.requests()
        let public_ = try #require(requests.first { $0["route"] as? String == "/v1/apps/{app}/policy/document" })
        #expect(public_["app"] as? String == "demo")
        #expect(public_["request_id"] as? String == document.headers["x-request-id"])
        #expect(public_["token"] == nil)
        let admin = try #require(requests.first { $0["route"] as? String == "/v1/admin/tokens" })
        #expect(admin["token"] as? String == "bootstrap")
        #expect(admin["request_id"] as? String == "trace-42")
        #expect(admin["app"] == nil)

        // The line the admin call caused carries its request id.
        let parsed = lines.all.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let tokenCreated = try #require(parsed.first { $0["msg"] as? String == "admin token created" })
        #expect(tokenCreated["request_id"] as? String == "trace-42")
        #expect(!lines.all.contains { $0.contains(secret) }, "a credential reached the log")
        // Numbers are JSON numbers.
        let listening = try #require(parsed.first { $0["msg"] as? String == "listening" })
        #expect((listening["port"] as? NSNumber)?.intValue == port)
        #expect(!(listening["port"] is String))
    }

    @Test func refusedAuthenticationAndProtocolErrorLinesCarryTheRequestID() throws {
        let lines = RequestLogTests.Lines()
        var configuration = ServiceFixture.make(fixture)
        configuration.logLevel = .debug
        configuration.adminToken = RedactedSecret("prelude_admin_secret_0123456789abcdef0123456789")
        let logger = Logger(level: .debug) { line in lines.value.withLock { $0.append(line) } }
        let service = try PreludeService.start(configuration: configuration, logger: logger)
        let port = service.port
        defer { service.stop() }

        let refused = try RequestLogTests.Client.exchange(
            port: port,
            "GET /v1/admin/apps HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer wrong\r\nX-Request-ID: trace-7\r\n"
                + "Connection: close\r\n\r\n")
        #expect(refused.status == 401)
        let malformed = try RequestLogTests.Client.exchange(port: port, "GET / HTTP/9.9\r\nHost: t\r\n\r\n")
        let malformedID = try #require(malformed.headers["x-request-id"])

        let parsed = lines.all.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let failure = try #require(parsed.first { $0["msg"] as? String == "admin authentication failed" })
        #expect(failure["request_id"] as? String == "trace-7")
        let protocolError = try #require(parsed.first { $0["msg"] as? String == "request refused" })
        #expect(protocolError["request_id"] as? String == malformedID)
    }

    @Test(arguments: [(8080.0, "8080"), (0.25, "0.25"), (-3, "-3"), (Double.nan, "null"), (1e300, "1e+300")])
    func rendersNumbersAsJSONNumbers(value: Double, expected: String) {
        #expect(Logger.number(value) == expected)
    }
}
