#if canImport(Glibc)
    import Glibc
#endif

/// The conventional `process_*` families (as Prometheus client libraries name them), read from `/proc` at
/// scrape time: resident and virtual memory, CPU time, open and maximum file descriptors, start time.
/// A family whose source cannot be read (not Linux, `/proc` not mounted) is left out rather than reported as 0.
package struct ProcessMetrics: MetricsCollector {
    /// Where `/proc` is; tests may point it elsewhere.
    package let procRoot: String

    /// Reads the running process (`/proc/self`).
    package init(procRoot: String = "/proc") {
        self.procRoot = procRoot
    }

    package func collect(into writer: inout MetricsTextWriter) {
        let pageSize = Double(sysconf(Int32(_SC_PAGESIZE)))
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        // statm: size resident shared text lib data dt, in pages.
        if let statm = Self.read(procRoot + "/self/statm")?.split(separator: " "), statm.count >= 2,
            let size = Double(statm[0]), let resident = Double(statm[1])
        {
            writer.family("process_resident_memory_bytes", type: .gauge, help: "Resident memory size in bytes.")
            writer.sample("process_resident_memory_bytes", value: resident * pageSize)
            writer.family("process_virtual_memory_bytes", type: .gauge, help: "Virtual memory size in bytes.")
            writer.sample("process_virtual_memory_bytes", value: size * pageSize)
        }
        let stat = Self.statFields(Self.read(procRoot + "/self/stat"))
        // proc(5): utime is field 14, stime 15, starttime 22 (1-based); `stat` holds fields from 3 on.
        if stat.count > 19, let user = Double(stat[11]), let system = Double(stat[12]), ticks > 0 {
            writer.family(
                "process_cpu_seconds_total", type: .counter, help: "Total user and system CPU time spent in seconds.")
            writer.sample("process_cpu_seconds_total", value: (user + system) / ticks)
            if let startTicks = Double(stat[19]), let bootTime = Self.bootTime(procRoot) {
                writer.family(
                    "process_start_time_seconds", type: .gauge,
                    help: "Start time of the process since the Unix epoch in seconds.")
                writer.sample("process_start_time_seconds", value: bootTime + startTicks / ticks)
            }
        }
        if let open = Self.countEntries(procRoot + "/self/fd") {
            writer.family("process_open_fds", type: .gauge, help: "Number of open file descriptors.")
            writer.sample("process_open_fds", value: Double(open))
        }
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            writer.family("process_max_fds", type: .gauge, help: "Maximum number of open file descriptors.")
            writer.sample("process_max_fds", value: Double(limit.rlim_cur))
        }
    }

    /// The fields of `/proc/PID/stat` after the command name (which may itself contain spaces and parentheses).
    static func statFields(_ text: String?) -> [Substring] {
        guard let text, let close = text.lastIndex(of: ")") else { return [] }
        return text[text.index(after: close)...].split(separator: " ")
    }

    private static func bootTime(_ procRoot: String) -> Double? {
        guard let stat = read(procRoot + "/stat") else { return nil }
        for line in stat.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst(6).trimmingPrefix(" "))
        }
        return nil
    }

    /// Reads a small file with POSIX calls (`/proc` files report size 0, so size-based readers see nothing).
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func countEntries(_ path: String) -> Int? {
        guard let directory = opendir(path) else { return nil }
        var count = 0
        while let entry = readdir(directory) {
            let isDot = withUnsafeBytes(of: entry.pointee.d_name) { name in
                name[0] == UInt8(ascii: ".") && (name[1] == 0 || (name[1] == UInt8(ascii: ".") && name[2] == 0))
            }
            if !isDot { count += 1 }
        }
        closedir(directory)
        // The directory stream itself holds one descriptor while we count.
        return max(0, count - 1)
    }
}
