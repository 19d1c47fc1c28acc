import Foundation
import PreludeHTTP
import PreludeStorage
import PreludeStore
import PreludeTestSupport
import Synchronization
import Testing

@testable import PreludeService

/// A full disk on PostgreSQL's side, simulated deterministically: PostgreSQL reports a write that cannot extend a
/// file or the WAL with SQLSTATE 53100 (`disk_full`), and here a statement trigger on every table and an event
/// trigger on DDL (the storage probe's `CREATE TABLE`) raise exactly that. The same answers as SQLite's full disk
/// (StorageFullTests): 503 with `Retry-After`, nothing stored, readiness off, and back by itself once there is room.
@Suite(.enabled(if: TestDatabase.isPostgres, "needs the throwaway PostgreSQL cluster"))
struct PostgresStorageFullTests {
    /// Makes every write fail with 53100 (the cluster's user is a superuser, as event triggers need).
    static func fill(_ database: Database) throws {
        try Self.outsideTheService(database) { db in
            try db.executeScript(
                """
                CREATE FUNCTION prelude_test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full';
                END $$;
                CREATE FUNCTION prelude_test_disk_full_ddl() RETURNS event_trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full';
                END $$;
                """)
            for table in try db.tableNames() {
                try db.executeScript(
                    """
                    CREATE TRIGGER prelude_test_disk_full BEFORE INSERT OR UPDATE OR DELETE ON \(table)
                    FOR EACH STATEMENT EXECUTE FUNCTION prelude_test_disk_full();
                    """)
            }
            // Last: from here on DDL fails too (event triggers do not fire for commands on event triggers).
            try db.executeScript(
                """
                CREATE EVENT TRIGGER prelude_test_disk_full_ddl ON ddl_command_start
                EXECUTE FUNCTION prelude_test_disk_full_ddl();
                """)
        }
    }

    /// Runs `body` on a session of its own, as an operator would: a commit there is not one of the service's writes,
    /// so it does not tell storage health that writes work again.
    static func outsideTheService(_ database: Database, _ body: (Connection) throws -> Void) throws {
        let connection = try database.openConnection(readOnly: false)
        defer { connection.close() }
        try body(connection)
    }

    /// Room again: drops the triggers.
    static func free(_ database: Database) throws {
        try Self.outsideTheService(database) { db in
            try db.executeScript("DROP EVENT TRIGGER prelude_test_disk_full_ddl;")
            try db.executeScript(
                "DROP FUNCTION prelude_test_disk_full() CASCADE; DROP FUNCTION prelude_test_disk_full_ddl();")
        }
    }

    @Test func aFullDiskAnswers503WithRetryAfterStoresNothingAndRecovers() throws {
        let server = try AdminServer()
        let database = server.service.database
        let port = server.service.port
        #expect(try TestTransport.live(port: port).get("/readyz").status == 200)
        let etag = try server.etag()
        try Self.fill(database)
        let before = try server.dump()

        let refused = try StorageFullTests.post(server, "/v1/apps/demo/events", StorageFullTests.bigBatch("a"))
        #expect(refused.status == 503)
        #expect(refused.headers["retry-after"] == "\(StorageHealth.retryAfterSeconds)")
        #expect(refused.headers["content-type"] == "application/problem+json")
        #expect((refused.json as? [String: Any])?["type"] as? String == StorageHealth.fullType)
        let put = try server.send(
            "PUT", "/v1/admin/apps/demo/policy", headers: [("If-Match", etag)],
            body: AdminServer.policyText.replacingOccurrences(of: #""name": "Demo""#, with: #""name": "Full""#))
        #expect(put.status == 503)
        #expect(put.headers["retry-after"] == "\(StorageHealth.retryAfterSeconds)")
        #expect((put.json as? [String: Any])?["type"] as? String == StorageHealth.fullType)
        #expect(try server.dump() == before)  // nothing acknowledged, nothing stored
        let ready = try TestTransport.live(port: port).get("/readyz")
        #expect(ready.status == 503)
        #expect((ready.json as? [String: String])?["reason"] == "database writes failing: storage full")
        #expect(try TestTransport.live(port: port).get("/v1/apps/demo/policy").status == 200, "served from memory")

        try Self.free(database)
        let stored = try StorageFullTests.post(server, "/v1/apps/demo/events", StorageFullTests.bigBatch("b"))
        #expect(stored.status == 202)
        #expect(try TestTransport.live(port: port).get("/readyz").status == 200)
        let put2 = try server.send(
            "PUT", "/v1/admin/apps/demo/policy", headers: [("If-Match", try server.etag())],
            body: AdminServer.policyText.replacingOccurrences(of: #""name": "Demo""#, with: #""name": "Room""#))
        #expect(put2.status == 200)
    }

    /// The storage probe is spelled for PostgreSQL too: readiness comes back with no client write.
    @Test func readinessProbesTheStorageAndRecoversWithoutAnyClientWrite() throws {
        let fixture = ServiceFixture()
        let database = try Database(location: DatabaseLocation(fixture.database), readerCount: 1)
        defer { database.close() }
        let migrator = Migrator(migrations: HealthRoutesTests.migrations)
        try migrator.migrate(database)
        let clock = StorageFullTests.Clock()
        let health = StorageHealth(
            database: database, probeInterval: 5,
            clock: ServiceClock { Int64((clock.now.withLock { $0 } * 1000).rounded()) })
        var router = Router()
        HealthRoutes.register(on: &router, database: database, migrator: migrator, storage: health) { false }
        let probe = HealthRoutesTests()
        #expect(try probe.call(router, "/readyz").0 == 200)

        try Self.fill(database)
        #expect(throws: StorageError.self) { try database.write { try $0.execute("INSERT INTO t (x) VALUES (1)") } }
        #expect(health.failingFault == .full)
        #expect(try probe.call(router, "/readyz").0 == 503)
        #expect(health.probes == 1)  // the probe ran and failed too

        try Self.free(database)
        clock.now.withLock { $0 += 5 }
        #expect(try probe.call(router, "/readyz").0 == 200)  // the probe wrote and committed
        #expect(health.probes == 2)
        #expect(health.failingFault == nil)
        #expect(try database.read { try $0.tableNames() } == ["schema_migrations", "t"])  // the probe left nothing
    }
}
