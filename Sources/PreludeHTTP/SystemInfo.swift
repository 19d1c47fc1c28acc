import CLinuxSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Facts about the machine and the monotonic clock.
package enum SystemInfo {
    /// CPUs this process may run on: the online CPUs, narrowed by the affinity mask (`taskset`, cpusets),
    /// so a server pinned to one CPU does not start two event loops that fight over it (SwiftNIO does the same).
    package static var onlineProcessorCount: Int {
        let online = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        let allowed = prelude_allowed_cpu_count()
        return allowed > 0 ? min(online, Int(allowed)) : online
    }

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
