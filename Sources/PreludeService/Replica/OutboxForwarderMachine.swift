/// The outbox forwarder as a state machine: send while events wait, back off after a failure, idle when the outbox
/// is empty. Time and jitter are passed in, so tests never wait.
package struct OutboxForwarderMachine: Sendable, Equatable {
    /// What the shell should do.
    package enum Action: Sendable, Equatable {
        /// Send the oldest batch of the outbox.
        case send
        /// Wait until `until` (backing off), or until stopped.
        case sleep(until: Double)
        /// Nothing to send: wait for the ingestor's signal (or a periodic look).
        case idle
    }

    /// The backoff.
    package private(set) var retry: RetrySchedule
    /// Sends that failed since start.
    package private(set) var totalFailures = 0

    /// A machine with the given backoff.
    package init(retry: RetrySchedule = .init()) {
        self.retry = retry
    }

    /// The next action at `now`, given whether the outbox holds events.
    package func next(now: Double, pending: Bool) -> Action {
        guard pending else { return .idle }
        if !retry.isDue(now: now), let until = retry.retryAt { return .sleep(until: until) }
        return .send
    }

    /// The primary acknowledged the batch (202), or refused it for good (the batch was dropped and counted).
    package mutating func delivered() {
        retry.succeeded()
    }

    /// The send failed and the batch stays in the outbox (connection, timeout, 5xx, 429, an auth failure).
    package mutating func failed(now: Double, random: Double) {
        totalFailures += 1
        retry.failed(now: now, random: random)
    }
}
