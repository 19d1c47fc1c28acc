/// A point in time, in seconds since the Unix epoch, passed in by the caller.
///
/// The engine never reads the clock: the server passes the request time and tests pass simulated time,
/// so every decision is reproducible.
public struct Instant: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z (fractions allowed).
    public var secondsSinceEpoch: Double

    /// Creates an instant from seconds since the Unix epoch.
    public init(secondsSinceEpoch: Double) {
        self.secondsSinceEpoch = secondsSinceEpoch
    }

    /// The instant `seconds` later than this one.
    public func adding(seconds: Double) -> Instant {
        Instant(secondsSinceEpoch: secondsSinceEpoch + seconds)
    }

    /// Seconds from `other` to this instant (negative when this one is earlier).
    public func seconds(since other: Instant) -> Double {
        secondsSinceEpoch - other.secondsSinceEpoch
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.secondsSinceEpoch < rhs.secondsSinceEpoch
    }

    public var description: String { "\(secondsSinceEpoch)s" }

    // Encoded as a bare number of seconds, which is what clients send in their history.
    public init(from decoder: any Decoder) throws {
        secondsSinceEpoch = try decoder.singleValueContainer().decode(Double.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(secondsSinceEpoch)
    }
}
