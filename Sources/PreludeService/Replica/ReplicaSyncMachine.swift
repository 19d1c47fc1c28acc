/// The replica's sync loop as a state machine: it says what to do next, and is told what happened, with the time
/// passed in, so every path (first sync, long polls, failures and backoff, lag) is tested without waiting.
///
/// The I/O shell (``ReplicaSync``) asks ``next(now:)`` for an action, performs it, and reports the outcome with
/// ``succeeded(now:etag:)`` or ``failed(now:random:)``.
package struct ReplicaSyncMachine: Sendable, Equatable {
    /// What the shell should do.
    package enum Action: Sendable, Equatable {
        /// Request the change feed with `If-None-Match: ifNoneMatch` (when known), held up to `wait` seconds.
        case poll(ifNoneMatch: String?, wait: Int)
        /// Do nothing until `until` (backing off after a failure).
        case sleep(until: Double)
    }

    /// How long the primary may hold a poll once the replica is in step (seconds; at most
    /// ``ReplicationRoutes/maxWait``).
    package let pollWait: Int
    /// The feed entity tag of the copy held, if any.
    package private(set) var etag: String?
    /// When the replica last knew it was in step with the primary (seconds); from the database at start.
    package private(set) var lastSuccess: Double?
    /// Whether the last exchange with the primary succeeded (so the replica is in step while its next poll waits).
    package private(set) var connected = false
    /// Failures since start.
    package private(set) var totalFailures = 0
    /// The backoff.
    package private(set) var retry: RetrySchedule

    /// A machine starting from a stored copy (its feed tag and sync time) or from nothing.
    package init(etag: String? = nil, lastSuccess: Double? = nil, pollWait: Int = 20, retry: RetrySchedule = .init()) {
        self.etag = etag
        self.lastSuccess = lastSuccess
        self.pollWait = pollWait
        self.retry = retry
    }

    /// The next action at `now`.
    package func next(now: Double) -> Action {
        if !retry.isDue(now: now), let until = retry.retryAt { return .sleep(until: until) }
        // The first exchange of a run is never held: it confirms at once that the stored copy is current.
        return .poll(ifNoneMatch: etag, wait: connected ? pollWait : 0)
    }

    /// The primary answered 200 (a new feed, stored) or 304 (the copy is current) with feed tag `etag`.
    package mutating func succeeded(now: Double, etag: String?) {
        if let etag { self.etag = etag }
        lastSuccess = now
        connected = true
        retry.succeeded()
    }

    /// The exchange failed (connection, timeout, an unexpected status, a feed that could not be stored).
    package mutating func failed(now: Double, random: Double) {
        connected = false
        totalFailures += 1
        retry.failed(now: now, random: random)
    }

    /// Whether the replica may report ready: it has a copy, synced now or in an earlier run.
    package var hasCopy: Bool { lastSuccess != nil }

    /// Seconds the served copy may be behind the primary: 0 while in step (the primary answers a held poll as soon
    /// as a revision goes live), else the time since the last successful exchange; nil before any.
    package func lag(now: Double) -> Double? {
        guard let lastSuccess else { return nil }
        return connected ? 0 : max(0, now - lastSuccess)
    }
}
