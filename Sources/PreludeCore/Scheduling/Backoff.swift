/// Exponential backoff with jitter: the one formula for retrying after failures, used by the client (failed fetches
/// and flushes) and by the server (a replica's sync with its primary and its outbox forwarder, `RetrySchedule`).
///
/// After the n-th consecutive failure the next attempt waits `min(maximum, base × 2^(n-1))`, scaled by a
/// uniform factor in [0.5, 1) ("equal jitter") so a fleet of clients that failed together does not retry
/// together; a `Retry-After` from the server is a floor.
public struct Backoff: Sendable, Hashable {
    /// The first delay, in seconds.
    public var base: Double
    /// The longest delay, in seconds.
    public var maximum: Double

    /// Backoff starting at `base` seconds, capped at `maximum`.
    public init(base: Double = 2, maximum: Double = 3600) {
        precondition(base > 0 && maximum >= base, "backoff needs 0 < base <= maximum")
        self.base = base
        self.maximum = maximum
    }

    /// The delay after `failures` consecutive failures (≥ 1), with `unit` in [0, 1) from the jitter source, and
    /// the server's `Retry-After` as a floor.
    public func delay(failures: Int, unit: Double, retryAfter: Double? = nil) -> Double {
        precondition(failures >= 1, "a delay follows at least one failure")
        let exponent = Double(min(failures - 1, 40))
        let ceiling = min(maximum, base * pow2(exponent))
        let jittered = ceiling * (0.5 + 0.5 * min(max(unit, 0), 1))
        return max(jittered, retryAfter ?? 0)
    }

    private func pow2(_ exponent: Double) -> Double {
        var result = 1.0
        var remaining = Int(exponent)
        while remaining > 0 {
            result *= 2
            remaining -= 1
        }
        return result
    }
}
