import Foundation
import PreludeCore
import PreludeStorage
import PreludeStore
import PreludeStoreTestSupport
import Testing

/// A database whose experiments were counted before the segments migration: nothing is lost, and what was counted
/// before shows as "unknown".
@Suite struct SegmentMigrationTests {
    @Test func aggregatesCountedBeforeTheMigrationAreUnknownAndTheirInstallsStaySo() throws {
        let fixture = try ResultsFixture()
        let database = try Database(path: fixture.directory + "/old.sqlite", readerCount: 1)
        defer { database.close() }
        let all = try MigrationCatalog.load(directory: ResultsFixture.repositoryRoot + "/migrations")
        let segments = try #require(all.first { $0.name.hasSuffix("_event_segments") })
        _ = try Migrator(migrations: all.filter { $0.number < segments.number }).migrate(database)
        // As the build before stored them: an arm with two installs, one granted, and their raw events.
        try database.write { db in
            try db.executeScript(
                """
                INSERT INTO apps (id, name, live_revision, created_at, updated_at) VALUES ('demo', 'Demo', NULL, 0, 0);
                INSERT INTO environments (app_id, name, created_at, updated_at) VALUES ('demo', 'production', 0, 0);
                INSERT INTO experiment_install_steps
                    (app_id, environment, experiment_key, feature, variant, install_id, steps, first_seen_at)
                VALUES ('demo', 'production', 'camera-prime-copy', 'camera', 'control', 'old-1', 1, 5),
                    ('demo', 'production', 'camera-prime-copy', 'camera', 'control', 'old-2', 17, 5);
                INSERT INTO experiment_funnel_counts (app_id, environment, experiment_key, feature, variant, exposed,
                    system_granted, granted, first_event_at, last_event_at)
                VALUES ('demo', 'production', 'camera-prime-copy', 'camera', 'control', 2, 1, 1, 5, 5);
                INSERT INTO events (app_id, install_id, client_event_id, type, feature, experiment, variant,
                    occurred_at, received_at)
                VALUES ('demo', 'old-1', 'o1', 'primeShown', 'camera', 'camera-prime-copy', 'control', 5, 5),
                    ('demo', 'old-2', 'o2', 'systemGranted', 'camera', 'camera-prime-copy', 'control', 5, 5);
                """)
        }
        // Upgrading to the segments migration applies exactly it; the later ones then apply as at any start.
        #expect(
            try Migrator(migrations: all.filter { $0.number <= segments.number }).migrate(database) == [segments.name])
        _ = try Migrator(migrations: all).migrate(database)

        // After the upgrade: old-1 grants from an iOS 18 device, and a new install arrives from one.
        let ingestor = EventIngestor(
            database: database, observers: [ExperimentAggregator()], clock: .fixed(1_700_000_000_000))
        let ios18 = EventSegment(osMajor: 18, locale: "en-GB")
        _ = try ingestor.ingest(
            app: "demo",
            events: ["old-1", "new-1"].map {
                IncomingEvent(
                    id: "n-" + $0, installID: $0, type: .systemGranted, feature: .camera,
                    experiment: "camera-prime-copy", variant: "control", occurredAt: 1_700_000_000_000,
                    segment: ios18)
            })
        let rows = try database.read {
            try ExperimentSegmentCounts.load(
                appID: "demo", environment: "production", experiment: "camera-prime-copy", feature: "camera", on: $0)
        }
        let byOS = Dictionary(
            uniqueKeysWithValues: rows.filter { $0.dimension == .osMajor }.map { ($0.value, $0.counts) })
        // old-1's grant stays with its install in "unknown"; only new-1 is iOS 18.
        #expect(byOS["unknown"] == FunnelCounts(exposed: 2, systemGranted: 2, granted: 2))
        #expect(byOS["18"] == FunnelCounts(exposed: 1, systemGranted: 1, granted: 1))
        #expect(byOS.count == 2)
        #expect(rows.filter { $0.dimension == .locale }.map(\.value).sorted() == ["en-GB", "unknown"])
        let events = try database.read {
            try $0.query("SELECT client_event_id, os_major FROM events ORDER BY id").map {
                "\(try $0.get(0, as: String.self)):\(try $0.get(1, as: Int?.self).map(String.init) ?? "-")"
            }
        }
        #expect(events == ["o1:-", "o2:-", "n-old-1:18", "n-new-1:18"])
    }
}
