import Foundation
import PreludeCore
import PreludeStorage
import PreludeStore
import PreludeTestSupport

/// One client event as the public events API stores it.
package struct TestEvent: Hashable, Sendable {
    package var install: String
    package var id: String
    package var type: String
    package var feature = "camera"
    package var experiment: String? = ResultsFixture.experiment
    package var variant: String?
    /// The device segment its batch was sent with (the Prelude-OS-Major and Prelude-Locale headers).
    package var segment = EventSegment()

    /// An event; the experiment is the demo's unless given.
    package init(
        install: String, id: String, type: String, feature: String = "camera",
        experiment: String? = ResultsFixture.experiment, variant: String? = nil, segment: EventSegment = EventSegment()
    ) {
        self.install = install
        self.id = id
        self.type = type
        self.feature = feature
        self.experiment = experiment
        self.variant = variant
        self.segment = segment
    }

    /// The events of one install walking the funnel of one variant, ids unique per install.
    package static func flow(install: String, variant: String?, _ types: [String], feature: String = "camera")
        -> [TestEvent]
    {
        types.enumerated().map { index, type in
            TestEvent(install: install, id: "\(install)-\(index)", type: type, feature: feature, variant: variant)
        }
    }

    /// Events giving `exposed` installs of which the first `granted` end granted, some by each path and some by
    /// both (granted, later revoked and re-granted in Settings), so `granted` is a true union.
    package static func arm(_ variant: String, exposed: Int, granted: Int) -> [TestEvent] {
        (0..<exposed).flatMap { index -> [TestEvent] in
            var types = ["primeShown"]
            if index < granted {
                types += ["primeAccepted"]
                let bySettings = index >= granted * 7 / 8
                let both = index >= granted * 7 / 8 - 10 && !bySettings
                if !bySettings { types.append("systemGranted") }
                if bySettings || both { types += ["settingsOpened", "returnedGranted"] }
            } else if index % 2 == 0 {
                types += ["primeAccepted", "systemDenied"]
            } else {
                types.append("primeDismissed")
            }
            return TestEvent.flow(install: "\(variant)-\(index)", variant: variant, types)
        }
    }

    /// ``arm(_:exposed:granted:)`` of the demo experiment's two variants, `(exposed, granted)` each.
    package static func arms(control: (Int, Int), shortCopy: (Int, Int)) -> [TestEvent] {
        arm("control", exposed: control.0, granted: control.1)
            + arm("short-copy", exposed: shortCopy.0, granted: shortCopy.1)
    }

    /// The row the ingestor stores for this event, occurring at `occurredAt`.
    package func incoming(occurredAt: Int64) -> IncomingEvent {
        IncomingEvent(
            id: id, installID: install, type: AnalyticsEvent(rawValue: type)!, feature: Feature(rawValue: feature)!,
            experiment: experiment, variant: variant, occurredAt: occurredAt, segment: segment)
    }
}

/// A migrated database holding the demo app (config/demo-policy.json, whose experiment `camera-prime-copy` splits
/// camera installs 50/50 between `control` and `short-copy`), with helpers to ingest events the way the public
/// events API does: insert with the dedupe key, and on a new row let the aggregator account for it, in one
/// transaction. Plain rows only (``TestEvent``, ``PreludeStore/IncomingEvent``): nothing of the service.
package final class ResultsFixture {
    package static let app = "demo"
    package static let experiment = "camera-prime-copy"
    package static let repositoryRoot = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/")

    package let directory: String
    package let database: Database
    package let aggregator = ExperimentAggregator()

    /// A SQLite file in a new directory (the command-line tests hand its path to `prelude`); with `onTheLane`, the
    /// suite's engine instead: SQLite, or a new PostgreSQL database when `PRELUDE_TEST_POSTGRES` is set
    /// (``PreludeTestSupport/TestDatabase``), so the store's tests run on both engines.
    package init(onTheLane: Bool = false) throws {
        directory = (FileManager.default.temporaryDirectory.path as NSString)
            .appendingPathComponent("prelude-results-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = (directory as NSString).appendingPathComponent("p.sqlite")
        let postgres = onTheLane && TestDatabase.isPostgres
        database = try Database(
            location: DatabaseLocation(postgres ? TestDatabase.location(file: file) : file), readerCount: 2)
        let migrator = Migrator(
            migrations: try MigrationCatalog.load(
                directory: Self.repositoryRoot + (postgres ? "/migrations/postgres" : "/migrations")))
        _ = try migrator.migrate(database)
        _ = try DemoSeeder.seedIfEmpty(database, documentText: Self.demoText, sourcePath: "demo-policy.json")
    }

    deinit {
        database.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    package static let demoText = try! String(
        contentsOfFile: repositoryRoot + "/config/demo-policy.json", encoding: .utf8)

    /// The demo document with its experiments replaced.
    package static func demoDocument(experiments: [JSONValue]) throws -> String {
        guard case .object(var root) = try JSONParser().parse(demoText) else { throw Failure.notAnObject }
        root["experiments"] = .array(experiments)
        return JSONValue.object(root).serialized(.pretty)
    }

    /// An experiment on the camera with the given variants (weights in percent); the first is a plain control.
    package static func experiment(key: String = experiment, _ variants: [(String, Double)]) -> JSONValue {
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

    package enum Failure: Error { case notAnObject, noApp }

    /// Stores `document` as the next revision and makes it live (what an admin policy write does).
    @discardableResult
    package func publish(_ document: String) throws -> Int {
        let repository = PolicyRepository(database: database)
        guard let name = try repository.app(Self.app)?.name else { throw Failure.noApp }
        return try repository.publish(
            app: Self.app, environment: EnvironmentName.production, name: name, canonical: Array(document.utf8),
            author: "test", action: "policy.replace", message: nil, detail: [:], at: 0)
    }

    /// Ingests events through the real ingestion path (`EventIngestor`, the events endpoint's storage: dedupe on
    /// insert, the aggregator as its observer in the same transaction), in batches of at most 500 (the endpoint's
    /// limit), stamped `receivedAt`. Returns how many were new.
    @discardableResult
    package func ingest(_ events: [TestEvent], receivedAt: Int64 = 1_700_000_000_000, batchSize: Int = 500) throws
        -> Int
    {
        try Self.ingest(events, into: database, receivedAt: receivedAt, batchSize: batchSize)
    }

    /// Ingests into any migrated database holding app `demo` (e.g. a running service's).
    @discardableResult
    package static func ingest(
        _ events: [TestEvent], into database: Database, receivedAt: Int64 = 1_700_000_000_000, batchSize: Int = 500,
        aggregator: ExperimentAggregator = ExperimentAggregator()
    ) throws -> Int {
        let ingestor = EventIngestor(database: database, observers: [aggregator], clock: .fixed(receivedAt))
        let size = min(batchSize, 500)
        var inserted = 0
        for start in stride(from: 0, to: events.count, by: size) {
            let batch = events[start..<min(start + size, events.count)].map { $0.incoming(occurredAt: receivedAt) }
            inserted += try ingestor.ingest(app: app, events: batch).accepted
        }
        return inserted
    }

    /// The stored counters of an experiment.
    package func arms(_ experiment: String = experiment) throws -> [ExperimentArm] {
        try database.read {
            try ExperimentArm.load(appID: Self.app, environment: "production", experiment: experiment, on: $0)
        }
    }

    /// An independent batch recount from the raw events (COUNT DISTINCT per step), ordered like `arms`.
    package func recount(_ experiment: String = experiment) throws -> [ExperimentArm] {
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
    package func aggregateRows() throws -> [Row] {
        try database.read { db in
            try db.query("SELECT * FROM experiment_install_steps ORDER BY 1, 2, 3, 4, 5, 6")
                + db.query("SELECT * FROM experiment_funnel_counts ORDER BY 1, 2, 3, 4, 5")
                + db.query("SELECT * FROM experiment_daily_counts ORDER BY 1, 2, 3, 4, 5, 6")
                + db.query("SELECT * FROM experiment_segment_counts ORDER BY 1, 2, 3, 4, 5, 6, 7")
        }
    }

    /// Every row of `experiment_daily_events`.
    package func dailyEventRows() throws -> [Row] {
        try database.read { try $0.query("SELECT * FROM experiment_daily_events ORDER BY 1, 2, 3, 4, 5") }
    }

    /// Events counted by `experiment_daily_events`, every experiment and day.
    package func taggedEventsCounted() throws -> Int {
        try database.read {
            try $0.scalar("SELECT coalesce(sum(events), 0) FROM experiment_daily_events", as: Int.self) ?? 0
        }
    }

    /// The sum of each arm's daily increments (`experiment_daily_counts`), ordered like `arms`.
    package func dailyTotals(_ experiment: String = experiment) throws -> [FunnelCounts] {
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

    package func eventCount() throws -> Int {
        try database.read { try $0.scalar("SELECT count(*) FROM events", as: Int.self) ?? 0 }
    }

    package func results(minimumEffect: Double = 0.02, control: String? = nil) throws -> ExperimentResults {
        try ExperimentResultsReader(database: database).results(
            appID: Self.app, experiment: Self.experiment, minimumEffect: minimumEffect, control: control)
    }
}

/// Synthetic installs: each walks a plausible permission flow and ends granted with probability `grantRate`.
package enum FlowSimulator {
    /// Events for `installs` installs of `variant`, install ids prefixed so arms never collide.
    package static func events(
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
