#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Facts about the machine and the monotonic clock.
package enum SystemInfo {
    /// CPUs this process may run on: the online CPUs, narrowed by the affinity mask (`taskset`, cpusets),
    /// so a server pinned to one CPU does not start two event loops that fight over it (SwiftNIO does the same).
    package static var onlineProcessorCount: Int {
        let online = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #if os(Linux)
            // Swift's Glibc module does not import sched_getaffinity (it needs _GNU_SOURCE): reach it like epoll.
            typealias GetAffinity = @convention(c) (Int32, Int, UnsafeMutableRawPointer?) -> Int32
            guard let symbol = dlsym(nil, "sched_getaffinity") else { return online }
            let getAffinity = unsafeBitCast(symbol, to: GetAffinity.self)
            var mask = [UInt64](repeating: 0, count: 16)  // 1024 CPUs, glibc's cpu_set_t
            let result = mask.withUnsafeMutableBytes { getAffinity(0, $0.count, $0.baseAddress) }
            guard result == 0 else { return online }
            let allowed = mask.reduce(0) { $0 + $1.nonzeroBitCount }
            return allowed > 0 ? min(online, allowed) : online
        #else
            return online
        #endif
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
