import PreludeHTTP
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// EMFILE behaviour. Running out of descriptors is process-wide, so the scenario runs in a child copy of
/// this test binary (same executable, filtered to `exhaustionScenario`, with an environment flag), and the
/// parent checks the child's exit status and the report it writes.
@Suite struct DescriptorExhaustionTests {
    @Test func backsOffOnEMFILEAndRecovers() throws {
        let report = "/tmp/prelude-emfile-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).txt"
        defer { unlink(report) }
        let arguments = ["/proc/self/exe", "--testing-library", "swift-testing", "--filter", "exhaustionScenario"]
        var environment = ["PRELUDE_EMFILE_REPORT=\(report)", "SWIFT_BACKTRACE=enable=no"]
        for name in ["PATH", "LD_LIBRARY_PATH", "TSAN_OPTIONS"] {
            if let value = getenv(name) { environment.append("\(name)=\(String(cString: value))") }
        }
        let status = try Self.run(arguments, environment: environment)
        #expect(status == 0)
        let fd = open(report, O_RDONLY)
        try #require(fd >= 0, "the child wrote no report")
        var bytes = [UInt8](repeating: 0, count: 4096)
        let n = read(fd, &bytes, bytes.count)
        close(fd)
        let text = String(decoding: bytes.prefix(max(0, n)), as: UTF8.self)
        #expect(text.hasPrefix("ok"), "child report: \(text)")
    }

    /// The child's scenario: runs only in the child the test above starts (skipped, never passed, anywhere else).
    @Test(
        .enabled(
            if: getenv("PRELUDE_EMFILE_REPORT") != nil, "runs in the child process of backsOffOnEMFILEAndRecovers"))
    func exhaustionScenario() throws {
        let reportPath = try #require(getenv("PRELUDE_EMFILE_REPORT").map { String(cString: $0) })
        var result = "failed: unknown"
        defer {
            let fd = open(reportPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            _ = result.withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        let t = try TestServer.make(configure: {
            $0.eventLoopCount = 1
            $0.acceptBackoff = 0.05
        })
        defer { t.stop() }
        // Leave room for a few dozen descriptors above what is open now.
        // New descriptors take the lowest free numbers below the soft limit: put the limit where 40 are free.
        var free = 0
        var ceiling: Int32 = 0
        while free < 40 {
            if fcntl(ceiling, F_GETFD) == -1 { free += 1 }
            ceiling += 1
        }
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        var lowered = limit
        lowered.rlim_cur = rlim_t(ceiling)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &lowered)
        defer { setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) }

        var clients: [RawClient] = []
        while clients.count < 200 {
            guard let c = try? RawClient(port: t.port, timeout: 5) else { break }
            clients.append(c)
        }
        let count = clients.count
        guard clients.count < 200 else {
            result = "failed: never ran out of descriptors"
            return
        }
        // The last clients are connected in the kernel but cannot be accepted. Ask them for a response.
        // A copy, so that dropping clients below really closes them (a slice would keep them alive).
        let pending = Array(clients.suffix(3))
        for c in pending { try c.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n") }
        // While out of descriptors the acceptor must not spin: measure the process's CPU over 300 ms of wall time.
        let before = Self.cpuMilliseconds()
        var pause = timespec(tv_sec: 0, tv_nsec: 300_000_000)
        nanosleep(&pause, nil)
        let spent = Self.cpuMilliseconds() - before
        guard spent < 50 else {
            result = "failed: \(spent) ms of CPU in 300 ms while out of descriptors (busy loop?)"
            return
        }
        // Free descriptors: the backlog is accepted and answered.
        // (Every other waiting connection is closed too: open ones would be accepted first and hold the freed
        // descriptors until their keep-alive timeout.)
        clients.removeFirst(clients.count - pending.count)
        for c in pending {
            guard (try? c.readResponse().status) == 200 else {
                result = "failed: a connection waiting in the backlog was not answered"
                return
            }
        }
        result = "ok (\(count) clients before EMFILE, \(spent) ms CPU while exhausted)"
    }

    static func cpuMilliseconds() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000
            + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000
    }

    static func run(_ arguments: [String], environment: [String]) throws -> Int32 {
        var pid = pid_t()
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let executable = String(cString: realpath("/proc/self/exe", nil))
        let rc = posix_spawn(&pid, executable, nil, nil, argv, envp)
        guard rc == 0 else { throw SocketError("posix_spawn", code: rc) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS are macros.
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }
}
