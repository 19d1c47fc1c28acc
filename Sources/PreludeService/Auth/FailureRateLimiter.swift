/// Counts failed authentications per source (the client address, trusted-proxy aware) and says when a source must
/// wait: a token bucket per source (reliability.md §3: failed auth at 10/min per IP).
///
/// Pure: the caller passes the time, so tests step a clock instead of sleeping. Each source starts with
/// `burst` allowances; each failure spends one; allowances come back at `burst` per `window` seconds. A source
/// with less than one allowance left is blocked until one has come back: its failed attempts get 429 with
/// `Retry-After` (RFC 6585 §4) instead of 401. A valid token is never refused (``AdminAuthenticator``).
package struct FailureRateLimiter: Sendable {
    /// Failures allowed in a burst.
    package let burst: Double
    /// Seconds in which `burst` allowances come back.
    package let window: Double
    /// Addresses tracked at most; beyond it the fully recovered (then the oldest) entries are dropped.
    package let maxAddresses: Int

    private struct Bucket: Sendable {
        var allowance: Double
        var updated: Double
    }

    private var buckets: [String: Bucket] = [:]

    /// A limiter allowing `burst` failures per `window` seconds per address.
    package init(burst: Int = 10, window: Double = 60, maxAddresses: Int = 10_000) {
        precondition(burst >= 1 && window > 0 && maxAddresses >= 1)
        self.burst = Double(burst)
        self.window = window
        self.maxAddresses = maxAddresses
    }

    /// The number of addresses currently tracked.
    package var trackedAddresses: Int { buckets.count }

    /// Seconds `address` must wait before trying again (rounded up, at least 1), or nil when it may try now.
    package func retryAfter(_ address: String, now: Double) -> Int? {
        guard let bucket = buckets[address] else { return nil }
        let allowance = refilled(bucket, now: now)
        guard allowance < 1 else { return nil }
        // Less a nanosecond, so floating-point noise (2.0000000001) does not add a whole second.
        let seconds = (1 - allowance) * window / burst - 1e-9
        return max(1, Int(seconds.rounded(.up)))
    }

    /// Records a failed authentication from `address`.
    package mutating func recordFailure(_ address: String, now: Double) {
        let current = buckets[address].map { refilled($0, now: now) } ?? burst
        buckets[address] = Bucket(allowance: max(0, current - 1), updated: now)
        if buckets.count > maxAddresses { prune(now: now) }
    }

    private func refilled(_ bucket: Bucket, now: Double) -> Double {
        // A clock that went backwards refills nothing rather than a negative amount.
        let elapsed = max(0, now - bucket.updated)
        return min(burst, bucket.allowance + elapsed * burst / window)
    }

    private mutating func prune(now: Double) {
        buckets = buckets.filter { refilled($0.value, now: now) < burst }
        guard buckets.count > maxAddresses else { return }
        let oldest = buckets.sorted { $0.value.updated < $1.value.updated }.prefix(buckets.count - maxAddresses)
        for (address, _) in oldest { buckets[address] = nil }
    }

    /// The address part of `ip:port` (IPv6 addresses contain colons, so the port is after the last one).
    package static func clientAddress(_ remoteAddress: String) -> String { TrustedProxies.host(of: remoteAddress) }
}
