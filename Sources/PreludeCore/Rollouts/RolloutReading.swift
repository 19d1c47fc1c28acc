/// What the guard read from the two arms at one evaluation: the figures behind its decision.
public struct RolloutReading: Sendable, Hashable {
    /// Why a reading stops a rollout, or lets it finish early.
    public enum Finding: String, Sendable, Hashable {
        /// Anytime-valid evidence that the new arm's grant rate is lower.
        case grantRateHarm
        /// Anytime-valid evidence that the new arm's denial rate is higher.
        case denialRateHarm
        /// Anytime-valid evidence that exposures do not split as planned: assignment or logging is broken.
        case sampleRatioMismatch
        /// Anytime-valid evidence that the new arm's grant rate is higher.
        case benefit
        /// The harm bound (``RolloutHarmBound``) exceeds the plan's ``RolloutPlan/harmBudget``.
        case harmBudgetExceeded
        /// Anytime-valid, Holm-corrected evidence of harm within one guarded segment (``segmentHarms``).
        case segmentHarm
        /// Anytime-valid evidence that more of the new arm's installs open Settings after a denial (a signal).
        case settingsSignal
        /// More than ``RolloutPlan/mislabelledShare`` of the experiment's events reported another variant.
        case mislabelledEvents
        /// The new arm gained no install for ``RolloutPlan/noTrafficGraceMillis`` of a step (found by
        /// ``RolloutMachine``, which knows the time).
        case noTraffic
    }

    /// One guarded segment's tests at this reading.
    public struct SegmentReading: Sendable, Hashable {
        /// The segment.
        public var segment: RolloutSegment
        /// Installs exposed in the control and the new arm within it.
        public var controlExposed: Int
        public var rolloutExposed: Int
        /// Grant-rate and denial-rate differences (new arm minus control).
        public var grantDifference: Double
        public var denialDifference: Double
        /// The one-sided always-valid p-values of grant harm and denial harm, Holm-adjusted over the plan's fixed
        /// family (``RolloutPlan/segmentFamilySize``).
        public var grantHarmAdjusted: Double
        public var denialHarmAdjusted: Double
        /// Whether either adjusted value is below ``RolloutPlan/segmentAlpha``.
        public var harmed: Bool

        /// Creates a segment reading.
        public init(
            segment: RolloutSegment, controlExposed: Int, rolloutExposed: Int, grantDifference: Double,
            denialDifference: Double, grantHarmAdjusted: Double, denialHarmAdjusted: Double, harmed: Bool
        ) {
            self.segment = segment
            self.controlExposed = controlExposed
            self.rolloutExposed = rolloutExposed
            self.grantDifference = grantDifference
            self.denialDifference = denialDifference
            self.grantHarmAdjusted = grantHarmAdjusted
            self.denialHarmAdjusted = denialHarmAdjusted
            self.harmed = harmed
        }

        /// The segment reading as JSON.
        public var jsonValue: JSONValue {
            .object(
                JSONObject([
                    ("dimension", .string(segment.dimension.rawValue)), ("value", .string(segment.value)),
                    ("controlExposed", .integer(controlExposed)), ("rolloutExposed", .integer(rolloutExposed)),
                    ("grantDifference", .double(grantDifference)), ("denialDifference", .double(denialDifference)),
                    ("grantHarmPValue", .double(grantHarmAdjusted)), ("denialHarmPValue", .double(denialHarmAdjusted)),
                    ("harmed", .bool(harmed)),
                ]))
        }
    }

    /// The control arm's funnel.
    public var control: FunnelCounts
    /// The new arm's funnel.
    public var rollout: FunnelCounts
    /// The planned share of the new arm among exposed installs.
    public var plannedShare: Double
    /// Grant rate of the new arm minus the control's; nil until both arms have exposures.
    public var grantDifference: Double?
    /// The always-valid one-sided p-value of "the new arm grants less"; nil until both arms reach
    /// ``RolloutPlan/minimumExposedPerArm``.
    public var grantHarmPValue: Double?
    /// The always-valid one-sided p-value of "the new arm grants more"; nil likewise.
    public var grantBenefitPValue: Double?
    /// Denial rate (systemDenied / exposed) of the new arm minus the control's; nil until both arms have exposures.
    public var denialDifference: Double?
    /// The always-valid one-sided p-value of "the new arm is denied more"; nil likewise.
    public var denialHarmPValue: Double?
    /// The always-valid p-value of the sample-ratio test against ``plannedShare``.
    public var sampleRatioPValue: Double
    /// What the reading found, most serious first (sample ratio, grant harm, denial harm, benefit); empty when
    /// nothing is conclusive yet.
    public var findings: [Finding]

    /// The harm bound in installs (``RolloutHarmBound``): at most this many extra denied installs so far, at 95 %.
    public var harmBound: Double = 0
    /// The plan's budget, for the record.
    public var harmBudget: Int?
    /// The guarded segments tested at this reading (the most exposed values of each guarded dimension), with their
    /// Holm-adjusted p-values.
    public var segments: [SegmentReading] = []
    /// The one-sided always-valid p-value of "more of the new arm's installs open Settings after a denial"; nil
    /// until both arms reach ``RolloutPlan/minimumExposedPerArm``.
    public var settingsSignalPValue: Double?
    /// Mislabelled events over all the experiment's events (mislabelled and counted); nil without events.
    public var mislabelledShare: Double?

    /// The segments found harmed.
    public var harmedSegments: [RolloutSegment] { segments.filter(\.harmed).map(\.segment) }

    /// Whether the reading holds any finding but benefit.
    public var tripsGuard: Bool { findings.contains { $0 != .benefit } }

    /// Creates a reading.
    public init(
        control: FunnelCounts, rollout: FunnelCounts, plannedShare: Double, grantDifference: Double?,
        grantHarmPValue: Double?, grantBenefitPValue: Double?, denialDifference: Double?, denialHarmPValue: Double?,
        sampleRatioPValue: Double, findings: [Finding]
    ) {
        self.control = control
        self.rollout = rollout
        self.plannedShare = plannedShare
        self.grantDifference = grantDifference
        self.grantHarmPValue = grantHarmPValue
        self.grantBenefitPValue = grantBenefitPValue
        self.denialDifference = denialDifference
        self.denialHarmPValue = denialHarmPValue
        self.sampleRatioPValue = sampleRatioPValue
        self.findings = findings
    }

    /// The reading as JSON for the admin API and the audit record: counts, differences, p-values, findings.
    public var jsonValue: JSONValue {
        func arm(_ counts: FunnelCounts) -> JSONValue {
            .object(
                JSONObject([
                    ("exposed", .integer(counts.exposed)), ("granted", .integer(counts.granted)),
                    ("denied", .integer(counts.systemDenied)),
                ]))
        }
        func number(_ value: Double?) -> JSONValue { value.map { .double($0) } ?? .null }
        return .object(
            JSONObject([
                ("control", arm(control)), ("rollout", arm(rollout)), ("plannedShare", .double(plannedShare)),
                ("grantDifference", number(grantDifference)), ("grantHarmPValue", number(grantHarmPValue)),
                ("grantBenefitPValue", number(grantBenefitPValue)), ("denialDifference", number(denialDifference)),
                ("denialHarmPValue", number(denialHarmPValue)), ("sampleRatioPValue", .double(sampleRatioPValue)),
                ("findings", .array(findings.map { .string($0.rawValue) })),
                ("harmBound", .double(harmBound)), ("harmBudget", harmBudget.map { .integer($0) } ?? .null),
                ("segments", .array(segments.map(\.jsonValue))),
                ("settingsSignalPValue", number(settingsSignalPValue)),
                ("mislabelledShare", number(mislabelledShare)),
            ]))
    }
}
