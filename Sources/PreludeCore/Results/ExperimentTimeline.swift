/// An experiment over time: per day, each arm's running funnel and each comparison with the control as it stood at
/// the end of that day. Built from the daily increments the service keeps (migration 0010); a pure function.
///
/// The confidence sequence is what makes a chart of the difference over time honest: it holds at every day at
/// once with probability 1 − α, so a reader may look at the whole curve (docs/results.md, "Results page").
public struct ExperimentTimeline: Sendable, Hashable {
    /// One day's state.
    public struct Day: Sendable, Hashable {
        /// Days since 1970-01-01 (UTC).
        public var day: Int
        /// Events stored that day over every arm (new rows, whether or not they moved a counter).
        public var events: Int
        /// Each arm's running funnel at the end of the day, in the report's variant order.
        public var funnels: [FunnelCounts]
        /// Each non-control arm's grant-rate comparison at the end of the day (nil for the control, and while an
        /// arm has no exposures), in the report's variant order.
        public var grant: [Point?]
        /// The same for task completion.
        public var task: [Point?]

        /// Creates a day.
        public init(day: Int, events: Int, funnels: [FunnelCounts], grant: [Point?], task: [Point?]) {
            self.day = day
            self.events = events
            self.funnels = funnels
            self.grant = grant
            self.task = task
        }
    }

    /// A difference to the control with its always-valid confidence sequence.
    public struct Point: Sendable, Hashable {
        /// Variant rate − control rate.
        public var difference: Double
        /// The confidence sequence at the report's level.
        public var interval: ConfidenceInterval
    }

    /// The variants, in the report's order.
    public var variants: [String]
    /// The control's index in ``variants``.
    public var controlIndex: Int
    /// The days with any data, ascending (days without data are not listed: the state did not change).
    public var days: [Day]

    /// Accumulates daily increments.
    ///
    /// - Parameters:
    ///   - variants: the variant names in display order; `control` must be one of them.
    ///   - increments: per variant name, its (day, counter increments) rows in any order.
    ///   - events: per day, the events stored (any order; days may repeat and are summed).
    ///   - minimumEffect, alpha: the report's, for the mixing variance and the level of the sequences.
    public init(
        variants: [String], control: String, increments: [String: [(day: Int, counts: FunnelCounts)]],
        events: [(day: Int, events: Int)], minimumEffect: Double, alpha: Double
    ) {
        self.variants = variants
        let controlIndex = variants.firstIndex(of: control) ?? 0
        self.controlIndex = controlIndex
        var allDays = Set(events.map { $0.day })
        for rows in increments.values { allDays.formUnion(rows.map { $0.day }) }
        var byDay: [String: [Int: FunnelCounts]] = [:]
        for (name, rows) in increments {
            for row in rows {
                byDay[name, default: [:]][row.day] = (byDay[name]?[row.day] ?? FunnelCounts()) + row.counts
            }
        }
        var eventsByDay: [Int: Int] = [:]
        for row in events { eventsByDay[row.day, default: 0] += row.events }
        let tau2 = SequentialTest.mixingVariance(minimumEffect: minimumEffect)
        var running = [FunnelCounts](repeating: FunnelCounts(), count: variants.count)
        var days: [Day] = []
        for day in allDays.sorted() {
            for (index, name) in variants.enumerated() {
                if let increment = byDay[name]?[day] { running[index] = running[index] + increment }
            }
            let control = running[controlIndex]
            func point(_ successes: Int, _ trials: Int, _ controlSuccesses: Int, _ controlTrials: Int) -> Point? {
                guard
                    let interval = SequentialTest.interval(
                        treatmentSuccesses: successes, treatmentTrials: trials, controlSuccesses: controlSuccesses,
                        controlTrials: controlTrials, mixingVariance: tau2, alpha: alpha)
                else { return nil }
                return Point(
                    difference: Double(successes) / Double(trials) - Double(controlSuccesses) / Double(controlTrials),
                    interval: interval)
            }
            let grant = running.indices.map { index -> Point? in
                index == controlIndex
                    ? nil : point(running[index].granted, running[index].exposed, control.granted, control.exposed)
            }
            let task = running.indices.map { index -> Point? in
                index == controlIndex
                    ? nil
                    : point(
                        running[index].taskCompleted, running[index].taskStarted, control.taskCompleted,
                        control.taskStarted)
            }
            days.append(Day(day: day, events: eventsByDay[day] ?? 0, funnels: running, grant: grant, task: task))
        }
        self.days = days
    }

    /// The day as `YYYY-MM-DD` (proleptic Gregorian, UTC).
    public static func date(ofDay day: Int) -> String {
        // Howard Hinnant's days_from_civil inverse (civil_from_days).
        let z = day + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(y)-\(two(m))-\(two(d))"
    }
}
