import PreludeCore

/// Everything the results page shows, gathered by the caller (the service or `prelude results --html`).
public struct ResultsPageInput: Sendable {
    /// The app.
    public var app: String
    /// The analysis (arms, comparisons, verdicts, sample-ratio check).
    public var report: ExperimentReport
    /// Where the weights came from, one sentence ("Weights from the live policy (revision 3).").
    public var configuration: String
    /// The arms over time (daily state); nil or empty when no daily data exists (events before migration 0010).
    public var timeline: ExperimentTimeline?
    /// Events whose variant disagreed with the install's assignment (kept out of every arm).
    public var mislabelledEvents: Int
    /// The same, per reported/expected pair, for the health check's detail.
    public var mislabelled: [(feature: String, reported: String, expected: String?, events: Int)]
    /// Events of the experiment's key reported under another feature (listed, not counted).
    public var otherFeatures: [String]
    /// Vertical markers on every time chart (a rollout's steps and guard decisions), x in days since 1970-01-01.
    public var markers: [LineChart.Marker]
    /// The arms per OS major version and per locale (exploratory; empty: no breakdown section).
    public var segments: [SegmentBreakdown]
    /// A rollout's own section, first on the page: what happened and why, and the guard's chart (nil: an
    /// experiment's page).
    public var rollout: RolloutPanel?

    /// A rollout's section: a status banner with the guard's deciding figures and a chart on the guard's own axis.
    public struct RolloutPanel: Sendable {
        /// `ok`, `warn`, `fail` or `pending`: the banner's colour.
        public var tone: String
        /// What happened, one sentence ("Rolled back by the guard: grant-rate harm.").
        public var headline: String
        /// Why: the deciding figures, one line each.
        public var details: [String]
        /// Charts on the guard's own axis, the new arm's exposed installs, with the steps and the guard's decisions
        /// as markers: the harm bound against the budget, the grant-rate difference with its confidence sequence.
        public var charts: [LineChart]
        /// A closing note (how the guard's tests differ from the table's intervals).
        public var note: String

        /// Creates a panel.
        public init(tone: String, headline: String, details: [String], charts: [LineChart], note: String) {
            self.tone = tone
            self.headline = headline
            self.details = details
            self.charts = charts
            self.note = note
        }
    }

    /// Creates an input.
    public init(
        app: String, report: ExperimentReport, configuration: String, timeline: ExperimentTimeline? = nil,
        mislabelledEvents: Int = 0,
        mislabelled: [(feature: String, reported: String, expected: String?, events: Int)] = [],
        otherFeatures: [String] = [], markers: [LineChart.Marker] = [], segments: [SegmentBreakdown] = [],
        rollout: RolloutPanel? = nil
    ) {
        self.rollout = rollout
        self.segments = segments
        self.app = app
        self.report = report
        self.configuration = configuration
        self.timeline = timeline
        self.mislabelledEvents = mislabelledEvents
        self.mislabelled = mislabelled
        self.otherFeatures = otherFeatures
        self.markers = markers
    }
}
