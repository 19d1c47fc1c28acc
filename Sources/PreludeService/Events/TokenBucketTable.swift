/// Token buckets by key (an install id, a client address): each key may spend up to `burst` tokens at once, and
/// tokens come back at `rate` per second.
///
/// Pure: the caller passes the time in seconds, so tests step a clock instead of sleeping. Memory is bounded: a key
/// whose bucket is full again holds no information and is evicted first, and the table never holds more than
/// `capacity` keys (beyond it, the idle keys, then the least recently used ones, are dropped, down to 90 % of
/// `capacity` so eviction runs rarely). An evicted key starts again with a full bucket, which is what it would
/// have had after being idle.
package struct TokenBucketTable<Key: Hashable & Sendable>: Sendable {
    /// Tokens returned per second.
    package let rate: Double
    /// The most tokens a bucket holds (and the largest cost ever affordable).
    package let burst: Double
    /// The most keys held.
    package let capacity: Int

    private struct Bucket: Sendable {
        var tokens: Double
        var updated: Double
    }

    private var buckets: [Key: Bucket] = [:]

    /// A table refilling `rate` tokens per second up to `burst`, holding at most `capacity` keys.
    package init(rate: Double, burst: Double, capacity: Int = 100_000) {
        precondition(rate > 0 && rate.isFinite && burst >= 1 && burst.isFinite && capacity >= 1)
        self.rate = rate
        self.burst = burst
        self.capacity = capacity
    }

    /// The number of keys held now.
    package var count: Int { buckets.count }

    /// Seconds until `key` can spend `cost` tokens (0 when it can now). A cost above `burst` is never affordable:
    /// the answer is then infinite.
    package func wait(_ key: Key, cost: Double, now: Double) -> Double {
        guard cost <= burst else { return .infinity }
        let tokens = buckets[key].map { refilled($0, now: now) } ?? burst
        return tokens >= cost ? 0 : (cost - tokens) / rate
    }

    /// Spends `cost` tokens of `key` (the bucket may go below zero only if the caller skipped ``wait(_:cost:now:)``;
    /// it is clamped at zero).
    package mutating func spend(_ key: Key, cost: Double, now: Double) {
        let tokens = buckets[key].map { refilled($0, now: now) } ?? burst
        buckets[key] = Bucket(tokens: max(0, tokens - cost), updated: now)
        if buckets.count > capacity { evict(now: now) }
    }

    private func refilled(_ bucket: Bucket, now: Double) -> Double {
        // A clock that went backwards refills nothing rather than a negative amount.
        min(burst, bucket.tokens + max(0, now - bucket.updated) * rate)
    }

    private mutating func evict(now: Double) {
        let target = max(1, capacity * 9 / 10)
        buckets = buckets.filter { refilled($0.value, now: now) < burst }
        guard buckets.count > target else { return }
        let oldest = buckets.sorted { $0.value.updated < $1.value.updated }.prefix(buckets.count - target)
        for (key, _) in oldest { buckets[key] = nil }
    }
}
