import Foundation
import PreludeHTTP
import PreludeStorage
import Synchronization
import Testing

@testable import PreludeService

/// In-process: the readiness handler's answers for each state, without a socket.
@Suite struct HealthRoutesTests {
    let fixture = ServiceFixture()

    final class Flag: Sendable {
        let value = Mutex(false)
    }

    static let migrations = [Migration(number: 1, name: "0001_t", sql: "CREATE TABLE t (x INTEGER);")]

    func call(_ router: Router, _ path: String) throws -> (Int, [String: String]) {
        guard case .found(let route, _) = router.match(method: .get, path: path) else {
            Issue.record("no route for \(path)")
            return (0, [:])
        }
        let response = try route.handler(HTTPRequest(method: .get, path: path))
        let body = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: String] ?? [:]
        return (response.status.code, body)
    }

    @Test func readinessFollowsMigrationsDatabaseAndDraining() throws {
        let database = try Database(path: fixture.path("h.sqlite"), readerCount: 1)
        let migrator = Migrator(migrations: Self.migrations)
        let draining = Flag()
        var router = Router()
        HealthRoutes.register(on: &router, database: database, migrator: migrator) { draining.value.withLock { $0 } }

        let pending = try call(router, "/readyz")
        #expect(pending.0 == 503)
        #expect(pending.1["reason"] == "1 migrations pending")

        try migrator.migrate(database)
        #expect(try call(router, "/readyz").0 == 200)
        #expect(try call(router, "/healthz").1["status"] == "ok")

        draining.value.withLock { $0 = true }
        #expect(try call(router, "/readyz").1["reason"] == "shutting down")
        draining.value.withLock { $0 = false }

        database.close()
        let closed = try call(router, "/readyz")
        #expect(closed.0 == 503)
        #expect(closed.1["reason"] == "database closed")
        #expect(try call(router, "/healthz").0 == 200)  // liveness does not depend on the database
    }

    @Test func healthAnswersAreNeverServedFromACache() throws {
        let database = try Database(path: fixture.path("c.sqlite"), readerCount: 1)
        let migrator = Migrator(migrations: Self.migrations)
        var router = Router()
        HealthRoutes.register(on: &router, database: database, migrator: migrator) { false }
        func cacheControl(_ path: String) throws -> (Int, String?) {
            guard case .found(let route, _) = router.match(method: .get, path: path) else { return (0, nil) }
            let response = try route.handler(HTTPRequest(method: .get, path: path))
            return (response.status.code, response.headers["Cache-Control"])
        }
        // RFC 9111 §5.2.2.5: no-store on every answer, ready or not.
        #expect(try cacheControl("/healthz") == (200, "no-store"))
        #expect(try cacheControl("/readyz") == (503, "no-store"))
        try migrator.migrate(database)
        #expect(try cacheControl("/readyz") == (200, "no-store"))
        database.close()
    }
}
