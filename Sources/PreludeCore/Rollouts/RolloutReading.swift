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

    /// Whether the reading stops the rollout (harm or a sample-ratio mismatch).
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
            ]))
    }
}
