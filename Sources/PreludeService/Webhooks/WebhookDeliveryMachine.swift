import PreludeStore

/// What happens after each delivery attempt, as a pure function of the attempt's outcome, the time and a jitter
/// value (docs/webhooks.md, "Delivery and retries"): delivered on a 2xx; on any other answer or a transport failure,
/// retried after the service's one backoff formula (``RetrySchedule/delay(afterFailures:random:)``, as the
/// replica's sync and forwarder use) or the receiver's `Retry-After` when longer, until the run's attempts are
/// spent; never retried when the URL is refused (fix the webhook, then redeliver by hand); and a `410 Gone`
/// disables the webhook (Standard Webhooks: the receiver wants no more).
package struct WebhookDeliveryMachine: Sendable, Equatable {
    /// How an attempt ended.
    package enum Outcome: Sendable, Equatable {
        /// The receiver answered `status` (a 3xx included: redirects are never followed); `retryAfter` is its
        /// `Retry-After` in seconds, when it sent one.
        case response(status: Int, retryAfter: Double?)
        /// No answer: connection refused, TLS failure, timeout, a response over the size limit.
        case transportFailure(String)
        /// Not sent: the URL is not allowed (or no longer: the allowlist changed) or the secret is unusable.
        case refused(String)
    }

    /// Attempts in one run (the first and the retries) before a delivery fails.
    package var maxAttempts: Int
    /// The backoff; only its delay formula is used, each delivery counting its own failures.
    package var backoff: RetrySchedule

    /// The defaults: 15 attempts, 5 s doubling to at most an hour with equal jitter, so a run spans about 3–5.5
    /// hours before the delivery fails.
    package init(maxAttempts: Int = 15, backoff: RetrySchedule = RetrySchedule(baseDelay: 5, maxDelay: 3600)) {
        precondition(maxAttempts >= 1, "a delivery needs at least one attempt")
        self.maxAttempts = maxAttempts
        self.backoff = backoff
    }

    /// The resolution of attempt `runAttempt` (1 for the run's first) that ended with `outcome` at `now` (unix ms),
    /// with jitter `random` in [0, 1), and the error to show for it (nil when delivered).
    package func resolve(runAttempt: Int, outcome: Outcome, now: Int64, random: Double) -> (
        WebhookStore.Resolution, error: String?
    ) {
        let error: String
        var floor = 0.0
        switch outcome {
        case .response(let status, _) where (200...299).contains(status):
            return (.delivered, nil)
        case .response(410, _):
            let reason = "the receiver answered 410 Gone: webhook disabled"
            return (.failedDisablingWebhook(reason: reason), reason)
        case .refused(let reason):
            return (.failed, reason)
        case .response(let status, let retryAfter):
            error =
                (300...399).contains(status)
                ? "the receiver answered \(status) (redirects are not followed: update the webhook's URL)"
                : "the receiver answered \(status)"
            floor = min(max(retryAfter ?? 0, 0), backoff.maxDelay)
        case .transportFailure(let reason):
            error = reason
        }
        guard runAttempt < maxAttempts else {
            return (.failed, error + "; gave up after \(runAttempt) attempts")
        }
        let delay = max(backoff.delay(afterFailures: runAttempt, random: random), floor)
        return (.retry(at: now + Int64((delay * 1000).rounded(.up))), error)
    }
}
