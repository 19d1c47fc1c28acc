import PreludeCore
import PreludeStorage

extension ExperimentAggregator {
    /// Accounts for a batch of newly stored events at once; the result equals
    /// ``record(appID:environment:installID:type:feature:experiment:variant:receivedAt:segment:on:)`` called for each event in order, at a
    /// fraction of the cost.
    ///
    /// The events are grouped by arm (app, environment, experiment, feature, variant) and, within an arm, by install (OR of the
    /// steps its events mark). Per arm: one read of the existing steps of all its installs, the new steps and the
    /// counter delta computed in memory (``FunnelCounts/add(from:to:)`` from the stored steps to their union with
    /// the batch's, which is the sum of the per-event deltas), one multi-row upsert of the steps that changed, and one
    /// counters upsert. So a batch of 100 events of 20 installs in two arms costs 6 statements instead of 300.
    ///
    /// - Returns: how many installs reached a new step.
    @discardableResult
    package func record(batch events: [StoredEvent], on connection: Connection) throws -> Int {
        var arms: [ArmKey: Int] = [:]
        var groups: [ArmGroup] = []
        // The live policy is looked up once per app of the batch; mislabelled events are summed per row key.
        var policies: [String: [String: PolicyDocument?]] = [:]
        var mislabelled: [MislabelKey: (events: Int, lastReceivedAt: Int64)] = [:]
        var mislabelOrder: [MislabelKey] = []
        // The label check is a function of the event's app, environment, install, feature, experiment and variant
        // (and the app's live policy, fixed for the batch). A client's batch is one install's events under one
        // assignment, so the last check is reused while those stay the same: one bucketing per run instead of one
        // per event.
        var lastCheck: (event: StoredEvent, check: LabelCheck)?
        for event in events {
            guard let experiment = event.experiment, !experiment.isEmpty, let variant = event.variant, !variant.isEmpty
            else { continue }
            if let livePolicy {
                let check: LabelCheck
                if let last = lastCheck, Self.sameLabel(last.event, event) {
                    check = last.check
                } else {
                    let document: PolicyDocument?
                    if let known = policies[event.appID]?[event.environment] {
                        document = known
                    } else {
                        document = livePolicy(event.appID, event.environment)
                        policies[event.appID, default: [:]][event.environment] = document
                    }
                    check = Self.check(
                        installID: event.installID, feature: event.feature.rawValue, experiment: experiment,
                        variant: variant, in: document)
                    lastCheck = (event, check)
                }
                if case .mislabelled(let expected) = check {
                    let key = MislabelKey(
                        appID: event.appID, environment: event.environment, experiment: experiment,
                        feature: event.feature.rawValue, reported: variant,
                        expected: expected)
                    if let sum = mislabelled[key] {
                        mislabelled[key] = (sum.events + 1, max(sum.lastReceivedAt, event.receivedAt))
                    } else {
                        mislabelOrder.append(key)
                        mislabelled[key] = (1, event.receivedAt)
                    }
                    continue
                }
            }
            let key = ArmKey(
                appID: event.appID, environment: event.environment, experiment: experiment,
                feature: event.feature.rawValue, variant: variant)
            let index: Int
            if let known = arms[key] {
                index = known
            } else {
                index = groups.count
                arms[key] = index
                groups.append(ArmGroup(key: key))
            }
            groups[index].add(
                install: event.installID, steps: FunnelSteps.marked(by: event.type),
                receivedAt: event.receivedAt, segment: event.segment)
        }
        if !groups.isEmpty || !mislabelOrder.isEmpty { try Self.serializeCounters(on: connection) }
        // One order of the counter rows within a batch (arms sorted, then each arm's rows by table, day and
        // segment), so the statements' order does not depend on which arm the batch named first.
        groups.sort { $0.key.order.lexicographicallyPrecedes($1.key.order) }
        mislabelOrder.sort { $0.order.lexicographicallyPrecedes($1.order) }
        var changed = 0
        for group in groups { changed += try apply(group, on: connection) }
        for key in mislabelOrder {
            let sum = mislabelled[key]!
            try Self.recordMislabelled(
                appID: key.appID, environment: key.environment, experiment: key.experiment, feature: key.feature,
                reported: key.reported,
                expected: key.expected, events: sum.events, receivedAt: sum.lastReceivedAt, on: connection)
        }
        return changed
    }

    /// Whether two events' labels get the same check: same app, environment, install, feature, experiment and
    /// variant.
    static func sameLabel(_ one: StoredEvent, _ other: StoredEvent) -> Bool {
        one.installID == other.installID && one.variant == other.variant && one.experiment == other.experiment
            && one.feature == other.feature && one.appID == other.appID && one.environment == other.environment
    }

    private struct MislabelKey: Hashable {
        var appID: String
        var environment: String
        var experiment: String
        var feature: String
        var reported: String
        var expected: String?

        /// The order in which transactions write mislabelled counts.
        var order: [String] { [appID, environment, experiment, feature, reported, expected ?? ""] }
    }

    /// One arm's share of a batch: per install (in first-seen order) the union of the steps its events mark.
    private struct ArmGroup {
        let key: ArmKey
        var installs: [String] = []
        var marks: [String: Mark] = [:]
        /// New events of the arm per UTC day of arrival (most batches: one day).
        var eventsByDay: [(day: Int64, events: Int)] = []

        struct Mark {
            var steps: FunnelSteps
            /// `received_at` of the install's first event in the batch (becomes `first_seen_at` when new).
            var firstReceivedAt: Int64
            /// `received_at` of its last event in the batch.
            var lastReceivedAt: Int64
            /// The segment of its first event in the batch (the install's segment when it is new to the arm).
            var segment: EventSegment
        }

        init(key: ArmKey) { self.key = key }

        mutating func add(install: String, steps: FunnelSteps, receivedAt: Int64, segment: EventSegment) {
            let day = ExperimentAggregator.day(ofMilliseconds: receivedAt)
            if let index = eventsByDay.firstIndex(where: { $0.day == day }) {
                eventsByDay[index].events += 1
            } else {
                eventsByDay.append((day, 1))
            }
            if var mark = marks[install] {
                mark.steps.formUnion(steps)
                mark.lastReceivedAt = max(mark.lastReceivedAt, receivedAt)
                marks[install] = mark
            } else {
                installs.append(install)
                marks[install] = Mark(
                    steps: steps, firstReceivedAt: receivedAt, lastReceivedAt: receivedAt, segment: segment)
            }
        }
    }

    private struct ArmKey: Hashable {
        var appID: String
        var environment: String
        var experiment: String
        var feature: String
        var variant: String

        /// The order in which transactions write arms' rows.
        var order: [String] { [appID, environment, experiment, feature, variant] }
    }

    private func apply(_ group: ArmGroup, on connection: Connection) throws -> Int {
        let key = group.key
        let app = SQLValue.text(key.appID)
        let experiment = SQLValue.text(key.experiment)
        let feature = SQLValue.text(key.feature)
        let variant = SQLValue.text(key.variant)
        let environment = SQLValue.text(key.environment)

        var stored: [String: (steps: FunnelSteps, segment: EventSegment)] = [:]
        stored.reserveCapacity(group.installs.count)
        let select = try connection.statement(
            connection.engine == .sqlite ? Self.selectBatchSteps : Self.selectBatchStepsPostgres)
        try select.bind([app, experiment, feature, variant, .text(Self.jsonArray(group.installs)), environment])
        defer { select.reset() }
        while let row = try select.step() {
            stored[try row.get(0, as: String.self)] = (
                FunnelSteps(rawValue: try row.get(1, as: Int.self)),
                EventSegment(osMajor: try row.get(2, as: Int?.self), locale: try row.get(3, as: String?.self))
            )
        }
        select.reset()

        var delta = FunnelCounts()
        // An install's increments count on the day of its last event in the batch (a batch straddles midnight
        // only when its group commit does).
        var dailyDelta: [Int64: FunnelCounts] = [:]
        // An install's increments count in its segment: the one stored with it, or for a new install its first
        // event's (docs/results.md, "Breakdowns").
        var segmentDelta: [EventSegment: FunnelCounts] = [:]
        var upserts = "["
        var changed = 0
        var firstChange = Int64.max
        var lastChange = Int64.min
        for install in group.installs {
            let mark = group.marks[install]!
            let known = stored[install]
            let old = known?.steps ?? []
            let new = old.union(mark.steps)
            guard new != old else { continue }
            delta.add(from: old, to: new)
            dailyDelta[Self.day(ofMilliseconds: mark.lastReceivedAt), default: FunnelCounts()].add(from: old, to: new)
            segmentDelta[known?.segment ?? mark.segment, default: FunnelCounts()].add(from: old, to: new)
            if changed > 0 { upserts += "," }
            upserts += "[" + JSONValue.quoted(install) + ",\(new.rawValue),\(mark.firstReceivedAt),"
            upserts += (mark.segment.osMajor.map(String.init) ?? "null") + ","
            upserts += (mark.segment.locale.map(JSONValue.quoted) ?? "null") + "]"
            changed += 1
            firstChange = min(firstChange, mark.firstReceivedAt)
            lastChange = max(lastChange, mark.lastReceivedAt)
        }
        for (day, events) in group.eventsByDay.sorted(by: { $0.day < $1.day }) {
            try Self.countEvents(
                app, environment, experiment, feature, variant, day: day, events: events, on: connection)
        }
        guard changed > 0 else { return 0 }
        for day in dailyDelta.keys.sorted() {
            try Self.upsertDaily(
                app, environment, experiment, feature, variant, day: day, delta: dailyDelta[day]!, on: connection)
        }
        try Self.upsertSegments(
            app, environment, experiment, feature, variant, deltas: segmentDelta, on: connection)
        upserts += "]"
        try connection.statement(
            connection.engine == .sqlite ? Self.upsertBatchSteps : Self.upsertBatchStepsPostgres
        ).execute([
            app, experiment, feature, variant, .text(upserts), environment,
        ])
        try connection.statement(Self.upsertCounts).execute(
            [app, environment, experiment, feature, variant] + Self.counterValues(delta)
                + [.integer(firstChange), .integer(lastChange)])
        return changed
    }

    /// A JSON array of strings.
    static func jsonArray(_ strings: [String]) -> String {
        var text = "["
        for (index, string) in strings.enumerated() {
            if index > 0 { text += "," }
            text += JSONValue.quoted(string)
        }
        return text + "]"
    }

    // The install ids come as one JSON array (json_each), so one prepared statement serves any batch size; the
    // CROSS JOIN keeps json_each as the outer loop: one primary-key seek per install.
    private static let selectBatchSteps = """
        SELECT s.install_id, s.steps, s.os_major, s.locale FROM json_each(?5) AS j CROSS JOIN experiment_install_steps AS s
        WHERE s.app_id = ?1 AND s.environment = ?6 AND s.experiment_key = ?2 AND s.feature = ?3 AND s.variant = ?4 AND s.install_id = j.value
        """

    // PostgreSQL's spelling: the array's elements as text (jsonb_array_elements_text).
    private static let selectBatchStepsPostgres = """
        SELECT s.install_id, s.steps, s.os_major, s.locale
        FROM jsonb_array_elements_text(CAST(?5 AS jsonb)) AS j(value) CROSS JOIN experiment_install_steps AS s
        WHERE s.app_id = ?1 AND s.environment = ?6 AND s.experiment_key = ?2 AND s.feature = ?3 AND s.variant = ?4 AND s.install_id = j.value
        """

    // PostgreSQL's spelling: each member read as text and cast to its column's type.
    private static let upsertBatchStepsPostgres = """
        INSERT INTO experiment_install_steps
            (app_id, environment, experiment_key, feature, variant, install_id, steps, first_seen_at, os_major, locale)
        SELECT ?1, ?6, ?2, ?3, ?4, j.value ->> 0, CAST(j.value ->> 1 AS BIGINT), CAST(j.value ->> 2 AS BIGINT),
            CAST(j.value ->> 3 AS BIGINT), j.value ->> 4
        FROM jsonb_array_elements(CAST(?5 AS jsonb)) AS j(value)
        ON CONFLICT (app_id, environment, experiment_key, feature, variant, install_id)
        DO UPDATE SET steps = excluded.steps
        """

    // Rows [install, steps, first_seen_at, os_major, locale] as one JSON array; the segment is written once, when the
    // install is new to the arm. `WHERE true` resolves the INSERT … SELECT … ON
    // CONFLICT parsing ambiguity (SQLite's upsert documentation, "Parsing Ambiguity").
    private static let upsertBatchSteps = """
        INSERT INTO experiment_install_steps
            (app_id, environment, experiment_key, feature, variant, install_id, steps, first_seen_at, os_major, locale)
        SELECT ?1, ?6, ?2, ?3, ?4, j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4
        FROM json_each(?5) AS j WHERE true
        ON CONFLICT (app_id, environment, experiment_key, feature, variant, install_id)
        DO UPDATE SET steps = excluded.steps
        """
}
