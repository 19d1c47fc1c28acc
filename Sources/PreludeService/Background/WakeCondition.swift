#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// A condition variable with its mutex (`pthread_cond_t` + `pthread_mutex_t`), for the replica threads that sleep
/// until woken or until a deadline: what `NSCondition` offered, without the full Foundation.
///
/// `@unchecked Sendable` invariant: the pthread objects are only used through pthread calls, which are
/// thread-safe; the pointers never change after `init`.
final class WakeCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// Wakes every waiting thread (call with the lock held).
    func broadcast() { pthread_cond_broadcast(condition) }

    /// Waits (lock held) until woken or until `deadline`, in seconds since the Unix epoch (the realtime clock, as
    /// `NSCondition.wait(until:)`); false when the deadline passed.
    @discardableResult
    func wait(untilEpochSeconds deadline: Double) -> Bool {
        let whole = deadline.rounded(.down)
        var time = timespec(tv_sec: Int(whole), tv_nsec: Int((deadline - whole) * 1e9))
        return pthread_cond_timedwait(condition, mutex, &time) == 0
    }
}
