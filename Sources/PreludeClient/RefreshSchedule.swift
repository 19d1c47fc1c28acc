import PreludeCore

/// When the client may fetch the policy again: a pure state machine over the last validation, the server's
/// lifetimes, and consecutive failures, with the time passed in.
///
/// A fetch is due when the copy is no longer fresh (`max-age` has passed since it was last validated, or it was
/// never validated: bootstrap) and no backoff or `Retry-After` is pending. Every trigger (launch, foreground,
/// on demand) goes through ``isDue(now:)``, so the policy's lifetimes bound how often the client asks.
public struct RefreshSchedule: Sendable, Hashable {
    /// How old the in-memory copy is relative to its lifetimes.
    public enum Freshness: String, Sendable, Hashable {
        /// Within `max-age`.
        case fresh
        /// Past `max-age`, within `stale-while-revalidate`: used while a refresh runs.
        case staleWhileRevalidate
        /// Past `max-age` and the last attempt failed, within `stale-if-error`.
        case staleIfError
        /// Past every lifetime, or never validated (bootstrap): still used, because an old policy decides
        /// better than none, and a refresh is attempted at every chance.
        case stale
    }

    /// When the copy was last validated (200 or 304); nil for a bootstrap copy.
    public private(set) var validatedAt: Instant?
    /// The lifetimes of the last validation.
    public private(set) var lifetimes: CacheLifetimes
    /// Consecutive failed attempts since the last validation.
    public private(set) var failures: Int = 0
    /// No attempt before this instant (backoff, `Retry-After`).
    public private(set) var notBefore: Instant?
    private let backoff: Backoff

    /// A schedule for a copy validated at `validatedAt` (nil: never) with `lifetimes`.
    public init(validatedAt: Instant?, lifetimes: CacheLifetimes, backoff: Backoff) {
        self.validatedAt = validatedAt
        self.lifetimes = lifetimes
        self.backoff = backoff
    }

    /// Whether a fetch may start at `now`.
    public func isDue(now: Instant) -> Bool {
        if let notBefore, now < notBefore { return false }
        guard let validatedAt else { return true }
        // A clock moved back before the validation: revalidate rather than trust an age below zero.
        let age = now.seconds(since: validatedAt)
        return age < 0 || age >= lifetimes.maxAge
    }

    /// The copy's freshness at `now`.
    public func freshness(now: Instant) -> Freshness {
        guard let validatedAt else { return .stale }
        let age = now.seconds(since: validatedAt)
        if age >= 0 && age < lifetimes.maxAge { return .fresh }
        let staleFor = age - lifetimes.maxAge
        if failures > 0, staleFor < lifetimes.staleIfError { return .staleIfError }
        if staleFor < lifetimes.staleWhileRevalidate { return .staleWhileRevalidate }
        return .stale
    }

    /// Records a validation (200 with a valid body, or 304) at `now` with the response's lifetimes.
    public mutating func succeeded(at now: Instant, lifetimes: CacheLifetimes) {
        validatedAt = now
        self.lifetimes = lifetimes
        failures = 0
        notBefore = nil
    }

    /// Records a failure (network error, 429, 5xx, an unusable body) at `now`: backs off with jitter `unit`,
    /// never less than `retryAfter` seconds.
    public mutating func failed(at now: Instant, unit: Double, retryAfter: Double?) {
        failures += 1
        notBefore = now.adding(seconds: backoff.delay(failures: failures, unit: unit, retryAfter: retryAfter))
    }
}
