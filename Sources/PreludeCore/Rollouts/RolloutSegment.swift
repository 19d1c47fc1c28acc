/// One segment a rollout's guard watches on its own: a value of one breakdown dimension (`locale` `de`, `osMajor`
/// `17`), as the events carry it (``EventSegment``).
public struct RolloutSegment: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The dimension.
    public var dimension: SegmentBreakdown.Dimension
    /// The value (`de`, `17`).
    public var value: String

    /// Creates a segment.
    public init(_ dimension: SegmentBreakdown.Dimension, _ value: String) {
        self.dimension = dimension
        self.value = value
    }

    /// `locale:de`.
    public var description: String { dimension.rawValue + ":" + value }

    /// Parses ``description``'s form; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let dimension = SegmentBreakdown.Dimension(rawValue: String(parts[0])),
            !parts[1].isEmpty
        else { return nil }
        self.init(dimension, String(parts[1]))
    }

    /// `{"dimension": "locale", "value": "de"}`.
    public var jsonValue: JSONValue {
        .object(JSONObject([("dimension", .string(dimension.rawValue)), ("value", .string(value))]))
    }

    public static func < (lhs: RolloutSegment, rhs: RolloutSegment) -> Bool {
        (lhs.dimension.rawValue, lhs.value) < (rhs.dimension.rawValue, rhs.value)
    }
}

/// The two arms' funnels within one segment: what the per-segment guard reads.
public struct RolloutSegmentCounts: Sendable, Hashable {
    /// The segment.
    public var segment: RolloutSegment
    /// The control arm's funnel in it.
    public var control: FunnelCounts
    /// The new arm's funnel in it.
    public var rollout: FunnelCounts

    /// Creates counts.
    public init(segment: RolloutSegment, control: FunnelCounts, rollout: FunnelCounts) {
        self.segment = segment
        self.control = control
        self.rollout = rollout
    }
}

/// Everything one evaluation of the guard reads: the arms' cumulative funnels, per segment where the plan guards
/// segments, and the experiment's mislabelled and counted events.
public struct RolloutObservation: Sendable, Hashable {
    /// The control arm's funnel.
    public var control: FunnelCounts
    /// The new arm's funnel.
    public var rollout: FunnelCounts
    /// The arms per segment value (any order; values `unknown` and `other` are never guarded on their own).
    public var segments: [RolloutSegmentCounts]
    /// Events of the experiment whose variant disagreed with the install's assignment.
    public var mislabelledEvents: Int
    /// Events counted in the experiment's arms.
    public var events: Int

    /// Creates an observation.
    public init(
        control: FunnelCounts, rollout: FunnelCounts, segments: [RolloutSegmentCounts] = [],
        mislabelledEvents: Int = 0, events: Int = 0
    ) {
        self.control = control
        self.rollout = rollout
        self.segments = segments
        self.mislabelledEvents = mislabelledEvents
        self.events = events
    }
}
