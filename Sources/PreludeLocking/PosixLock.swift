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
///
/// **`Value` must not be a function, nor an optional or tuple of one** (``holdsBareFunction``; asserted when a lock is
/// made). ``withLock(_:)`` hands the value to its body `inout` across a generic boundary, and a value of function type
/// is converted to the body's representation on the way in and back on the way out: each call wraps the stored
/// function in two more reabstraction thunks, so after n calls calling it is 2n frames deep (the defect
/// docs/storage.md "Observers" tells). Keep functions as stored properties of a struct, whose layout fixes their
/// representation (`Database.Observers`); `PosixLockTests` holds both halves of this rule.
package final class PosixLock<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ value: Value) {
        assert(!Self.holdsBareFunction, "PosixLock<\(Value.self)>: keep functions in a struct (see PosixLock's doc)")
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Whether `Value` is a function type, or a type written around one without a nominal type of its own (an optional,
    /// a tuple, a collection of functions): the values ``withLock(_:)`` would re-wrap at each call. Conservative: a
    /// collection of functions is refused too, though its elements keep one representation.
    package static var holdsBareFunction: Bool { String(reflecting: Value.self).contains("->") }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
