import Foundation
import PreludeHTTP
import PreludeStorage
import PreludeStore
import PreludeTestSupport
import Synchronization
import Testing

@testable import PreludeService

/// A full disk, simulated deterministically: `PRAGMA max_page_count` on the writer connection caps the database at
/// its current size, so the next write that needs a new page fails with SQLITE_FULL exactly as on a full disk.
@Suite(.enabled(if: !TestDatabase.isPostgres, "a SQLite file capped with max_page_count")) struct StorageFullTests {
    /// Caps the writer at the pages the file has now.
    static func capAtCurrentSize(_ database: Database) throws {
        try database.writeWithoutTransaction { db in
            let pages = try #require(try db.scalar("PRAGMA page_count", as: Int64.self))
            _ = try db.scalar("PRAGMA max_page_count = \(pages)", as: Int64.self)
        }
    }

    /// Lifts the cap (space is back).
    static func uncap(_ database: Database) throws {
        try database.writeWithoutTransaction { db in
            _ = try db.scalar("PRAGMA max_page_count = 1073741823", as: Int64.self)
        }
    }

    /// 500 events with the longest ids: far more than the free space left in the file's pages.
    static func bigBatch(_ tag: String) -> String {
        let padding = String(repeating: "x", count: 100)
        return EventsTests.batch(
            (0..<500).map { EventsTests.event("\(tag)-\($0)-\(padding)", install: "\(tag)-install-\(padding)") })
    }

    static func post(_ server: AdminServer, _ path: String, _ body: String) throws -> TestTransport.Response {
        try server.send("POST", path, token: nil, body: body, port: server.service.port)
    }

    @Test func aFullDiskAnswers503WithRetryAfterTurnsReadinessOffAndRecovers() throws {
        let server = try AdminServer()
        let database = server.service.database
        let port = server.service.port
        #expect(try TestTransport.live(port: port).get("/readyz").status == 200)

        // Read the ETag first: the token's first use writes its last_used_at, which would change the dump.
        let etag = try server.etag()
        try Self.capAtCurrentSize(database)
        let before = try server.dump()
        let refused = try Self.post(server, "/v1/apps/demo/events", Self.bigBatch("a"))
        #expect(refused.status == 503)
        #expect(refused.headers["retry-after"] == "\(StorageHealth.retryAfterSeconds)")
        #expect(refused.headers["content-type"] == "application/problem+json")
        #expect((refused.json as? [String: Any])?["type"] as? String == StorageHealth.fullType)

        // An admin write that needs space gets the same answer, not a generic 500.
        let longMessage = String(repeating: "You can record voice notes and keep them. ", count: 500)
        let bigger = AdminServer.policyText.replacingOccurrences(
            of: "{appName} records voice notes.", with: longMessage.trimmingCharacters(in: .whitespaces))
        let put = try server.send("PUT", "/v1/admin/apps/demo/policy", headers: [("If-Match", etag)], body: bigger)
        #expect(put.status == 503)
        #expect(put.headers["retry-after"] == "\(StorageHealth.retryAfterSeconds)")
        #expect((put.json as? [String: Any])?["type"] as? String == StorageHealth.fullType)
        #expect(try server.dump() == before)  // nothing acknowledged, nothing stored

        let ready = try TestTransport.live(port: port).get("/readyz")
        #expect(ready.status == 503)
        #expect(ready.headers["cache-control"] == "no-store")
        #expect((ready.json as? [String: String])?["reason"] == "database writes failing: storage full")
        let metrics = try TestTransport.live(port: port).get("/metrics").body
        #expect(metrics.contains("prelude_storage_writes_failing 1"))
        #expect(metrics.contains(#"prelude_storage_write_failures_total{fault="full"} "#))
        #expect(!metrics.contains(#"prelude_storage_write_failures_total{fault="full"} 0"#))

        // Space is back: the next write is stored and readiness returns by itself.
        try Self.uncap(database)
        let stored = try Self.post(server, "/v1/apps/demo/events", Self.bigBatch("b"))
        #expect(stored.status == 202)
        #expect(try TestTransport.live(port: port).get("/readyz").status == 200)
        #expect(try TestTransport.live(port: port).get("/metrics").body.contains("prelude_storage_writes_failing 0"))
        let put2 = try server.send(
            "PUT", "/v1/admin/apps/demo/policy", headers: [("If-Match", try server.etag())], body: bigger)
        #expect(put2.status == 200)
    }

    final class Clock: Sendable {
        let now = Mutex(1000.0)
    }

    @Test func readinessProbesTheStorageAndRecoversWithoutAnyClientWrite() throws {
        let fixture = ServiceFixture()
        let database = try Database(path: fixture.path("probe.sqlite"), readerCount: 1)
        defer { database.close() }
        let migrator = Migrator(migrations: HealthRoutesTests.migrations)
        try migrator.migrate(database)
        let clock = Clock()
        let health = StorageHealth(
            database: database, probeInterval: 5,
            clock: ServiceClock { Int64((clock.now.withLock { $0 } * 1000).rounded()) })
        var router = Router()
        HealthRoutes.register(on: &router, database: database, migrator: migrator, storage: health) { false }
        let probe = HealthRoutesTests()
        #expect(try probe.call(router, "/readyz").0 == 200)
        #expect(health.probes == 0)  // nothing failing: no probe

        try Self.capAtCurrentSize(database)
        #expect(throws: StorageError.self) {
            try database.write { db in
                try db.execute(
                    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) "
                        + "INSERT INTO t (x) SELECT i FROM n")
            }
        }
        #expect(health.failingFault == .full)
        let failing = try probe.call(router, "/readyz")
        #expect(failing.0 == 503)
        #expect(failing.1["reason"] == "database writes failing: storage full")
        #expect(health.probes == 1)  // the probe ran and failed too

        try Self.uncap(database)
        #expect(try probe.call(router, "/readyz").0 == 503)  // within the probe interval: no new probe
        #expect(health.probes == 1)
        clock.now.withLock { $0 += 5 }
        #expect(try probe.call(router, "/readyz").0 == 200)  // the probe wrote and committed
        #expect(health.probes == 2)
        #expect(health.failingFault == nil)
        // The probe leaves nothing behind.
        let tables = try database.read { try $0.query("SELECT name FROM sqlite_master WHERE name LIKE 'prelude_%'") }
        #expect(tables.isEmpty)
    }

    @Test func storageErrorsAreClassifiedByNamedCodes() {
        #expect(StorageError(extendedCode: StorageError.ResultCode.full, message: "").storageFault == .full)
        // SQLITE_IOERR_WRITE (778) and SQLITE_IOERR_FSYNC (1034) belong to the I/O family.
        #expect(StorageError(extendedCode: 778, message: "").storageFault == .ioError)
        #expect(StorageError(extendedCode: 1034, message: "").storageFault == .ioError)
        #expect(StorageError(extendedCode: StorageError.ResultCode.readOnly, message: "").storageFault == .readOnly)
        #expect(StorageError(extendedCode: StorageError.ResultCode.busy, message: "").storageFault == .busy)
        #expect(StorageError(extendedCode: 787, message: "").storageFault == nil)
        #expect(StorageError(extendedCode: 787, message: "").isForeignKeyViolation)
        #expect(StorageHealth.problem(for: StorageError(extendedCode: 2067, message: "")) == nil)
        let io = StorageHealth.problem(for: StorageError(extendedCode: 778, message: ""))
        #expect(io?.status == .serviceUnavailable)
        #expect(io?.type == StorageHealth.unavailableType)
        #expect(io?.headers["Retry-After"] == "30")
    }
}
