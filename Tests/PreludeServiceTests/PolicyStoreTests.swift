import Foundation
import PreludeCore
import PreludeHTTP
import PreludeStorage
import PreludeStore
import Testing

@testable import PreludeService

@Suite struct PolicyStoreTests {
    let fixture = PublicFixture()

    private func counts(_ database: Database) throws -> (revisions: Int64, audit: Int64, apps: Int64) {
        try database.read { db in
            (
                try db.scalar("SELECT count(*) FROM policy_revisions", as: Int64.self) ?? -1,
                try db.scalar("SELECT count(*) FROM audit_log", as: Int64.self) ?? -1,
                try db.scalar("SELECT count(*) FROM apps", as: Int64.self) ?? -1
            )
        }
    }

    @Test func loadsTheSeededDemoAsTheLiveSnapshot() throws {
        let database = try fixture.makeDatabase()
        defer { database.close() }
        let store = PolicyStore(database: database)
        #expect(try store.loadAll().isEmpty)
        let snapshot = try #require(store.snapshot(app: "demo"))
        #expect(snapshot.revision == 1)
        // An app loaded at start-up holds its bytes, not a decoded copy of them, until something reads the document
        // (an idle app's memory); the document decoded then is the one stored, and it is kept.
        #expect(!snapshot.live.isDocumentDecoded)
        #expect(snapshot.canonicalBytes == PublicFixture.demoDocument.jsonValue.serializedBytes())
        #expect(!snapshot.live.isDocumentDecoded)
        #expect(snapshot.document == PublicFixture.demoDocument)
        #expect(snapshot.live.isDocumentDecoded)
        #expect(snapshot.etag == PolicyETag.make(revision: 1, canonical: snapshot.canonicalBytes))
        #expect(snapshot.etag.opaqueTag.hasPrefix("r1-"))
        // Nothing is compressed at load: the document response is prepared by its first use (and kept).
        #expect(!snapshot.isDocumentPrepared)
        #expect(snapshot.documentResponse.identity == snapshot.canonicalBytes)
        #expect(snapshot.isDocumentPrepared)
        #expect(snapshot.servedDocument === snapshot.servedDocument)
        #expect(try Gzip.decompress(snapshot.documentResponse.gzip, maxSize: 1 << 24) == snapshot.canonicalBytes)
        #expect(snapshot.documentResponse.gzipETag.opaqueTag == snapshot.etag.opaqueTag + ".gz")
        #expect(store.snapshot(app: "nope") == nil)
        #expect(store.appIDs == ["demo"])
    }

    @Test func commitStoresARevisionWithItsAuditRowAndSwapsTheSnapshot() throws {
        let database = try fixture.makeDatabase()
        defer { database.close() }
        let store = PolicyStore(database: database, clock: .fixed(1_800_000_000_000))
        try store.loadAll()
        let before = try #require(store.snapshot(app: "demo"))

        let edited = PublicFixture.demoDocument(cameraTitle: "Scan documents")
        let after = try store.commit(
            app: "demo", document: edited, author: "ops-alice", action: "policy.replace", message: "shorter title",
            precondition: RevisionPrecondition(ifMatch: before.etag.headerValue),
            auditDetail: ["changed": ["/features/camera"]])
        #expect(after.revision == 2)
        #expect(after.etag != before.etag)
        #expect(store.snapshot(app: "demo") === after)
        #expect(after !== before)  // the old revision's caches go with it

        let (row, audit) = try database.read { db in
            (
                try db.queryOne(
                    "SELECT document, etag, author, message, created_at FROM policy_revisions WHERE app_id = 'demo' AND number = 2"
                ),
                try db.queryOne(
                    "SELECT actor, app_id, action, revision, detail, occurred_at FROM audit_log ORDER BY id DESC")
            )
        }
        let revision = try #require(row)
        #expect(try revision.get("document", as: String.self) == String(decoding: after.canonicalBytes, as: UTF8.self))
        #expect(try revision.get("etag", as: String.self) == after.etag.headerValue)
        #expect(try revision.get("author", as: String.self) == "ops-alice")
        #expect(try revision.get("message", as: String.self) == "shorter title")
        #expect(try revision.get("created_at", as: Int64.self) == 1_800_000_000_000)
        let auditRow = try #require(audit)
        #expect(try auditRow.get("actor", as: String.self) == "ops-alice")
        #expect(try auditRow.get("action", as: String.self) == "policy.replace")
        #expect(try auditRow.get("revision", as: Int64.self) == 2)
        #expect(try auditRow.get("detail", as: String.self) == #"{"changed":["/features/camera"]}"#)
        #expect(try PolicyRepository(database: database).liveRevision(app: "demo", environment: "production") == 2)

        // A fresh store (a restart) loads the same revision and computes the same ETag.
        let restarted = PolicyStore(database: database)
        try restarted.loadAll()
        #expect(restarted.snapshot(app: "demo")?.etag == after.etag)
        #expect(restarted.snapshot(app: "demo")?.document == edited)
    }

    @Test func staleOrWrongETagIsRefusedWith412AndStoresNothing() throws {
        let database = try fixture.makeDatabase()
        defer { database.close() }
        let store = PolicyStore(database: database)
        try store.loadAll()
        let first = try #require(store.snapshot(app: "demo"))
        try store.commit(
            app: "demo", document: PublicFixture.demoDocument(cameraTitle: "One"), author: "a",
            action: "policy.replace",
            message: nil, precondition: RevisionPrecondition(ifMatch: first.etag.headerValue),
            auditDetail: .object(JSONObject()))
        let before = try counts(database)
        for stale in [first.etag.headerValue, #""nonsense""#, "W/" + first.etag.headerValue] {
            let error = #expect(throws: PolicyStoreError.self) {
                try store.commit(
                    app: "demo", document: PublicFixture.demoDocument(cameraTitle: "Two"), author: "b",
                    action: "policy.replace", message: nil, precondition: RevisionPrecondition(ifMatch: stale),
                    auditDetail: .object(JSONObject()))
            }
            guard case .stale(let current) = error else {
                Issue.record("expected a stale error, got \(String(describing: error))")
                continue
            }
            #expect(current === store.snapshot(app: "demo"))
        }
        #expect(try counts(database) == before)
        #expect(store.snapshot(app: "demo")?.revision == 2)
    }

    @Test func theGzipTagAndWildcardAlsoNameTheLiveRevision() throws {
        let database = try fixture.makeDatabase()
        defer { database.close() }
        let store = PolicyStore(database: database)
        try store.loadAll()
        let live = try #require(store.snapshot(app: "demo"))
        let second = try store.commit(
            app: "demo", document: PublicFixture.demoDocument(cameraTitle: "A"), author: "a", action: "x", message: nil,
            precondition: RevisionPrecondition(ifMatch: live.documentResponse.gzipETag.headerValue), auditDetail: .null)
        let third = try store.commit(
            app: "demo", document: PublicFixture.demoDocument(cameraTitle: "B"), author: "a", action: "x", message: nil,
            precondition: RevisionPrecondition(ifMatch: "*"), auditDetail: .null)
        #expect(second.revision == 2)
        #expect(third.revision == 3)
    }

    @Test func aWriteByAnotherProcessMakesTheOldETagStale() throws {
        let database = try fixture.makeDatabase()
        defer { database.close() }
        let store = PolicyStore(database: database)
        let other = PolicyStore(database: database)  // stands for a second process on the same file
        try store.loadAll()
        try other.loadAll()
        let etag = try #require(store.snapshot(app: "demo")).etag.headerValue
        try other.commit(
            app: "demo", document: PublicFixture.demoDocument(cameraTitle: "Other"), author: "b", action: "x",
            message: nil, precondition: RevisionPrecondition(ifMatch: etag), auditDetail: .null)
        let error = #expect(throws: PolicyStoreError.self) {
            try store.commit(
                app: "demo", document: PublicFixture.demoDocument(cameraTitle: "Mine"), author: "a", action: "x",
                message: nil, precondition: RevisionPrecondition(ifMatch: etag), auditDetail: .null)
        }
        guard case .stale(let current) = error else {
            Issue.record("expected a stale error, got \(String(describing: error))")
            return
        }
        // The store reloaded: it now serves the other process's revision and names its tag.
        #expect(store.snapshot(app: "demo")?.revision == 2)
        let otherTag = other.snapshot(app: "demo")?.etag.headerValue
        #expect(current?.etag.headerValue == otherTag)
    }

    @Test func aDocumentForAnotherAppIsRefused() throws {
        let database = try fixture.makeDatabase()
        defer { database.close() }
        let store = PolicyStore(database: database)
        try store.loadAll()
        var document = PublicFixture.demoDocument
        document.app.id = "other"
        let error = #expect(throws: PolicyStoreError.self) {
            try store.commit(
                app: "demo", document: document, author: "a", action: "x", message: nil, precondition: nil,
                auditDetail: .null)
        }
        guard case .appMismatch(let app, let documentApp) = error else {
            Issue.record("expected an app mismatch, got \(String(describing: error))")
            return
        }
        #expect(app == "demo")
        #expect(documentApp == "other")
    }

    /// Start-up decodes the stored revisions on several threads: every app comes back, each with its own revision.
    @Test func loadsEveryAppOfManyWithItsOwnRevision() throws {
        let database = try fixture.makeDatabase()
        defer { database.close() }
        let store = PolicyStore(database: database)
        try store.loadAll()
        let apps = (1...40).map { "com.example.app\($0)" }
        for (index, app) in apps.enumerated() {
            var document = PublicFixture.demoDocument
            document.app = AppInfo(id: app, name: "App \(index)")
            try store.createApp(app: app, document: document, author: "ops", message: nil)
        }
        let restarted = PolicyStore(database: database)
        #expect(try restarted.loadAll().isEmpty)
        #expect(restarted.appIDs == (apps + ["demo"]).sorted())
        for app in apps + ["demo"] {
            let served = try #require(restarted.snapshot(app: app))
            #expect(!served.live.isDocumentDecoded)
            #expect(served.document == store.snapshot(app: app)?.document)
            #expect(served.appID == app && served.document.app.id == app)
            #expect(served.etag == store.snapshot(app: app)?.etag)
        }
    }

    @Test func createsAndDeletesApps() throws {
        let database = try fixture.makeDatabase()
        defer { database.close() }
        let store = PolicyStore(database: database)
        try store.loadAll()
        var document = PublicFixture.demoDocument
        document.app = AppInfo(id: "com.example.notes", name: "Notes")
        let created = try store.createApp(app: "com.example.notes", document: document, author: "ops", message: "new")
        #expect(created.revision == 1)
        #expect(store.appIDs == ["com.example.notes", "demo"])

        let before = try counts(database)
        let conflict = #expect(throws: PolicyStoreError.self) {
            try store.createApp(app: "com.example.notes", document: document, author: "ops", message: nil)
        }
        guard case .appExists("com.example.notes") = conflict else {
            Issue.record("expected app exists, got \(String(describing: conflict))")
            return
        }
        #expect(try counts(database) == before)

        let stale = #expect(throws: PolicyStoreError.self) {
            try store.deleteApp(
                app: "com.example.notes", author: "ops", precondition: RevisionPrecondition(ifMatch: #""r9-x""#))
        }
        guard case .stale(let current) = stale else {
            Issue.record("expected a stale error, got \(String(describing: stale))")
            return
        }
        #expect(current === created)
        try store.deleteApp(
            app: "com.example.notes", author: "ops",
            precondition: RevisionPrecondition(ifMatch: created.etag.headerValue))
        #expect(store.snapshot(app: "com.example.notes") == nil)
        let after = try counts(database)
        #expect(after.apps == before.apps - 1)
        #expect(after.revisions == before.revisions - 1)
        #expect(after.audit == before.audit + 1)  // the trail outlives the app
        let gone = #expect(throws: PolicyStoreError.self) {
            try store.deleteApp(app: "com.example.notes", author: "ops", precondition: nil)
        }
        guard case .unknownApp("com.example.notes") = gone else {
            Issue.record("expected an unknown app, got \(String(describing: gone))")
            return
        }
    }

    @Test func anInvalidLiveRevisionIsReportedNotServedAndCanBeReplacedWithWildcard() throws {
        let database = try Database(path: fixture.path("broken.sqlite"), readerCount: 1)
        defer { database.close() }
        _ = try Migrator(
            migrations: try MigrationCatalog.load(directory: ServiceFixture.repositoryRoot + "/migrations")
        ).migrate(database)
        try DemoSeeder.seedIfEmpty(database, documentText: #"{"schemaVersion": 1, "app": "demo"}"#, sourcePath: "t")
        let store = PolicyStore(database: database)
        let unavailable = try store.loadAll()
        #expect(unavailable["demo"]?.revision == 1)
        #expect(store.snapshot(app: "demo") == nil)
        #expect(store.unavailability(app: "demo") != nil)
        let refused = #expect(throws: PolicyStoreError.self) {
            try store.commit(
                app: "demo", document: PublicFixture.demoDocument, author: "a", action: "x", message: nil,
                precondition: RevisionPrecondition(ifMatch: #""r1-0""#), auditDetail: .null)
        }
        guard case .stale(.none) = refused else {
            Issue.record("expected a stale error without a live snapshot, got \(String(describing: refused))")
            return
        }
        let repaired = try store.commit(
            app: "demo", document: PublicFixture.demoDocument, author: "a", action: "x", message: nil,
            precondition: RevisionPrecondition(ifMatch: "*"), auditDetail: .null)
        #expect(repaired.revision == 2)
        #expect(store.unavailability(app: "demo") == nil)
    }

    @Test func concurrentCommitsWithTheSameETagLetExactlyOneWin() async throws {
        let database = try fixture.makeDatabase()
        defer { database.close() }
        let store = PolicyStore(database: database)
        try store.loadAll()
        let etag = try #require(store.snapshot(app: "demo")).etag.headerValue
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for i in 0..<8 {
                group.addTask {
                    do {
                        try store.commit(
                            app: "demo", document: PublicFixture.demoDocument(cameraTitle: "Writer \(i)"),
                            author: "w\(i)", action: "x", message: nil,
                            precondition: RevisionPrecondition(ifMatch: etag), auditDetail: .null)
                        return true
                    } catch {
                        return false
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
        #expect(try counts(database).revisions == 2)
    }
}
