import Foundation
import PreludeCore
import PreludeStoreTestSupport
import Testing

/// `prelude results` and `prelude events prune` against the built binary, on a database filled through the
/// ingestion path.
@Suite struct ResultsCommandLineTests {
    func run(_ arguments: [String], in directory: String) throws -> CommandLineTests.Run {
        try CommandLineTests.runPrelude(arguments, in: directory)
    }

    @Test func printsTheTableAndTheSameJSONAsTheAPI() throws {
        let fixture = try ResultsFixture()
        try fixture.ingest(
            TestEvent.arm("control", exposed: 600, granted: 240)
                + TestEvent.arm("short-copy", exposed: 400, granted: 160))
        let database = fixture.database.path
        let table = try run(["results", "demo", "camera-prime-copy", "--database", database], in: fixture.directory)
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("App demo: weights from the live policy (revision 1)."))
        #expect(
            table.stdout.contains("Experiment camera-prime-copy on camera, control \"control\"; 1000 installs exposed"))
        #expect(table.stdout.contains("SAMPLE RATIO MISMATCH"))

        let json = try run(
            ["results", "demo", "camera-prime-copy", "--json", "--minimum-effect", "0.05", "--database", database],
            in: fixture.directory)
        #expect(json.status == 0, "\(json.stderr)")
        #expect(try JSONParser().parse(json.stdout) == (try fixture.results(minimumEffect: 0.05)).encodeJSON())
    }

    @Test func unknownExperimentOrMissingDatabaseExitsOne() throws {
        let fixture = try ResultsFixture()
        let unknown = try run(
            ["results", "demo", "nope", "--database", fixture.database.path], in: fixture.directory)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("has no experiment \"nope\""))
        let missing = try run(["results", "demo", "x", "--database", "absent.sqlite"], in: fixture.directory)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no database at absent.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: fixture.directory + "/absent.sqlite"))
    }

    @Test func eventsPruneDeletesOldEventsOnly() throws {
        let fixture = try ResultsFixture()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try fixture.ingest(TestEvent.arm("control", exposed: 20, granted: 5), receivedAt: now - 40 * 86_400_000)
        try fixture.ingest(
            [TestEvent(install: "new", id: "1", type: "primeShown", variant: "control")], receivedAt: now)
        let old = try fixture.eventCount() - 1
        let before = try fixture.aggregateRows()
        let pruned = try run(
            ["events", "prune", "--event-retention-days", "30", "--database", fixture.database.path],
            in: fixture.directory)
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(pruned.stdout.contains("Pruned \(old) events received more than 30 days ago."))
        #expect(try fixture.eventCount() == 1)
        #expect(try fixture.aggregateRows() == before)
    }
}
