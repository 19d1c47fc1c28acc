import Foundation
import PreludeCore

/// The client's source of the current time, injected so tests move time without sleeping.
public protocol PreludeClock: Sendable {
    /// The current instant.
    func now() -> Instant
}

/// Wall-clock time (`Date()`).
public struct SystemClock: PreludeClock {
    /// The system clock.
    public init() {}

    public func now() -> Instant { Instant(secondsSinceEpoch: Date().timeIntervalSince1970) }
}

/// Uniform numbers in [0, 1) for backoff jitter, injected so tests are deterministic.
public protocol JitterSource: Sendable {
    /// The next number in [0, 1).
    func nextUnit() -> Double
}

/// The system random generator.
public struct SystemJitter: JitterSource {
    /// The system generator.
    public init() {}

    public func nextUnit() -> Double { Double.random(in: 0..<1) }
}
