#if canImport(Glibc)
    import Glibc
#endif

/// Starts a detached POSIX thread running a closure (no Foundation needed).
package enum ThreadLauncher {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Runs `body` on a new detached thread.
    package static func start(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, nil,
            { raw in
                let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                box.body()
                return nil
            }, box)
        precondition(rc == 0, "pthread_create failed: \(rc)")
        pthread_detach(thread)
    }
}
