import Foundation
import PreludeCore
import PreludeStorage
import PreludeStore
import PreludeTestSupport
import Testing

@testable import PreludeService

/// One client event as the public events API stores it.
struct TestEvent: Hashable {
    var install: String
    var id: String
    var type: String
    var feature = "camera"
    var experiment: String? = ResultsFixture.experiment
    var variant: String?
    /// The device segment its batch was sent with (the Prelude-OS-Major and Prelude-Locale headers).
    var segment = EventSegment()

    /// The events of one install walking the funnel of one variant, ids unique per install.
    static func flow(install: String, variant: String?, _ types: [String], feature: String = "camera") -> [TestEvent] {
        types.enumerated().map { index, type in
            TestEvent(install: install, id: "\(install)-\(index)", type: type, feature: feature, variant: variant)
        }
    }
}

/// A migrated database holding the demo app (config/demo-policy.json, whose experiment `camera-prime-copy` splits
/// camera installs 50/50 between `control` and `short-copy`), with helpers to ingest events the way the public
/// events API does: insert with the dedupe key, and on a new row let the aggregator account for it, in one
/// transaction.
final class ResultsFixture {
    static let app = "demo"
    static let experiment = "camera-prime-copy"
    static let repositoryRoot = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/")

    let directory: String
    let database: Database
    let aggregator = ExperimentAggregator()

    init() throws {
        directory = (FileManager.default.temporaryDirectory.path as NSString)
            .appendingPathComponent("prelude-results-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        database = try Database(path: (directory as NSString).appendingPathComponent("p.sqlite"), readerCount: 2)
        let migrator = Migrator(
            migrations: try MigrationCatalog.load(directory: Self.repositoryRoot + "/migrations"))
        _ = try migrator.migrate(database)
        _ = try DemoSeeder.seedIfEmpty(database, documentText: Self.demoText, sourcePath: "demo-policy.json")
    }

    deinit {
        database.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    static let demoText = try! String(contentsOfFile: repositoryRoot + "/config/demo-policy.json", encoding: .utf8)

    /// The demo document with its experiments replaced.
    static func demoDocument(experiments: [JSONValue]) throws -> String {
        guard case .object(var root) = try JSONParser().parse(demoText) else { throw Failure.notAnObject }
        root["experiments"] = .array(experiments)
        return JSONValue.object(root).serialized(.pretty)
    }

    /// An experiment on the camera with the given variants (weights in percent); the first is a plain control.
    static func experiment(key: String = experiment, _ variants: [(String, Double)]) -> JSONValue {
        .object(
            JSONObject([
                ("key", .string(key)), ("feature", "camera"),
                (
                    "variants",
                    .array(
                        variants.enumerated().map { index, variant in
                            var object = JSONObject([("name", .string(variant.0)), ("weight", .double(variant.1))])
                            if index > 0 { object["set"] = .object(JSONObject([("style", "single")])) }
                            return .object(object)
                        })
                ),
            ]))
    }

    enum Failure: Error { case notAnObject }

    /// Stores `document` as the next revision and makes it live (what an admin policy write does).
    @discardableResult
    func publish(_ document: String) throws -> Int {
        let repository = PolicyRepository(database: database)
        let name = try #require(try repository.app(Self.app)).name
        return try repository.publish(
            app: Self.app, environment: EnvironmentName.production, name: name, canonical: Array(document.utf8),
            author: "test", action: "policy.replace", message: nil, detail: [:], at: 0)
    }

    /// Ingests events through the real ingestion path (`EventIngestor`, the events endpoint's storage: dedupe on
    /// insert, the aggregator as its observer in the same transaction), in batches of at most 500 (the endpoint's
    /// limit), stamped `receivedAt`. Returns how many were new.
    @discardableResult
    func ingest(_ events: [TestEvent], receivedAt: Int64 = 1_700_000_000_000, batchSize: Int = 500) throws -> Int {
        try Self.ingest(events, into: database, receivedAt: receivedAt, batchSize: batchSize)
    }

    /// Ingests into any migrated database holding app `demo` (e.g. a running service's).
    @discardableResult
    static func ingest(
        _ events: [TestEvent], into database: Database, receivedAt: Int64 = 1_700_000_000_000, batchSize: Int = 500,
        aggregator: ExperimentAggregator = ExperimentAggregator()
    ) throws -> Int {
        let ingestor = EventIngestor(database: database, observers: [aggregator], clock: .fixed(receivedAt))
        let size = min(batchSize, 500)
        var inserted = 0
        for start in stride(from: 0, to: events.count, by: size) {
            let batch = events[start..<min(start + size, events.count)].map { event in
                EventBatch.Event(
                    id: event.id, installID: event.install, type: AnalyticsEvent(rawValue: event.type)!,
                    feature: Feature(rawValue: event.feature)!, experiment: event.experiment, variant: event.variant,
                    occurredAt: receivedAt, segment: event.segment)
            }
            inserted += try ingestor.ingest(app: app, batch: EventBatch(events: batch)).accepted
        }
        return inserted
    }

    /// The stored counters of an experiment.
    func arms(_ experiment: String = experiment) throws -> [ExperimentArm] {
        try database.read {
            try ExperimentArm.load(appID: Self.app, environment: "production", experiment: experiment, on: $0)
        }
    }

    /// An independent batch recount from the raw events (COUNT DISTINCT per step), ordered like `arms`.
    func recount(_ experiment: String = experiment) throws -> [ExperimentArm] {
        func distinct(_ types: String) -> String {
            "count(DISTINCT CASE WHEN type IN (\(types)) THEN install_id END)"
        }
        let sql = """
            SELECT feature, variant, count(DISTINCT install_id),
                \(distinct("'primeShown'")), \(distinct("'primeAccepted'")), \(distinct("'primeDismissed'")),
                \(distinct("'systemGranted'")), \(distinct("'systemDenied'")), \(distinct("'settingsOpened'")),
                \(distinct("'returnedGranted'")), \(distinct("'systemGranted', 'returnedGranted'")),
                \(distinct("'taskStarted'")),
                count(DISTINCT CASE WHEN type = 'taskCompleted' AND install_id IN (
                    SELECT s.install_id FROM events AS s WHERE s.app_id = events.app_id
                        AND s.experiment = events.experiment AND s.feature = events.feature
                        AND s.variant = events.variant AND s.type = 'taskStarted') THEN install_id END)
            FROM events
            WHERE app_id = ? AND experiment = ? AND variant IS NOT NULL AND variant <> ''
            GROUP BY feature, variant ORDER BY feature, variant
            """
        return try database.read { db in
            try db.query(sql, [.text(Self.app), .text(experiment)]).map { row in
                let values = try (2...12).map { try row.get($0, as: Int.self) }
                return ExperimentArm(
                    feature: try row.get(0, as: String.self), variant: try row.get(1, as: String.self),
                    counts: FunnelCounts(
                        exposed: values[0], primeShown: values[1], primeContinued: values[2],
                        primeDismissed: values[3], systemGranted: values[4], systemDenied: values[5],
                        settingsOpened: values[6], returnedGranted: values[7], granted: values[8],
                        taskStarted: values[9], taskCompleted: values[10]))
            }
        }
    }

    /// Every row of the aggregate tables, to compare states.
    func aggregateRows() throws -> [Row] {
        try database.read { db in
            try db.query("SELECT * FROM experiment_install_steps ORDER BY 1, 2, 3, 4, 5, 6")
                + db.query("SELECT * FROM experiment_funnel_counts ORDER BY 1, 2, 3, 4, 5")
                + db.query("SELECT * FROM experiment_daily_counts ORDER BY 1, 2, 3, 4, 5, 6")
                + db.query("SELECT * FROM experiment_segment_counts ORDER BY 1, 2, 3, 4, 5, 6, 7")
        }
    }

    /// Every row of `experiment_daily_events`.
    func dailyEventRows() throws -> [Row] {
        try database.read { try $0.query("SELECT * FROM experiment_daily_events ORDER BY 1, 2, 3, 4, 5") }
    }

    /// Events counted by `experiment_daily_events`, every experiment and day.
    func taggedEventsCounted() throws -> Int {
        try database.read {
            try $0.scalar("SELECT coalesce(sum(events), 0) FROM experiment_daily_events", as: Int.self) ?? 0
        }
    }

    /// The sum of each arm's daily increments (`experiment_daily_counts`), ordered like `arms`.
    func dailyTotals(_ experiment: String = experiment) throws -> [FunnelCounts] {
        try database.read { db in
            try db.query(
                """
                SELECT sum(exposed), sum(prime_shown), sum(prime_continued), sum(prime_dismissed), sum(system_granted),
                    sum(system_denied), sum(settings_opened), sum(returned_granted), sum(granted), sum(task_started),
                    sum(task_completed)
                FROM experiment_daily_counts WHERE app_id = ? AND experiment_key = ?
                GROUP BY feature, variant ORDER BY feature, variant
                """, [.text(Self.app), .text(experiment)]
            ).map { row in
                let v = try (0...10).map { try row.get($0, as: Int.self) }
                return FunnelCounts(
                    exposed: v[0], primeShown: v[1], primeContinued: v[2], primeDismissed: v[3], systemGranted: v[4],
                    systemDenied: v[5], settingsOpened: v[6], returnedGranted: v[7], granted: v[8], taskStarted: v[9],
                    taskCompleted: v[10])
            }
        }
    }

    func eventCount() throws -> Int {
        try database.read { try $0.scalar("SELECT count(*) FROM events", as: Int.self) ?? 0 }
    }

    func results(minimumEffect: Double = 0.02, control: String? = nil) throws -> ExperimentResults {
        try ExperimentResultsReader(database: database).results(
            appID: Self.app, experiment: Self.experiment, minimumEffect: minimumEffect, control: control)
    }
}

/// Synthetic installs: each walks a plausible permission flow and ends granted with probability `grantRate`.
enum FlowSimulator {
    /// Events for `installs` installs of `variant`, install ids prefixed so arms never collide.
    static func events(
        variant: String, installs: Int, grantRate: Double, generator: inout SplitMix64
    ) -> [TestEvent] {
        var events: [TestEvent] = []
        events.reserveCapacity(installs * 5)
        for index in 0..<installs {
            let install = "\(variant)-\(index)"
            var types: [String] = []
            let granted = generator.chance(grantRate)
            if generator.chance(0.9) {
                types.append("primeShown")
                if !granted && generator.chance(0.5) {
                    types.append("primeDismissed")
                    if generator.chance(0.3) { types.append("primeShown") }  // a repeated showing: no new step
                    events += TestEvent.flow(install: install, variant: variant, types)
                    continue
                }
                types.append("primeAccepted")
            }
            if granted {
                if generator.chance(0.85) {
                    types.append("systemGranted")
                } else {
                    types += ["systemDenied", "settingsShown", "settingsOpened", "returnedGranted"]
                }
            } else {
                types.append("systemDenied")
                if generator.chance(0.3) { types += ["settingsShown", "settingsOpened"] }
            }
            events += TestEvent.flow(install: install, variant: variant, types)
        }
        return events
    }
}
