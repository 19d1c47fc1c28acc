import PreludeCore

/// When to try again after failures: the core's ``PreludeCore/Backoff`` (the client's formula too), with the count of
/// failures and the time of the next attempt kept here; time passed in (no clock, no sleeping).
///
/// The n-th consecutive failure waits `min(maxDelay, baseDelay · 2ⁿ⁻¹)` scaled by a factor in [0.5, 1] drawn from
/// the `random` value the caller passes ("equal jitter"): replicas that lost the primary together do not come back
/// in lockstep, and none waits less than half the nominal delay.
package struct RetrySchedule: Sendable, Equatable {
    /// The first delay, in seconds.
    package var baseDelay: Double
    /// The longest delay, in seconds.
    package var maxDelay: Double
    /// Consecutive failures since the last success.
    package private(set) var failures = 0
    /// When the next attempt is due (seconds, the caller's clock); nil when one may start at once.
    package private(set) var retryAt: Double?

    /// A schedule with the given delays.
    package init(baseDelay: Double = 0.25, maxDelay: Double = 5) {
        precondition(baseDelay > 0 && maxDelay >= baseDelay, "delays must be positive and ordered")
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// The delay after `failures` consecutive failures (≥ 1) with jitter `random` in [0, 1).
    package func delay(afterFailures failures: Int, random: Double) -> Double {
        Backoff(base: baseDelay, maximum: maxDelay).delay(failures: max(failures, 1), unit: random)
    }

    /// Whether an attempt may start at `now`.
    package func isDue(now: Double) -> Bool { retryAt.map { now >= $0 } ?? true }

    /// Records a failure at `now`; the next attempt is due after the backoff delay.
    package mutating func failed(now: Double, random: Double) {
        failures += 1
        retryAt = now + delay(afterFailures: failures, random: random)
    }

    /// Records a success: the next attempt may start at once and the delays start over.
    package mutating func succeeded() {
        failures = 0
        retryAt = nil
    }
}
