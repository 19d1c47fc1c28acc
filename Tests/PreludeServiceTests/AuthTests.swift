import Foundation
import PreludeHTTP
import PreludeStorage
import PreludeStore
import Synchronization
import Testing

@testable import PreludeService

/// Token secrets, the failure rate limiter and the bearer authenticator, in process with an injected clock.
@Suite struct AuthTests {
    @Test func generatedSecretsHavePrefixLengthAndAlphabet() {
        var seen: Set<String> = []
        for _ in 0..<50 {
            let secret = TokenSecret.generate()
            #expect(secret.hasPrefix("prl_"))
            #expect(secret.utf8.count == 4 + 43)
            #expect(secret.dropFirst(4).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
            #expect(TokenSecret.isAcceptable(secret))
            seen.insert(secret)
        }
        #expect(seen.count == 50)
    }

    @Test func constantTimeComparisonComparesWholeDigests() {
        let a = TokenSecret.digest("prl_a")
        var b = a
        #expect(TokenSecret.constantTimeEqual(a, b))
        b[31] ^= 1
        #expect(!TokenSecret.constantTimeEqual(a, b))
        b = a
        b[0] ^= 0x80
        #expect(!TokenSecret.constantTimeEqual(a, b))
        #expect(!TokenSecret.constantTimeEqual(a, Array(a.prefix(31))))
        #expect(a == SHA256.digest(Array("prl_a".utf8)))
    }

    @Test(arguments: [
        ("short", false), (String(repeating: "a", count: 31), false), (String(repeating: "a", count: 32), true),
        (String(repeating: "a", count: 31) + " ", false), (String(repeating: "é", count: 40), false),
        ("prl_" + String(repeating: "Z", count: 43), true), (String(repeating: "a", count: 513), false),
    ])
    func bootstrapSecretsMustBeLongAndHeaderSafe(secret: String, acceptable: Bool) {
        #expect(TokenSecret.isAcceptable(secret) == acceptable)
    }

    @Test func limiterBlocksAfterBurstAndRecoversAtTheRefillRate() {
        var limiter = FailureRateLimiter(burst: 10, window: 60)
        for _ in 0..<9 { limiter.recordFailure("10.0.0.1", now: 1000) }
        #expect(limiter.retryAfter("10.0.0.1", now: 1000) == nil)
        limiter.recordFailure("10.0.0.1", now: 1000)
        #expect(limiter.retryAfter("10.0.0.1", now: 1000) == 6)  // one allowance per 6 s
        #expect(limiter.retryAfter("10.0.0.1", now: 1004) == 2)
        #expect(limiter.retryAfter("10.0.0.1", now: 1006) == nil)
        #expect(limiter.retryAfter("10.0.0.2", now: 1000) == nil)  // per address
        limiter.recordFailure("10.0.0.1", now: 1006)
        #expect(limiter.retryAfter("10.0.0.1", now: 1006) == 6)
        #expect(limiter.retryAfter("10.0.0.1", now: 1066) == nil)
    }

    @Test func limiterForgetsRecoveredAddressesBeyondItsCapacity() {
        var limiter = FailureRateLimiter(burst: 2, window: 10, maxAddresses: 3)
        for index in 0..<3 { limiter.recordFailure("a\(index)", now: 0) }
        limiter.recordFailure("b", now: 100)  // a0…a2 have recovered by now
        #expect(limiter.trackedAddresses == 1)
        for index in 0..<5 { limiter.recordFailure("c\(index)", now: 100) }
        #expect(limiter.trackedAddresses <= 3)
    }

    @Test func clientAddressDropsThePort() {
        #expect(FailureRateLimiter.clientAddress("127.0.0.1:5555") == "127.0.0.1")
        #expect(FailureRateLimiter.clientAddress("::1:5555") == "::1")
        #expect(FailureRateLimiter.clientAddress("unix") == "unix")
    }

    @Test(
        arguments: [
            ("Bearer abc", "abc"), ("bearer abc", "abc"), ("BEARER  abc", "abc"), ("Basic abc", nil), ("Bearer", nil),
            ("Bearer a b", nil), ("abc", nil),
        ] as [(String, String?)])
    func bearerCredentialsParse(value: String, expected: String?) {
        #expect(AdminAuthenticator.bearerCredentials(value) == expected)
    }

    @Test func authenticatorMatrix() throws {
        let harness = try AuthHarness()
        let (_, write) = try harness.tokens.create(name: "ops", scope: .write, actor: "test", now: 1)
        let (_, read) = try harness.tokens.create(name: "viewer", scope: .read, actor: "test", now: 1)
        let (_, revoked) = try harness.tokens.create(name: "old", scope: .write, actor: "test", now: 1)
        try harness.tokens.revoke(name: "old", actor: "test", now: 2)

        #expect(try harness.authorize(write, .write).name == "ops")
        #expect(try harness.authorize(read, .read).name == "viewer")
        #expect(try harness.authorize(write, .read).name == "ops")  // write implies read

        let missing = harness.failure(nil, .read)
        #expect(missing.status == .unauthorized)
        #expect(missing.headers["WWW-Authenticate"] == #"Bearer realm="prelude""#)
        for secret in [write + "x", revoked, "Bearer-less"] {
            let problem = harness.failure(secret, .read)
            #expect(problem.status == .unauthorized)
            #expect(problem.headers["WWW-Authenticate"] == #"Bearer realm="prelude", error="invalid_token""#)
        }
        let forbidden = harness.failure(read, .write)
        #expect(forbidden.status == .forbidden)
        #expect(
            forbidden.headers["WWW-Authenticate"]
                == #"Bearer realm="prelude", error="insufficient_scope", scope="write""#)
        // A token in the query string is refused even when it is valid.
        let query = harness.failure(nil, .read, query: [("access_token", write)])
        #expect(query.status == .unauthorized)
    }

    @Test func badTokensFromOneSourceGet429ButAValidTokenIsNeverRefused() throws {
        let harness = try AuthHarness()
        let (_, good) = try harness.tokens.create(name: "ops", scope: .write, actor: "test", now: 1)
        for _ in 0..<10 { #expect(harness.failure("prl_wrong", .read).status == .unauthorized) }
        // The limit is exhausted for this address: bad tokens keep getting 429 with Retry-After ...
        for _ in 0..<3 {
            let limited = harness.failure("prl_wrong", .read)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers["Retry-After"] == "6")
        }
        // ... and a valid token from the very same address still gets through (issue 13: one wrong token must not
        // lock every operator behind one NAT or load balancer out).
        #expect(try harness.authorize(good, .read).name == "ops")
        #expect(try harness.authorize(good, .write).name == "ops")
        #expect(harness.failure("prl_wrong", .read).status == .tooManyRequests)
        // A request with no credentials guesses nothing: it keeps getting a plain 401, never 429.
        let bare = harness.failure(nil, .read)
        #expect(bare.status == .unauthorized)
        #expect(bare.headers["WWW-Authenticate"] == #"Bearer realm="prelude""#)
        // Another address is not affected; the first recovers after Retry-After seconds (the 429s above counted
        // as failures too, so it waits for one allowance to come back).
        #expect(harness.failure("prl_wrong", .read, address: "10.9.9.9:1").status == .unauthorized)
        harness.advance(6)
        #expect(harness.failure("prl_wrong", .read).status == .unauthorized)
    }

    @Test func failuresBehindATrustedProxyCountPerForwardedClient() throws {
        let harness = try AuthHarness(proxies: try TrustedProxies(parsing: "10.0.0.0/8"))
        let (_, good) = try harness.tokens.create(name: "ops", scope: .write, actor: "test", now: 1)
        let proxy = "10.1.2.3:443"
        func forwarded(_ client: String) -> [(String, String)] { [("X-Forwarded-For", "\(client), 10.0.0.9")] }
        for _ in 0..<10 {
            #expect(
                harness.failure("prl_wrong", .read, address: proxy, headers: forwarded("203.0.113.7")).status
                    == .unauthorized)
        }
        #expect(
            harness.failure("prl_wrong", .read, address: proxy, headers: forwarded("203.0.113.7")).status
                == .tooManyRequests)
        // Another client behind the same proxy has its own budget.
        #expect(
            harness.failure("prl_wrong", .read, address: proxy, headers: forwarded("198.51.100.4")).status
                == .unauthorized)
        // An untrusted peer's X-Forwarded-For is ignored: it is counted under its own address.
        for _ in 0..<10 {
            _ = harness.failure("prl_wrong", .read, address: "192.0.2.1:5", headers: forwarded("198.51.100.99"))
        }
        #expect(
            harness.failure("prl_wrong", .read, address: "192.0.2.1:5", headers: forwarded("198.51.100.50")).status
                == .tooManyRequests)
        #expect(
            harness.failure("prl_wrong", .read, address: proxy, headers: forwarded("198.51.100.99")).status
                == .unauthorized)
        #expect(try harness.authorize(good, .read, address: proxy).name == "ops")
    }

    @Test func lastUsedIsWrittenAtMostOncePerInterval() throws {
        let harness = try AuthHarness()
        let (_, secret) = try harness.tokens.create(name: "ops", scope: .write, actor: "test", now: 1)
        _ = try harness.authorize(secret, .read)
        let first = try #require(try harness.tokens.list().first?.lastUsedAt)
        harness.advance(30)
        _ = try harness.authorize(secret, .read)
        #expect(try harness.tokens.list().first?.lastUsedAt == first)
        harness.advance(31)
        _ = try harness.authorize(secret, .read)
        #expect(try harness.tokens.list().first?.lastUsedAt == first + 61_000)
    }

    @Test func failuresAreLoggedWithoutTheSecret() throws {
        let harness = try AuthHarness()
        let (_, secret) = try harness.tokens.create(name: "ops", scope: .read, actor: "test", now: 1)
        _ = harness.failure(secret + "nope", .read)
        _ = harness.failure(secret, .write)
        _ = try harness.authorize(secret, .read)
        let lines = harness.logLines()
        #expect(lines.contains { $0.contains("admin authentication failed") })
        #expect(!lines.contains { $0.contains(secret) })
    }

    @Test func serviceConfigurationNeverPrintsTheBootstrapSecret() throws {
        let secret = "s3cret-9f2Kq7ZxPm4Rt8WvB1nYc6HdJ0gLe5Uo3AsXi"
        #expect(TokenSecret.estimatedEntropyBits(secret) >= TokenSecret.minimumEntropyBits)
        let configuration = try ServiceConfiguration.resolve(
            fileText: nil, environment: ["PRELUDE_ADMIN_TOKEN": secret], flags: [:])
        #expect(configuration.adminToken?.value == secret)
        #expect(!"\(configuration)".contains(secret))
        #expect(!String(reflecting: configuration).contains(secret))
        let error = #expect(throws: ConfigurationError.self) {
            try ServiceConfiguration.resolve(fileText: nil, environment: ["PRELUDE_ADMIN_TOKEN": "short"], flags: [:])
        }
        #expect(error?.setting == "PRELUDE_ADMIN_TOKEN")
        #expect(error?.description.contains("short") == false)
    }

    /// The failure limiter bounds the rate of guesses, not their number (docs/security.md): an operator-chosen
    /// bootstrap token must be hard to guess, so one with less than 128 bits of estimated entropy is refused at
    /// start, naming how to generate one and never echoing the value.
    @Test func lowEntropyBootstrapTokenIsRefusedWithHowToGenerateOne() throws {
        for weak in [
            String(repeating: "x", count: 40), "password-password-password-password",
            "abcdefabcdefabcdefabcdefabcdefabcdef",
        ] {
            let error = #expect(throws: ConfigurationError.self) {
                try ServiceConfiguration.resolve(fileText: nil, environment: ["PRELUDE_ADMIN_TOKEN": weak], flags: [:])
            }
            #expect(error?.setting == "PRELUDE_ADMIN_TOKEN")
            #expect(error?.description.contains("openssl rand -hex 32") == true)
            #expect(error?.description.contains(weak) == false)
        }
        #expect(TokenSecret.estimatedEntropyBits(String(repeating: "x", count: 40)) == 0)
        // What the docs tell operators to use, and the generated `prl_` secrets, pass.
        var generator = SystemRandomNumberGenerator()
        let hex = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        #expect(TokenSecret.estimatedEntropyBits(hex) >= TokenSecret.minimumEntropyBits)
        #expect(
            (try ServiceConfiguration.resolve(fileText: nil, environment: ["PRELUDE_ADMIN_TOKEN": hex], flags: [:]))
                .adminToken?.value == hex)
    }

    @Test func adminListenerSettingsParse() throws {
        let configuration = try ServiceConfiguration.resolve(
            fileText: #"{"adminPort": 9091}"#, environment: ["PRELUDE_ADMIN_HOST": "10.0.0.5"], flags: [:])
        #expect(configuration.adminPort == 9091)
        #expect(configuration.adminHost == "10.0.0.5")
        #expect(throws: ConfigurationError.self) {
            try ServiceConfiguration.resolve(fileText: nil, environment: [:], flags: [.adminPort: "70000"])
        }
    }
}

/// A migrated database, a token store and an authenticator with a settable clock and a captured log.
final class AuthHarness: Sendable {
    let directory: TemporaryTestDirectory
    let database: Database
    let tokens: TokenStore
    let authenticator: AdminAuthenticator
    let clock = TestClock()
    private let lines = LockedLines()

    init(proxies: TrustedProxies = TrustedProxies()) throws {
        directory = TemporaryTestDirectory()
        database = try Database(path: directory.path("auth.sqlite"))
        let migrations = try MigrationCatalog.load(directory: ServiceFixture.repositoryRoot + "/migrations")
        _ = try Migrator(migrations: migrations).migrate(database)
        tokens = TokenStore(database: database)
        let lines = self.lines
        let clock = self.clock
        authenticator = AdminAuthenticator(
            tokens: tokens, logger: Logger(level: .debug) { lines.append($0) }, proxies: proxies,
            clock: ServiceClock { AdminTime.milliseconds(clock.now) })
    }

    deinit { database.close() }

    func advance(_ seconds: Double) { clock.advance(seconds) }
    func logLines() -> [String] { lines.all }

    func request(
        _ secret: String?, address: String, query: [(name: String, value: String)] = [],
        headers extra: [(String, String)] = []
    ) -> HTTPRequest {
        var headers = HTTPHeaders()
        if let secret { headers.add("Authorization", "Bearer \(secret)") }
        for (name, value) in extra { headers.add(name, value) }
        return HTTPRequest(method: .get, path: "/v1/admin/apps", query: query, headers: headers, remoteAddress: address)
    }

    func authorize(_ secret: String, _ scope: TokenScope, address: String = "127.0.0.1:40000") throws -> AdminToken {
        try authenticator.authorize(request(secret, address: address), required: scope)
    }

    func failure(
        _ secret: String?, _ scope: TokenScope, address: String = "127.0.0.1:40000",
        query: [(name: String, value: String)] = [], headers: [(String, String)] = []
    ) -> ProblemDetails {
        do {
            _ = try authenticator.authorize(
                request(secret, address: address, query: query, headers: headers), required: scope)
            return ProblemDetails(status: .ok)
        } catch {
            return error
        }
    }
}

/// A directory removed when the value is released.
final class TemporaryTestDirectory: Sendable {
    let root: String
    init() {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("prelude-admin-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: root) }
    func path(_ name: String) -> String { root + "/" + name }
}

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let seconds = Mutex(1_800_000_000.0)
    var now: Date { Date(timeIntervalSince1970: seconds.withLock { $0 }) }
    func advance(_ delta: Double) { seconds.withLock { $0 += delta } }

    @Test func failureLimitIsASettingNamedWhenBad() throws {
        #expect(
            try ServiceConfiguration.resolve(fileText: nil, environment: [:], flags: [:]).adminAuthFailuresPerMinute
                == 10)
        let configured = try ServiceConfiguration.resolve(
            fileText: #"{"adminAuthFailuresPerMinute": 20}"#,
            environment: ["PRELUDE_ADMIN_AUTH_FAILURES_PER_MINUTE": "500"], flags: [:])
        #expect(configured.adminAuthFailuresPerMinute == 500)
        for bad in ["0", "-3", "many", "100001"] {
            let error = #expect(throws: ConfigurationError.self) {
                try ServiceConfiguration.resolve(
                    fileText: nil, environment: [:], flags: [.adminAuthFailuresPerMinute: bad])
            }
            #expect(error?.setting == "--admin-auth-failures-per-minute")
        }
    }
}
