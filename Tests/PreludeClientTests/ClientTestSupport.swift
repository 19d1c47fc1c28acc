import Foundation
import PreludeClient
import PreludeCore
import PreludeStorage
import PreludeTestSupport
import Synchronization
import Testing

@testable import PreludeService

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A clock the test moves by hand.
final class TestClock: PreludeClock {
    private let seconds: Mutex<Double>

    /// Starts at the real time (the events endpoint refuses events more than a day ahead of its own clock).
    init(_ start: Double = Date().timeIntervalSince1970.rounded()) { seconds = Mutex(start) }

    func now() -> Instant { Instant(secondsSinceEpoch: seconds.withLock { $0 }) }

    func advance(_ delta: Double) { seconds.withLock { $0 += delta } }
}

/// Seeded jitter (SplitMix64).
final class TestJitter: JitterSource {
    private let generator: Mutex<SplitMix64>

    init(seed: UInt64 = 1) { generator = Mutex(SplitMix64(state: seed)) }

    func nextUnit() -> Double { generator.withLock { $0.unit() } }
}

/// The real URLSession transport, with every request and answer kept for assertions.
final class RecordingTransport: PreludeTransport {
    private let inner = URLSessionTransport(timeout: 10)
    private let log = Mutex<[(TransportRequest, Int?)]>([])

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        do {
            let response = try await inner.send(request)
            log.withLock { $0.append((request, response.status)) }
            return response
        } catch {
            log.withLock { $0.append((request, nil)) }
            throw error
        }
    }

    /// The requests so far with their status (nil: no response).
    var requests: [(TransportRequest, Int?)] { log.withLock { $0 } }
}

/// A temporary directory for the client's files and the server's database, and the real demo policy.
final class ClientFixture {
    let directory: String
    static let repositoryRoot = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
    static let demoPolicyPath = repositoryRoot + "/config/demo-policy.json"
    static let demoPolicyText = try! String(contentsOfFile: demoPolicyPath, encoding: .utf8)
    static let demoDocument = PolicyValidator.validate(text: demoPolicyText).document!

    let clock = TestClock()
    let transport = RecordingTransport()
    /// The clients' foreground signal: a test fires it with `activate()` (the process's `application` signal is
    /// never used by tests).
    let foreground = ForegroundSignal()

    init() {
        directory = (FileManager.default.temporaryDirectory.path as NSString)
            .appendingPathComponent("prelude-client-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        database = TestDatabase.location(file: (directory as NSString).appendingPathComponent("prelude.sqlite"))
    }

    /// The server's database: a file in `directory`, or a fresh PostgreSQL database (``TestDatabase``).
    let database: String

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }

    /// The whole service in-process on 127.0.0.1 (port 0 unless given), seeded with the demo policy; with
    /// `adminToken`, its admin API answers that bearer token.
    func startService(port: Int = 0, adminToken: String? = nil) throws -> PreludeService {
        var configuration = ServiceConfiguration()
        configuration.adminToken = adminToken.map { RedactedSecret($0) }
        configuration.port = port
        configuration.database = database
        configuration.migrationsDirectory = Self.repositoryRoot + "/migrations"
        configuration.demoPolicy = Self.demoPolicyPath
        configuration.shutdownGracePeriod = 2
        configuration.logLevel = .error
        return try PreludeService.start(configuration: configuration, logger: Logger(level: .error))
    }

    /// A client of `port`, storing in `storage` (a name in this directory), bootstrapped with the demo policy.
    func makeClient(
        port: Int, storage: String = "client", bootstrap: Bool = true, installId: String? = "install-1",
        locale: String? = "en", jitter: UInt64 = 1, environment: String = "production"
    ) throws -> PreludeClient {
        try PreludeClient(
            configuration: configuration(
                port: port, storage: storage, bootstrap: bootstrap,
                context: ClientContext(
                    platform: .ios, osVersion: SemanticVersion("17.4"), appVersion: SemanticVersion("2.3.0"),
                    locale: locale, installId: installId),
                jitter: jitter, environment: environment))
    }

    /// The configuration ``makeClient`` uses: this fixture's transport, clock and foreground signal.
    func configuration(
        port: Int, storage: String = "client", bootstrap: Bool = true, context: ClientContext, jitter: UInt64 = 1,
        environment: String = "production"
    ) -> PreludeClientConfiguration {
        var configuration = PreludeClientConfiguration(
            server: URL(string: "http://127.0.0.1:\(port)")!, app: "demo",
            storageDirectory: URL(fileURLWithPath: path(storage)),
            bootstrapPolicy: bootstrap ? Data(Self.demoPolicyText.utf8) : nil)
        configuration.context = context
        configuration.transport = transport
        configuration.clock = clock
        configuration.jitter = TestJitter(seed: jitter)
        configuration.foregroundSignal = foreground
        configuration.environment = environment
        return configuration
    }

    /// A port nothing listens on: one the kernel handed out and that was closed again.
    static func closedPort() throws -> Int {
        let fixture = ClientFixture()
        let service = try fixture.startService()
        let port = service.port
        service.stop()
        return port
    }

    /// The number of events the server stored, and the distinct client ids among them.
    static func storedEvents(_ service: PreludeService) throws -> (count: Int64, ids: Set<String>) {
        try service.database.read { db in
            let count = try db.scalar("SELECT count(*) FROM events", as: Int64.self) ?? -1
            let rows = try db.query("SELECT client_event_id FROM events")
            return (count, Set(try rows.map { try $0.get("client_event_id", as: String.self) }))
        }
    }

    /// The demo document with the camera priming title replaced in English.
    static func demoDocument(cameraTitle: String) -> PolicyDocument {
        var document = demoDocument
        var camera = document.features[.camera]!
        let english = LocaleTag("en")!
        var copy = camera.settings.copy[english] ?? CopySet()
        copy.texts[CopyKey(.prime, .title)] = cameraTitle
        camera.settings.copy[english] = copy
        document.features[.camera] = camera
        return document
    }
}
