import Foundation
import PreludeStorage
import PreludeStore
import Testing

@testable import PreludeService

@Suite struct ServiceLiveTests {
    let fixture = ServiceFixture()

    @Test func servesHealthAndReadinessOverARealSocket() throws {
        let service = try PreludeService.start(
            configuration: ServiceFixture.make(fixture), logger: Logger(level: .error))
        defer { service.stop() }
        #expect(service.port > 0)

        let health = try TestTransport.live(port: service.port).get("/healthz")
        #expect(health.status == 200)
        #expect(health.headers["content-type"] == "application/json")
        let healthBody = try JSONSerialization.jsonObject(with: Data(health.body.utf8)) as? [String: String]
        #expect(healthBody?["status"] == "ok")

        let ready = try TestTransport.live(port: service.port).get("/readyz")
        #expect(ready.status == 200)
        let readyBody = try JSONSerialization.jsonObject(with: Data(ready.body.utf8)) as? [String: String]
        #expect(readyBody?["status"] == "ready")

        #expect(try TestTransport.live(port: service.port).get("/nope").status == 404)
    }

    @Test func firstStartSeedsTheDemoAsRevisionOneAndSecondStartKeepsIt() throws {
        let configuration = ServiceFixture.make(fixture)
        try PreludeService.start(configuration: configuration, logger: Logger(level: .error)).stop()
        // A changed file must not overwrite the stored revision on the next start.
        fixture.write("demo.json", #"{"changed": true}"#)
        let service = try PreludeService.start(configuration: configuration, logger: Logger(level: .error))
        let documents = try service.database.read { db in
            try db.query("SELECT document FROM policy_revisions WHERE app_id = 'demo' ORDER BY number").map {
                try $0.get(0, as: String.self)
            }
        }
        let live = try PolicyRepository(database: service.database).liveRevision(app: "demo", environment: "production")
        service.stop()
        #expect(documents == [ServiceFixture.demoDocument])  // stored byte for byte
        #expect(live == 1)
    }

    @Test func stopClosesTheDatabaseAndStopsListening() throws {
        let service = try PreludeService.start(
            configuration: ServiceFixture.make(fixture), logger: Logger(level: .error))
        let port = service.port
        service.stop()
        #expect(!service.database.isOpen)
        #expect(throws: (any Error).self) { try TestTransport.live(port: port).get("/healthz") }
    }

    @Test func refusesAnInvalidDemoPolicy() {
        fixture.write("demo.json", "not json")
        let error = #expect(throws: StartupError.self) {
            try PreludeService.start(configuration: ServiceFixture.make(fixture), logger: Logger(level: .error))
        }
        guard case .invalidDemoPolicy = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
    }

    @Test func refusesAMissingMigrationsDirectoryNamingTheSetting() {
        var configuration = ServiceFixture.make(fixture)
        configuration.migrationsDirectory = fixture.path("no-such-dir")
        let error = #expect(throws: StartupError.self) {
            try PreludeService.start(configuration: configuration, logger: Logger(level: .error))
        }
        #expect(error?.description.contains("PRELUDE_MIGRATIONS_DIR") == true)
    }

    @Test func refusesADatabaseMigratedByANewerBuild() throws {
        let configuration = ServiceFixture.make(fixture)
        try PreludeService.start(configuration: configuration, logger: Logger(level: .error)).stop()
        let database = try Database(path: configuration.database, readerCount: 1)
        try database.write { db in
            try db.execute(
                "INSERT INTO schema_migrations (number, name, checksum, applied_at) VALUES (9999, '9999_future', 'x', 'now')"
            )
        }
        database.close()
        #expect(throws: MigrationError.unknownMigration(name: "9999_future")) {
            try PreludeService.start(configuration: configuration, logger: Logger(level: .error))
        }
    }
}
