#if canImport(Glibc)
    import Glibc
#endif

/// A value behind a `pthread_mutex_t`.
///
/// Used instead of `Synchronization.Mutex` for state shared between our threads: on Linux that Mutex is a
/// futex inside the uninstrumented standard library, so ThreadSanitizer cannot see its happens-before edges
/// and reports races that are not there; TSan intercepts pthread mutexes, so our race checks stay meaningful.
///
/// `@unchecked Sendable` invariant: `value` is read and written only between `pthread_mutex_lock` and
/// `pthread_mutex_unlock` of `mutex`.
package final class PosixLock<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
