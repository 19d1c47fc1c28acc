#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Facts about the machine and the monotonic clock.
package enum SystemInfo {
    /// CPUs online now.
    package static var onlineProcessorCount: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// Nanoseconds on the monotonic clock, for request durations.
    package static func monotonicNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Milliseconds on the monotonic clock (never jumps with wall-clock changes).
    package static func monotonicMilliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}
