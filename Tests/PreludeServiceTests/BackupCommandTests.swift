import Foundation
import PreludeStorage
import PreludeTestSupport
import Synchronization
import Testing

@testable import PreludeService

/// `prelude backup` while a server ingests, then a new server on the copy (docs/operations.md, "Backup and restore").
@Suite(.enabled(if: !TestDatabase.isPostgres, "SQLite's VACUUM INTO backup")) struct BackupCommandTests {
    @Test func backupWhileIngestingRestoresTheSamePolicyAndEveryAcknowledgedBatch() throws {
        let fixture = ServiceFixture()
        let policy = ServiceFixture.repositoryRoot + "/config/demo-policy.json"
        let database = fixture.path("live.sqlite")
        let backup = fixture.path("backup.sqlite")
        let environment = ["PRELUDE_ADMIN_TOKEN": AdminServer.secret]
        let server = try ServerProcess.start(database: database, policy: policy, environment: environment)
        defer { server.killHard() }

        let acknowledged = Mutex<[String]>([])
        let stop = Atomic<Bool>(false)
        let done = DispatchGroup()
        for client in 0..<2 {
            DispatchQueue.global().async(group: done) {
                var batch = 0
                while !stop.load(ordering: .relaxed) {
                    let prefix = "c\(client)-b\(batch)-"
                    let events = (0..<20).map {
                        #"{"id":"\#(prefix)\#($0)","installId":"install-\#(client)-\#($0)","type":"primeShown","feature":"camera","occurredAt":1795350000000}"#
                    }
                    let request = AdminRequest.bytes(
                        "POST", "/v1/apps/demo/events", token: nil, headers: [("Content-Type", "application/json")],
                        body: #"{"events":[\#(events.joined(separator: ","))]}"#)
                    guard let response = try? TestTransport.live(port: server.port).exchange(request) else { return }
                    if response.status == 202 { acknowledged.withLock { $0.append(prefix) } }
                    batch += 1
                }
            }
        }
        while acknowledged.withLock({ $0.count }) < 20 { usleep(2_000) }
        let before = acknowledged.withLock { $0 }
        let run = try CommandLineTests.runPrelude(
            ["backup", "--output", backup, "--database", database], in: fixture.directory)
        let after = acknowledged.withLock { $0.count }
        stop.store(true, ordering: .relaxed)
        done.wait()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Backed up"))
        #expect(run.stderr.contains("prelude: database \(database)"))
        #expect(after > before.count, "the server kept acknowledging batches while the backup ran")

        // Every batch acknowledged before the backup started is in the copy, whole.
        let copy = try Database(path: backup, readerCount: 1)
        let ids = try copy.read { db in
            try db.query("SELECT client_event_id FROM events").map { try $0.get(0, as: String.self) }
        }
        copy.close()
        let stored = Dictionary(grouping: ids) { String($0[...$0.lastIndex(of: "-")!]) }.mapValues(\.count)
        for prefix in before { #expect(stored[prefix] == 20, "acknowledged batch \(prefix) missing from the backup") }
        for (prefix, count) in stored { #expect(count == 20, "batch \(prefix) in part: \(count) events") }

        // Restore: a new server on the copy serves the same policy, and the same results as the copy holds.
        let restored = try ServerProcess.start(database: backup, policy: policy, environment: environment)
        defer { restored.killHard() }
        let original = try TestTransport.live(port: server.port).get("/v1/apps/demo/policy/document")
        let served = try TestTransport.live(port: restored.port).get("/v1/apps/demo/policy/document")
        #expect(served.status == 200)
        #expect(served.headers["etag"] == original.headers["etag"])
        #expect(served.bytes == original.bytes)
        let results = try TestTransport.live(port: restored.port).exchange(
            AdminRequest.bytes(
                "GET", "/v1/admin/apps/demo/experiments/camera-prime-copy/results", token: AdminServer.secret))
        #expect(results.status == 200)
        let offline = try CommandLineTests.runPrelude(
            ["results", "demo", "camera-prime-copy", "--json", "--database", backup], in: fixture.directory)
        #expect(offline.status == 0)
        let fromServer = try JSONSerialization.jsonObject(with: Data(results.body.utf8)) as? NSDictionary
        let fromCopy = try JSONSerialization.jsonObject(with: Data(offline.stdout.utf8)) as? NSDictionary
        #expect(fromServer != nil && fromServer == fromCopy)
    }

    @Test func refusesAMissingDatabaseAndAnExistingOutput() throws {
        let fixture = ServiceFixture()
        let missing = try CommandLineTests.runPrelude(
            ["backup", "--output", fixture.path("out.sqlite"), "--database", fixture.path("nope.sqlite")],
            in: fixture.directory)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no database at \(fixture.path("nope.sqlite"))"))
        #expect(!FileManager.default.fileExists(atPath: fixture.path("nope.sqlite")))
        fixture.write("out.sqlite", "keep me")
        let exists = try CommandLineTests.runPrelude(
            ["backup", "--output", fixture.path("out.sqlite"), "--database", fixture.path("nope.sqlite")],
            in: fixture.directory)
        #expect(exists.status == 1)
        #expect(exists.stderr.contains("exists"))
        #expect(try String(contentsOfFile: fixture.path("out.sqlite"), encoding: .utf8) == "keep me")
    }
}
