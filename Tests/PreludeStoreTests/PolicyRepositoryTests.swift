import Foundation
import PreludeCore
import PreludeStorage
import PreludeStore
import PreludeTestSupport
import Testing

/// The repository's writes are atomic and audited once; its refusals write nothing.
@Suite struct PolicyRepositoryTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// A migrated database in a fresh temporary directory, or a fresh PostgreSQL database on the suite's
    /// PostgreSQL lane (``TestDatabase``).
    static func makeDatabase() throws -> Database {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "prelude-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let database = try Database(
            location: DatabaseLocation(
                TestDatabase.location(file: directory.appendingPathComponent("prelude.sqlite").path)),
            readerCount: 1)
        let migrations = repositoryRoot + (TestDatabase.isPostgres ? "/migrations/postgres" : "/migrations")
        _ = try Migrator(migrations: try MigrationCatalog.load(directory: migrations)).migrate(database)
        return database
    }

    static let canonical = Array(#"{"app":{"id":"a","name":"A"}}"#.utf8)

    @Test func publishWritesRevisionLivePointerAndOneAuditRecordTogether() throws {
        let database = try Self.makeDatabase()
        defer { database.close() }
        let repository = PolicyRepository(database: database)
        try repository.createApp(
            app: "a", name: "A", canonical: Self.canonical, author: "ops", message: nil, detail: [:], at: 10)
        let revision = try repository.publish(
            app: "a", environment: "production", name: "A2", canonical: Self.canonical, author: "ops",
            action: "policy.replace", message: "m",
            detail: ["k": 1], at: 20, requiringLive: .some(1))
        #expect(revision == 2)
        #expect(try repository.liveRevision(app: "a", environment: "production") == .some(2))
        #expect(try repository.app("a")?.name == "A2")
        #expect(
            try repository.liveDocument(app: "a", environment: "production")
                == String(decoding: Self.canonical, as: UTF8.self))
        let audit = try AuditLog(database: database).entries(matching: AuditLog.Filter(app: "a"), limit: 10)
        #expect(audit.map(\.action) == ["policy.replace", "app.create"])
        #expect(audit.first?.revision == 2)
        #expect(audit.first?.detail == #"{"k":1}"#)
        let stored = try database.read { db in
            try db.scalar("SELECT etag FROM policy_revisions WHERE app_id = 'a' AND number = 2", as: String.self)
        }
        #expect(stored == RevisionTag.quoted(revision: 2, canonical: Self.canonical))
    }

    @Test func aStaleOrUnknownPublishWritesNothing() throws {
        let database = try Self.makeDatabase()
        defer { database.close() }
        let repository = PolicyRepository(database: database)
        try repository.createApp(
            app: "a", name: "A", canonical: Self.canonical, author: "ops", message: nil, detail: [:], at: 10)
        #expect(throws: PolicyRepository.Refusal.stale) {
            try repository.publish(
                app: "a", environment: "production", name: "A", canonical: Self.canonical, author: "ops",
                action: "policy.replace", message: nil,
                detail: [:], at: 20, requiringLive: .some(7))
        }
        #expect(throws: PolicyRepository.Refusal.unknownApp("b")) {
            try repository.publish(
                app: "b", environment: "production", name: "B", canonical: Self.canonical, author: "ops",
                action: "policy.replace", message: nil,
                detail: [:], at: 20)
        }
        #expect(throws: PolicyRepository.Refusal.appExists("a")) {
            try repository.createApp(
                app: "a", name: "A", canonical: Self.canonical, author: "ops", message: nil, detail: [:], at: 30)
        }
        #expect(try repository.revisionCount(app: "a", environment: "production") == 1)
        #expect(try AuditLog(database: database).entries(matching: AuditLog.Filter(), limit: 10).count == 1)
    }

    @Test func deleteKeepsItsAuditRecord() throws {
        let database = try Self.makeDatabase()
        defer { database.close() }
        let repository = PolicyRepository(database: database)
        try repository.createApp(
            app: "a", name: "A", canonical: Self.canonical, author: "ops", message: nil, detail: [:], at: 10)
        try repository.deleteApp(app: "a", author: "ops", detail: [:], at: 20, requiringLive: .some(1))
        #expect(try repository.app("a") == nil)
        let audit = try AuditLog(database: database).entries(matching: AuditLog.Filter(action: "app.delete"), limit: 5)
        #expect(audit.map(\.revision) == [1])
        #expect(try repository.export(app: "a", environment: "production", revision: nil) == .noApp)
    }

    @Test func auditFilterAndPaging() throws {
        let database = try Self.makeDatabase()
        defer { database.close() }
        try database.write { db in
            for (index, action) in ["token.create", "app.settings", "token.revoke"].enumerated() {
                try AuditLog.append(
                    db, actor: "ops", app: action.hasPrefix("app") ? "a" : nil,
                    environment: action.hasPrefix("app") ? "production" : nil, action: action, revision: nil,
                    detail: [:], at: Int64(index * 10))
            }
        }
        let log = AuditLog(database: database)
        #expect(
            try log.entries(matching: AuditLog.Filter(), limit: 2).map(\.action) == ["token.revoke", "app.settings"])
        #expect(try log.entries(matching: AuditLog.Filter(before: 2), limit: 5).map(\.action) == ["token.create"])
        #expect(
            try log.entries(matching: AuditLog.Filter(since: 10, until: 20), limit: 5).map(\.action) == ["app.settings"]
        )
        #expect(try log.entries(matching: AuditLog.Filter(app: "a"), limit: 5).map(\.id) == [2])
    }

    /// Start-up reads live revisions a page at a time in one snapshot: every environment once, in order, whatever
    /// the page size (a page boundary inside an app's environments included).
    @Test(arguments: [1, 2, 3, 7, 64])
    func liveRowsInPagesAreEveryRowOnceInOrder(pageSize: Int) throws {
        let database = try Self.makeDatabase()
        defer { database.close() }
        let repository = PolicyRepository(database: database)
        for app in ["a", "b", "c"] {
            let canonical = Array(#"{"app":{"id":"\#(app)","name":"A"}}"#.utf8)
            try repository.createApp(
                app: app, name: "A", canonical: canonical, author: "ops", message: nil, detail: [:], at: 10)
            for environment in ["dev", "staging"] where app != "b" {
                try repository.createEnvironment(
                    app: app, name: environment, first: environment == "dev" ? (canonical, nil) : nil, actor: "ops",
                    detail: [:], at: 11)
            }
        }
        var pages: [[PolicyRepository.LiveRow]] = []
        try repository.liveRows(pagesOf: pageSize) { pages.append($0) }
        let rows = pages.flatMap { $0 }
        #expect(
            rows.map { "\($0.app)/\($0.environment)" } == [
                "a/dev", "a/production", "a/staging", "b/production", "c/dev", "c/production", "c/staging",
            ])
        #expect(rows.map { $0.document != nil } == [true, true, false, true, true, true, false])
        #expect(pages.allSatisfy { (1...pageSize).contains($0.count) })
        #expect(pages.count == (rows.count + pageSize - 1) / pageSize)
    }
}
