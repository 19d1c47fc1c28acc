/// What a rollout does about each kind of finding (docs/rollouts.md, "Actions per finding"): roll back, hold (pause
/// and notify), warn (notify only), or — for a harmed segment — carve the segment out and ramp on elsewhere.
public struct RolloutActions: Sendable, Hashable {
    /// One response to a finding.
    public enum Response: String, Sendable, Hashable, CaseIterable {
        /// Stop and serve the previous behaviour again (status `rolledBack`).
        case rollback
        /// Pause at the step and notify (status `paused`, webhook `rollout.held`); an operator resumes or aborts.
        case hold
        /// Notify only (audit record, log, metric); the rollout goes on.
        case warn
        /// Segment harm only: keep the old screen for that segment (a targeting rule) while the rest ramps on.
        case exclude
    }

    /// Grant-rate or denial-rate harm over all installs (default rollback).
    public var harm: Response
    /// The harm bound may exceed ``RolloutPlan/harmBudget`` (default rollback).
    public var harmBudget: Response
    /// Exposures do not split as planned (default hold: assignment or logging is broken, not the change).
    public var sampleRatioMismatch: Response
    /// The new arm gained no install during ``RolloutPlan/noTrafficGraceMillis`` of a step (default hold).
    public var noTraffic: Response
    /// More than ``RolloutPlan/mislabelledShare`` of the experiment's events reported another variant (default
    /// hold: the counts cannot be trusted).
    public var mislabelledEvents: Response
    /// A signal outcome is worse (Settings opened after a denial): hold or warn, never rollback (default warn).
    public var signal: Response
    /// Harm within one OS major version or locale (default exclude, where the change can be carved out for it;
    /// otherwise hold).
    public var segmentHarm: Response

    /// The documented defaults.
    public init(
        harm: Response = .rollback, harmBudget: Response = .rollback, sampleRatioMismatch: Response = .hold,
        noTraffic: Response = .hold, mislabelledEvents: Response = .hold, signal: Response = .warn,
        segmentHarm: Response = .exclude
    ) {
        self.harm = harm
        self.harmBudget = harmBudget
        self.sampleRatioMismatch = sampleRatioMismatch
        self.noTraffic = noTraffic
        self.mislabelledEvents = mislabelledEvents
        self.signal = signal
        self.segmentHarm = segmentHarm
    }

    /// The members by name, in the JSON's order.
    public static let members = [
        "harm", "harmBudget", "sampleRatioMismatch", "noTraffic", "mislabelledEvents", "signal", "segmentHarm",
    ]

    /// The response named `member` (one of ``members``).
    public subscript(member: String) -> Response {
        get {
            switch member {
            case "harm": harm
            case "harmBudget": harmBudget
            case "sampleRatioMismatch": sampleRatioMismatch
            case "noTraffic": noTraffic
            case "mislabelledEvents": mislabelledEvents
            case "signal": signal
            default: segmentHarm
            }
        }
        set {
            switch member {
            case "harm": harm = newValue
            case "harmBudget": harmBudget = newValue
            case "sampleRatioMismatch": sampleRatioMismatch = newValue
            case "noTraffic": noTraffic = newValue
            case "mislabelledEvents": mislabelledEvents = newValue
            case "signal": signal = newValue
            default: segmentHarm = newValue
            }
        }
    }

    /// The response to `finding` (benefit has none: it only finishes early).
    public func response(to finding: RolloutReading.Finding) -> Response? {
        switch finding {
        case .grantRateHarm, .denialRateHarm: harm
        case .harmBudgetExceeded: harmBudget
        case .sampleRatioMismatch: sampleRatioMismatch
        case .noTraffic: noTraffic
        case .mislabelledEvents: mislabelledEvents
        case .settingsSignal: signal
        case .segmentHarm: segmentHarm
        case .benefit: nil
        }
    }

    /// `{"harm": "rollback", …}`.
    public var jsonValue: JSONValue {
        .object(JSONObject(Self.members.map { ($0, JSONValue.string(self[$0].rawValue)) }))
    }

    /// The rules as (member, sentence): `exclude` only for segment harm; a signal never rolls back.
    public func problems() -> [(member: String, message: String)] {
        var problems: [(member: String, message: String)] = []
        for member in Self.members where member != "segmentHarm" && self[member] == .exclude {
            problems.append(("actions/\(member)", "exclude applies to segmentHarm only; use rollback, hold or warn"))
        }
        if signal == .rollback {
            problems.append(
                ("actions/signal", "a signal outcome can hold or warn but never roll back: it is not harm itself"))
        }
        return problems
    }

    /// How strongly a response acts, for comparing a plan to an environment's floor: rollback 3, hold and exclude
    /// 2, warn 1.
    public static func strength(_ response: Response) -> Int {
        switch response {
        case .rollback: 3
        case .hold, .exclude: 2
        case .warn: 1
        }
    }
}
