import PreludeCore
import PreludeStorage

/// Produces an experiment's results from the aggregates (never from raw events) and its configuration.
///
/// One read transaction: the app row, the experiment's counters (one row per arm), and the configuration — from
/// `livePolicy` when given (the serving snapshot, nothing to parse), else from the newest revision up to the live
/// one that has the experiment (SQLite's JSON functions pick that experiment out of the stored document).
package struct ExperimentResultsReader: Sendable {
    /// The live policy of an app and its revision number, if the caller holds a decoded snapshot.
    package typealias LivePolicy =
        @Sendable (_ appID: String, _ environment: String) -> (
            document: PolicyDocument, revision: Int
        )?

    private let database: Database
    private let livePolicy: LivePolicy?

    /// Creates a reader over `database`; `livePolicy` is the serving snapshot when there is one.
    package init(database: Database, livePolicy: LivePolicy? = nil) {
        self.database = database
        self.livePolicy = livePolicy
    }

    /// The results of one experiment.
    ///
    /// The verdict uses only the analysis settings the policy revision fixed (``ExperimentDefinition/alpha``,
    /// ``ExperimentDefinition/minimumEffect``). Any other value asked for gives an exploratory view: the same figures
    /// computed with it, and no verdict (docs/results.md, "Analysis settings fixed before the data").
    ///
    /// - Parameters:
    ///   - minimumEffect: an exploratory minimum effect, in [0.0001, 1); `nil` for the fixed one.
    ///   - alpha: an exploratory alpha, in [0.0001, 0.2]; `nil` for the fixed one.
    ///   - control: a variant to compare with instead of the configured control.
    /// - Throws: ``ExperimentResultsError``, or a `StorageError` when the database fails.
    package func results(
        appID: String, environment: String = EnvironmentName.production, experiment key: String,
        minimumEffect: Double? = nil, alpha: Double? = nil, control: String? = nil
    ) throws -> ExperimentResults {
        if let minimumEffect, !ExperimentAnalysis.isValidMinimumEffect(minimumEffect) {
            throw ExperimentResultsError.invalidParameter(
                name: "minimumEffect", value: "\(minimumEffect)",
                reason: ExperimentAnalysis.minimumEffectRule)
        }
        if let alpha, !Experiment.isValidAlpha(alpha) {
            throw ExperimentResultsError.invalidParameter(
                name: "alpha", value: "\(alpha)", reason: Self.alphaRule)
        }
        let (definition, arms, mislabelled, daily, segmentRows) = try database.read { connection in
            let liveRevision = try Self.liveRevision(appID: appID, environment: environment, on: connection)
            let arms = try ExperimentArm.load(appID: appID, environment: environment, experiment: key, on: connection)
            var definition: ExperimentDefinition?
            if let snapshot = livePolicy?(appID, environment),
                let experiment = snapshot.document.experiments.first(where: { $0.key == key })
            {
                definition = ExperimentDefinition(experiment, source: .live(revision: snapshot.revision))
            } else {
                definition = try ExperimentDefinition.configured(
                    appID: appID, environment: environment, key: key, liveRevision: liveRevision, on: connection)
            }
            guard let found = definition ?? ExperimentDefinition.observed(key: key, arms: arms) else {
                throw ExperimentResultsError.experimentNotFound(app: appID, key: key)
            }
            return (
                found, arms,
                try MislabelledEvents.load(appID: appID, environment: environment, experiment: key, on: connection),
                try ExperimentDailyCounts.load(
                    appID: appID, environment: environment, experiment: key, feature: found.feature, on: connection),
                try ExperimentSegmentCounts.load(
                    appID: appID, environment: environment, experiment: key, feature: found.feature, on: connection)
            )
        }
        var results = try Self.analyze(
            appID: appID, definition: definition, arms: arms, minimumEffect: minimumEffect, alpha: alpha,
            control: control)
        results.mislabelled = mislabelled
        let report = results.report
        results.timeline = ExperimentTimeline(
            variants: report.variants.map(\.name), control: report.controlName, increments: daily.increments,
            events: daily.events, minimumEffect: report.minimumEffect, alpha: report.settings.alpha)
        results.segments = Self.breakdowns(of: report, rows: segmentRows)
        return results
    }

    /// The report's arms per OS major version and per locale (docs/results.md, "Breakdowns"): the same analysis per
    /// segment, without verdicts.
    package static func breakdowns(of report: ExperimentReport, rows: [ExperimentSegmentCounts.Row])
        -> [SegmentBreakdown]
    {
        let variants = report.variants.map { (name: $0.name, weight: $0.weight) }
        return SegmentBreakdown.Dimension.allCases.map { dimension in
            SegmentBreakdown.analyze(
                dimension: dimension,
                rows: rows.filter { $0.dimension == dimension }.map { ($0.value, $0.variant, $0.counts) },
                experimentKey: report.experimentKey, feature: report.feature, variants: variants,
                controlName: report.controlName, minimumEffect: report.minimumEffect, settings: report.settings)
        }
    }

    /// What a usable exploratory alpha is, for error messages.
    package static let alphaRule = "must be a significance level from 0.0001 to 0.2"

    /// One experiment results can be read for.
    package struct Listed: Sendable, Equatable {
        /// The experiment key.
        package let key: String
        /// Whether the live revision configures it (else an earlier revision did, or only events reported it).
        package let isLive: Bool
        /// Installs exposed over every arm (0 when no event reported it yet).
        package let exposed: Int
    }

    /// Every experiment of `environment` of `appID` with results to read: configured by any revision, or reported by an event;
    /// sorted by key. Throws ``ExperimentResultsError/appNotFound(_:)`` for an unknown app.
    package func experiments(appID: String, environment: String = EnvironmentName.production) throws -> [Listed] {
        try database.read { connection in
            let liveRevision = try Self.liveRevision(appID: appID, environment: environment, on: connection)
            // CASE guards json_extract against non-object members (as in ExperimentDefinition).
            let configured = try connection.query(
                connection.engine == .sqlite
                    ? """
                    SELECT CASE WHEN e.type = 'object' THEN json_extract(e.value, '$.key') END AS key,
                           max(p.number = ?) AS live
                    FROM policy_revisions AS p, json_each(p.document, '$.experiments') AS e
                    WHERE p.app_id = ? AND p.environment = ? AND json_valid(p.document) GROUP BY 1
                    """
                    : """
                    SELECT CASE WHEN jsonb_typeof(e.value) = 'object' THEN e.value ->> 'key' END AS key,
                           max(CASE WHEN p.number = ? THEN 1 ELSE 0 END) AS live
                    FROM policy_revisions AS p,
                        jsonb_array_elements(\(ExperimentDefinition.experimentsArrayPostgres)) AS e(value)
                    WHERE p.app_id = ? AND p.environment = ? GROUP BY 1
                    """, [.integer(Int64(liveRevision)), .text(appID), .text(environment)])
            let exposed = try connection.query(
                """
                SELECT experiment_key, sum(exposed) FROM experiment_funnel_counts WHERE app_id = ? AND environment = ?
                GROUP BY experiment_key
                """, [.text(appID), .text(environment)])
            var live: [String: Bool] = [:]
            for row in configured {
                guard let key = try row.get(0, as: String?.self) else { continue }
                live[key] = (try row.get(1, as: Int64.self)) != 0
            }
            var counts: [String: Int] = [:]
            for row in exposed { counts[try row.get(0, as: String.self)] = Int(try row.get(1, as: Int64.self)) }
            return Set(live.keys).union(counts.keys).sorted().map {
                Listed(key: $0, isLive: live[$0] ?? false, exposed: counts[$0] ?? 0)
            }
        }
    }

    /// The environment's live revision number (0 without one); throws ``ExperimentResultsError/appNotFound(_:)`` for an
    /// unknown app or environment.
    private static func liveRevision(appID: String, environment: String, on connection: Connection) throws -> Int {
        guard
            let row = try connection.queryOne(
                "SELECT live_revision FROM environments WHERE app_id = ? AND name = ?",
                [.text(appID), .text(environment)])
        else { throw ExperimentResultsError.appNotFound(appID) }
        return try row.get(0, as: Int?.self) ?? 0
    }

    /// Joins configuration and counters and runs
    /// ``ExperimentAnalysis/analyze(experimentKey:feature:variants:controlName:minimumEffect:settings:)``.
    ///
    /// Configured variants come first, in configuration order, with zero counts when nothing was seen. Variants seen
    /// in events but absent from the configuration follow with weight 0: installs in an arm the configuration does
    /// not give any share is a sample-ratio mismatch outright, which is the truth (assignment or logging is broken,
    /// or the configuration changed mid-experiment).
    ///
    /// A `minimumEffect` or `alpha` other than the definition's makes the results exploratory: every verdict is
    /// removed, so no request can produce a verdict the fixed settings do not give. Another `control` only changes
    /// which arm the others are compared with, as before.
    package static func analyze(
        appID: String, definition: ExperimentDefinition, arms: [ExperimentArm], minimumEffect: Double? = nil,
        alpha: Double? = nil, control: String?
    ) throws -> ExperimentResults {
        let armsOfFeature = arms.filter { $0.feature == definition.feature }
        var counts: [String: FunnelCounts] = [:]
        for arm in armsOfFeature { counts[arm.variant] = arm.counts }
        var variants = definition.variants.map {
            (name: $0.name, weight: $0.weight, counts: counts[$0.name] ?? FunnelCounts())
        }
        let configured = Set(definition.variants.map(\.name))
        for arm in armsOfFeature where !configured.contains(arm.variant) {
            variants.append((arm.variant, 0, arm.counts))
        }
        let controlName = control ?? definition.control
        guard variants.contains(where: { $0.name == controlName }) else {
            throw ExperimentResultsError.invalidParameter(
                name: "control", value: controlName,
                reason: "is not a variant of the experiment (\(variants.map(\.name).joined(separator: ", ")))")
        }
        let effect = minimumEffect ?? definition.minimumEffect
        let level = alpha ?? definition.alpha
        let exploratory = effect != definition.minimumEffect || level != definition.alpha
        var report: ExperimentReport
        do {
            report = try ExperimentAnalysis.analyze(
                experimentKey: definition.key, feature: definition.feature, variants: variants,
                controlName: controlName, minimumEffect: effect, settings: .init(alpha: level))
        } catch {
            throw ExperimentResultsError.unanalysable(error)
        }
        if exploratory {
            for index in report.variants.indices {
                report.variants[index].verdict = nil
                report.variants[index].taskVerdict = nil
            }
        }
        let otherFeatures = Set(arms.map(\.feature)).subtracting([definition.feature]).sorted()
        return ExperimentResults(
            appID: appID, report: report, definition: definition, otherFeatures: otherFeatures,
            isExploratory: exploratory)
    }
}
