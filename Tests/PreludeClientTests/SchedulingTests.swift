import PreludeCore
import Testing

@testable import PreludeClient

/// Cache-Control and Retry-After parsing, backoff with jitter, and when a refresh is due.
@Suite struct SchedulingTests {
    @Test func readsTheServersCacheControl() {
        let lifetimes = CacheLifetimes(
            cacheControl: "public, max-age=60, stale-while-revalidate=300, stale-if-error=86400")
        #expect(lifetimes == CacheLifetimes(maxAge: 60, staleWhileRevalidate: 300, staleIfError: 86400))
        #expect(CacheLifetimes(cacheControl: "no-cache, max-age=-5").maxAge == 0)
        #expect(CacheLifetimes(cacheControl: nil) == CacheLifetimes())
    }

    @Test func readsRetryAfterInSecondsOrAsADate() {
        #expect(CacheLifetimes.retryAfter("120", now: 0) == 120)
        // 1994-11-06T08:49:37Z is 784111777.
        #expect(CacheLifetimes.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_777 - 30) == 30)
        #expect(CacheLifetimes.retryAfter("soon", now: 0) == nil)
    }

    @Test func backoffGrowsWithJitterAndRespectsRetryAfter() {
        let backoff = Backoff(base: 2, maximum: 60)
        #expect(backoff.delay(failures: 1, unit: 0) == 1)
        #expect(backoff.delay(failures: 1, unit: 0.999_999) < 2)
        #expect(backoff.delay(failures: 3, unit: 0) == 4)
        #expect(backoff.delay(failures: 30, unit: 0.5) == 45)
        #expect(backoff.delay(failures: 1, unit: 0, retryAfter: 600) == 600)
    }

    @Test func aRefreshIsDueOnlyWhenStaleAndNotBackingOff() {
        let start = Instant(secondsSinceEpoch: 1000)
        var schedule = RefreshSchedule(validatedAt: nil, lifetimes: CacheLifetimes(), backoff: Backoff(base: 10))
        #expect(schedule.isDue(now: start))  // bootstrap: never validated
        schedule.succeeded(
            at: start, lifetimes: CacheLifetimes(maxAge: 60, staleWhileRevalidate: 300, staleIfError: 900))
        #expect(!schedule.isDue(now: start.adding(seconds: 59)))
        #expect(schedule.isDue(now: start.adding(seconds: 60)))
        #expect(schedule.isDue(now: start.adding(seconds: -1)))  // clock moved back
        schedule.failed(at: start.adding(seconds: 100), unit: 0, retryAfter: 120)
        #expect(!schedule.isDue(now: start.adding(seconds: 219)))
        #expect(schedule.isDue(now: start.adding(seconds: 220)))
        #expect(schedule.freshness(now: start.adding(seconds: 500)) == .staleIfError)
        #expect(schedule.freshness(now: start.adding(seconds: 1000)) == .stale)
    }

    @Test func aFlushIsDueOnlyWithEventsAndNoBackoffPending() {
        let start = Instant(secondsSinceEpoch: 1000)
        var schedule = FlushSchedule(backoff: Backoff(base: 10, maximum: 100))
        #expect(!schedule.isDue(now: start, queued: 0))  // nothing to send
        #expect(schedule.isDue(now: start, queued: 1))
        schedule.failed(at: start, unit: 0, retryAfter: nil, reason: "HTTP 503")
        #expect(schedule.failures == 1 && schedule.lastFailure == "HTTP 503")
        #expect(!schedule.isDue(now: start.adding(seconds: 4.9), queued: 1))  // 10 s × 0.5 with jitter 0
        #expect(schedule.isDue(now: start.adding(seconds: 5), queued: 1))
        schedule.failed(at: start.adding(seconds: 5), unit: 0.999, retryAfter: nil, reason: "HTTP 503")
        #expect(!schedule.isDue(now: start.adding(seconds: 24.9), queued: 1))  // 20 s × ~1, doubling
        schedule.failed(at: start.adding(seconds: 30), unit: 0, retryAfter: 300, reason: "HTTP 429")
        #expect(!schedule.isDue(now: start.adding(seconds: 329), queued: 1))  // Retry-After is a floor
        #expect(schedule.isDue(now: start.adding(seconds: 330), queued: 1))
        #expect(!schedule.isDue(now: start.adding(seconds: 330), queued: 0))
        schedule.succeeded()
        #expect(schedule == FlushSchedule(backoff: Backoff(base: 10, maximum: 100)))
        #expect(schedule.isDue(now: start, queued: 1))
    }
}
