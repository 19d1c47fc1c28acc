import PreludeCore

/// When the client may send its queued events: a pure state machine over consecutive failed batches and the
/// backoff, with the time passed in (the events' counterpart of ``RefreshSchedule``).
///
/// A flush is due when events are waiting and no backoff or `Retry-After` is pending. Every trigger (foreground, on
/// demand) goes through ``isDue(now:queued:)``; a batch the server acknowledges (or refuses for good) resets the
/// backoff, any other answer grows it with jitter, never below the server's `Retry-After`.
public struct FlushSchedule: Sendable, Hashable {
    /// Consecutive failed batches since the last acknowledged one.
    public private(set) var failures: Int = 0
    /// No batch before this instant (backoff, `Retry-After`); nil when none is pending.
    public private(set) var notBefore: Instant?
    /// Why the last batch failed (HTTP status or network error); nil after an acknowledged batch.
    public private(set) var lastFailure: String?
    private let backoff: Backoff

    /// A schedule with no failure yet, backing off by `backoff` after failures.
    public init(backoff: Backoff) {
        self.backoff = backoff
    }

    /// Whether a flush should start at `now` with `queued` events waiting: there is something to send and no
    /// backoff is pending.
    public func isDue(now: Instant, queued: Int) -> Bool {
        guard queued > 0 else { return false }
        if let notBefore, now < notBefore { return false }
        return true
    }

    /// Records a batch the server answered for good (202, or a 4xx that would refuse it however often it is sent):
    /// the backoff resets.
    public mutating func succeeded() {
        failures = 0
        notBefore = nil
        lastFailure = nil
    }

    /// Records a batch that failed at `now` (any other status, or no answer): backs off with jitter `unit` in
    /// [0, 1), never less than `retryAfter` seconds, and keeps `reason` for diagnostics.
    public mutating func failed(at now: Instant, unit: Double, retryAfter: Double?, reason: String) {
        failures += 1
        notBefore = now.adding(seconds: backoff.delay(failures: failures, unit: unit, retryAfter: retryAfter))
        lastFailure = reason
    }
}
