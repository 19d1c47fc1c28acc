import Foundation
import PreludeStorage
import PreludeTestSupport
import Testing

@testable import PreludeService

/// `prelude copy` between the engines (docs/storage.md, "Moving a database"); runs when the suite has a PostgreSQL
/// cluster (`PRELUDE_TEST_POSTGRES`, which `.ci/run` provides).
@Suite(.enabled(if: TestDatabase.isPostgres, "needs the throwaway PostgreSQL cluster")) struct DatabaseCopyTests {
    /// A SQLite database with revisions, events, a token and audit records goes to PostgreSQL and back: every
    /// table's rows arrive, the policy is served with the same ETag and bytes, and the results count every event.
    @Test func roundTripKeepsEveryRowAndEveryETag() throws {
        let fixture = ServiceFixture()
        let policy = ServiceFixture.repositoryRoot + "/config/demo-policy.json"
        let original = fixture.path("original.sqlite")
        let environment = ["PRELUDE_ADMIN_TOKEN": AdminServer.secret]
        let server = try ServerProcess.start(database: original, policy: policy, environment: environment)
        let events = (0..<30).map {
            #"{"id":"e\#($0)","installId":"install-\#($0 % 7)","type":"primeShown","feature":"camera","occurredAt":1795350000000}"#
        }
        let posted = try TestTransport.live(port: server.port).exchange(
            AdminRequest.bytes(
                "POST", "/v1/apps/demo/events", token: nil, headers: [("Content-Type", "application/json")],
                body: #"{"events":[\#(events.joined(separator: ","))]}"#))
        #expect(posted.status == 202)
        let served = try TestTransport.live(port: server.port).get("/v1/apps/demo/policy/document")
        server.killHard()
        let token = try CommandLineTests.runPrelude(
            ["token", "create", "--name", "ci", "--scope", "read", "--database", original], in: fixture.directory)
        #expect(token.status == 0, "\(token.stderr)")

        let postgres = TestDatabase.location(file: fixture.path("unused"))
        let there = try CommandLineTests.runPrelude(
            ["copy", "--from", original, "--to", postgres], in: ServiceFixture.repositoryRoot)
        #expect(there.status == 0, "\(there.stderr)")
        #expect(there.stdout.contains("events\t30"), "\(there.stdout)")
        #expect(there.stdout.contains("tokens\t2"), "the admin token and ci: \(there.stdout)")
        #expect(there.stdout.contains("revision verified byte for byte"), "\(there.stdout)")
        #expect(try rows(original) == rows(postgres))

        let back = fixture.path("back.sqlite")
        let home = try CommandLineTests.runPrelude(
            ["copy", "--from", postgres, "--to", back], in: ServiceFixture.repositoryRoot)
        #expect(home.status == 0, "\(home.stderr)")
        #expect(try rows(back) == rows(original))

        for database in [postgres, back] {
            let copy = try ServerProcess.start(database: database, policy: policy, environment: environment)
            defer { copy.killHard() }
            let document = try TestTransport.live(port: copy.port).get("/v1/apps/demo/policy/document")
            #expect(document.headers["etag"] == served.headers["etag"])
            #expect(document.bytes == served.bytes)
        }

        // A target with rows is refused and left as it was.
        let again = try CommandLineTests.runPrelude(
            ["copy", "--from", original, "--to", postgres], in: ServiceFixture.repositoryRoot)
        #expect(again.status == 1)
        #expect(again.stderr.contains("not empty"), "\(again.stderr)")
        #expect(try rows(postgres) == rows(original))
    }

    /// `prelude backup` against PostgreSQL names the database's own tools instead of copying.
    @Test func backupOfPostgreSQLNamesItsOwnTools() throws {
        let fixture = ServiceFixture()
        try PreludeService.start(configuration: ServiceFixture.make(fixture), logger: Logger(level: .error)).stop()
        let run = try CommandLineTests.runPrelude(
            ["backup", "--output", fixture.path("b.sqlite"), "--database", fixture.database], in: fixture.directory)
        #expect(run.status == 1)
        #expect(run.stderr.contains("pg_dump"), "\(run.stderr)")
        #expect(run.stderr.contains("pg_basebackup"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fixture.path("b.sqlite")))
    }

    /// Every row of every table but the migration ledger, as text per table (the engine-neutral values).
    private func rows(_ location: String) throws -> [String: [String]] {
        let database = try Database(location: DatabaseLocation(location), readerCount: 1)
        defer { database.close() }
        return try database.read { db in
            var result: [String: [String]] = [:]
            for table in try db.tableNames() where table != "schema_migrations" {
                // SQLite's column order is the reference; PostgreSQL's extra `rowid` column is compared too.
                let columns = try DatabaseCopyColumns.names(table, db)
                result[table] = try db.query("SELECT \(columns) FROM \(table)").map { "\($0.values)" }.sorted()
            }
            return result
        }
    }
}

/// The column list both engines can select for a table (`webhook_deliveries` with its rowid on both).
enum DatabaseCopyColumns {
    static func names(_ table: String, _ db: Connection) throws -> String {
        let sql =
            db.engine == .sqlite
            ? "SELECT name FROM pragma_table_info(?) ORDER BY name"
            : "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()"
                + " AND table_name = ? AND column_name != 'rowid' ORDER BY column_name"
        let names = try db.query(sql, [.text(table)]).map { try $0.get(0, as: String.self) }
        return (names + (table == "webhook_deliveries" ? ["rowid"] : [])).joined(separator: ", ")
    }
}
