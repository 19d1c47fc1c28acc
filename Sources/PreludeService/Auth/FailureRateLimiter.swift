/// Counts failed authentications per source (the client address, trusted-proxy aware) and says when a source must
/// wait: a token bucket per source (docs/security.md, "The admin failure limiter": failed auth at 10/min per IP).
///
/// Pure: the caller passes the time, so tests step a clock instead of sleeping. The buckets are a
/// ``TokenBucketTable`` (the one event ingestion uses). Each source starts with
/// `burst` allowances; each failure spends one; allowances come back at `burst` per `window` seconds. A source
/// with less than one allowance left is blocked until one has come back: its failed attempts get 429 with
/// `Retry-After` (RFC 6585 §4) instead of 401. A valid token is never refused (``AdminAuthenticator``).
package struct FailureRateLimiter: Sendable {
    /// Failures allowed in a burst.
    package let burst: Double
    /// Seconds in which `burst` allowances come back.
    package let window: Double
    /// Addresses tracked at most; beyond it the fully recovered (then the least recently failed) entries are dropped.
    package let maxAddresses: Int

    /// One allowance per address and failure, in the shared token-bucket table (as events use it).
    private var buckets: TokenBucketTable<String>

    /// A limiter allowing `burst` failures per `window` seconds per address.
    package init(burst: Int = 10, window: Double = 60, maxAddresses: Int = 10_000) {
        precondition(burst >= 1 && window > 0 && maxAddresses >= 1)
        self.burst = Double(burst)
        self.window = window
        self.maxAddresses = maxAddresses
        buckets = TokenBucketTable(rate: Double(burst) / window, burst: Double(burst), capacity: maxAddresses)
    }

    /// The number of addresses currently tracked.
    package var trackedAddresses: Int { buckets.count }

    /// Seconds `address` must wait before trying again (rounded up, at least 1), or nil when it may try now.
    package func retryAfter(_ address: String, now: Double) -> Int? {
        // Less a nanosecond, so floating-point noise (2.0000000001) does not add a whole second.
        let seconds = buckets.wait(address, cost: 1, now: now) - 1e-9
        guard seconds > 0 else { return nil }
        return max(1, Int(seconds.rounded(.up)))
    }

    /// Records a failed authentication from `address`.
    package mutating func recordFailure(_ address: String, now: Double) {
        buckets.spend(address, cost: 1, now: now)
    }

    /// The address part of `ip:port` (IPv6 addresses contain colons, so the port is after the last one).
    package static func clientAddress(_ remoteAddress: String) -> String { TrustedProxies.host(of: remoteAddress) }
}
