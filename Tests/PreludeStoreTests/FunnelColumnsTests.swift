import Foundation
import PreludeCore
import PreludeStorage
import PreludeTestSupport
import Testing

@testable import PreludeStore

/// The list of figures (``FunnelCounter``) against the stored counter columns and every reader of them, on the
/// suite's engine (SQLite, or PostgreSQL on its lane): a figure without its column, or a reader that puts a column in
/// another figure, fails here.
@Suite struct FunnelColumnsTests {
    /// A migrated database on the suite's engine; PostgreSQL has its own migrations (migrations/postgres), with the
    /// same tables and columns.
    static func makeDatabase() throws -> Database {
        let file = FileManager.default.temporaryDirectory.path + "/prelude-funnel-\(UUID().uuidString).sqlite"
        let database = try Database(location: DatabaseLocation(TestDatabase.location(file: file)), readerCount: 1)
        let migrations =
            PolicyRepositoryTests.repositoryRoot + "/migrations" + (TestDatabase.isPostgres ? "/postgres" : "")
        _ = try Migrator(migrations: try MigrationCatalog.load(directory: migrations)).migrate(database)
        return database
    }

    /// Every figure a different value (1, 2, 3, …), so a figure read from another's column shows.
    static let distinct: FunnelCounts = {
        var counts = FunnelCounts()
        for (index, counter) in FunnelCounter.allCases.enumerated() { counts[counter] = index + 1 }
        return counts
    }()

    @Test func everyCounterHasItsColumnInTheThreeTables() throws {
        let database = try Self.makeDatabase()
        defer { database.close() }
        try database.read { db in
            for table in ["experiment_funnel_counts", "experiment_daily_counts", "experiment_segment_counts"] {
                for column in ExperimentAggregator.counterColumns {
                    #expect(throws: Never.self, "\(table).\(column)") {
                        try db.query("SELECT \(column) FROM \(table) WHERE 1 = 0")
                    }
                }
            }
        }
    }

    @Test func everyReaderReadsBackEveryFigureFromItsColumn() throws {
        let database = try Self.makeDatabase()
        defer { database.close() }
        try PolicyRepository(database: database).createApp(
            app: "demo", name: "Demo", canonical: Array(#"{"app":{"id":"demo","name":"Demo"}}"#.utf8), author: "ops",
            message: nil, detail: [:], at: 10)
        let key: [SQLValue] = [.text("demo"), .text("production"), .text("exp"), .text("camera"), .text("control")]
        try database.write { db in
            try db.statement(ExperimentAggregator.upsertCounts).execute(
                key + ExperimentAggregator.counterValues(Self.distinct) + [.integer(1), .integer(2)])
            try ExperimentAggregator.upsertDaily(
                key[0], key[1], key[2], key[3], key[4], day: 20_000, delta: Self.distinct, on: db)
            try ExperimentAggregator.upsertSegments(
                key[0], key[1], key[2], key[3], key[4],
                deltas: [EventSegment(osMajor: 18, locale: "fr"): Self.distinct], on: db)
        }
        try database.read { db in
            let arms = try ExperimentArm.load(appID: "demo", environment: "production", experiment: "exp", on: db)
            #expect(arms.map(\.counts) == [Self.distinct])
            let daily = try ExperimentDailyCounts.load(
                appID: "demo", environment: "production", experiment: "exp", feature: "camera", on: db)
            #expect(daily.increments["control"]?.map(\.counts) == [Self.distinct])
            let segments = try ExperimentSegmentCounts.load(
                appID: "demo", environment: "production", experiment: "exp", feature: "camera", on: db)
            #expect(segments.count == 2)
            for row in segments { #expect(row.counts == Self.distinct, "\(row.dimension)") }
        }
    }

    /// The column names are the stored schema: a figure's column never changes name.
    @Test func counterColumnsAreTheStoredOnes() {
        #expect(
            ExperimentAggregator.counterColumns == [
                "exposed", "prime_shown", "prime_continued", "prime_dismissed", "system_granted", "system_denied",
                "settings_opened", "returned_granted", "granted", "task_started", "task_completed",
            ])
    }
}
