import ArgumentParser
import PreludeService

#if canImport(FoundationEssentials)
    import Dispatch
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `prelude healthcheck`: asks a running server's `GET /readyz` and exits 0 on 200, 1 otherwise.
///
/// Meant for the container's `HEALTHCHECK`, so the runtime image needs no curl. It speaks HTTP/1.1 over a plain
/// POSIX socket with one deadline for connect, send and receive; Foundation networking is not involved.
struct HealthcheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthcheck",
        abstract: "Check a running server's GET /readyz; exit 0 when it answers 200, 1 otherwise.",
        discussion: """
            Without --url, the address is the one `serve` would listen on (config/prelude.json, then \
            PRELUDE_HOST / PRELUDE_PORT), with a wildcard host (0.0.0.0, ::) replaced by loopback. \
            Used by the container's HEALTHCHECK.
            """
    )

    @Option(help: ArgumentHelp("Full URL to check, e.g. http://127.0.0.1:8080/readyz.", valueName: "url"))
    var url: String?

    @Option(help: ArgumentHelp("Seconds allowed for connect, request and answer together.", valueName: "seconds"))
    var timeout: Double = 2

    @Flag(help: "Print nothing on success.")
    var quiet = false

    func validate() throws {
        guard timeout > 0, timeout <= 60 else { throw ValidationError("--timeout must be in (0, 60] seconds") }
    }

    func run() throws {
        let target: Target
        do {
            target = try url.map(Target.init(url:)) ?? Self.targetFromConfiguration()
        } catch {
            throw Failure.exit(error, code: 1)
        }
        do {
            let status = try Probe.status(of: target, timeout: timeout)
            guard status == 200 else {
                throw Failure.exit(Problem.notReady(target.description, status: status), code: 1)
            }
            if !quiet { print("ready: \(target.description) answered 200") }
        } catch let error as ExitCode {
            throw error
        } catch {
            throw Failure.exit(error, code: 1)
        }
    }

    /// The address `serve` would bind, from the same sources (file, then environment).
    private static func targetFromConfiguration() throws -> Target {
        let configuration = try ServiceConfiguration.load(
            configFile: nil, environment: ProcessInfo.processInfo.environment, flags: [:])
        // A wildcard bind accepts on loopback too; connecting to 0.0.0.0 itself is not portable.
        let host: String
        switch configuration.host {
        case "0.0.0.0", "": host = "127.0.0.1"
        case "::", "[::]": host = "::1"
        default: host = configuration.host
        }
        return Target(host: host, port: configuration.port, path: "/readyz")
    }
}

extension HealthcheckCommand {
    /// Where the health check connects.
    struct Target: CustomStringConvertible {
        /// Host name or IP literal (IPv6 without brackets).
        var host: String
        /// TCP port.
        var port: Int
        /// Origin-form request target.
        var path: String

        init(host: String, port: Int, path: String) {
            self.host = host
            self.port = port
            self.path = path
        }

        /// Parses `http://host[:port][/path]`; https and userinfo are refused (the probe speaks plain HTTP only).
        init(url: String) throws {
            let prefix = "http://"
            guard url.lowercased().hasPrefix(prefix) else {
                throw Problem.badURL(url, "only http:// URLs are supported")
            }
            let rest = url.dropFirst(prefix.count)
            let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            var path = String(rest[authorityEnd...])
            if let fragment = path.firstIndex(of: "#") { path = String(path[..<fragment]) }
            if path.isEmpty || path.hasPrefix("?") { path = "/readyz" + path }
            guard !authority.isEmpty, !authority.contains("@") else {
                throw Problem.badURL(url, "expected http://host[:port][/path]")
            }
            var host: Substring
            var portText: Substring?
            if authority.hasPrefix("[") {
                // RFC 3986 §3.2.2: an IPv6 literal is enclosed in brackets.
                guard let close = authority.firstIndex(of: "]") else { throw Problem.badURL(url, "unclosed [") }
                host = authority[authority.index(after: authority.startIndex)..<close]
                let after = authority[authority.index(after: close)...]
                if !after.isEmpty {
                    guard after.hasPrefix(":") else { throw Problem.badURL(url, "junk after ]") }
                    portText = after.dropFirst()
                }
            } else if let colon = authority.lastIndex(of: ":") {
                host = authority[..<colon]
                portText = authority[authority.index(after: colon)...]
            } else {
                host = authority
            }
            var port = 80
            if let portText {
                guard let value = Int(portText), (1...65535).contains(value) else {
                    throw Problem.badURL(url, "port must be 1–65535")
                }
                port = value
            }
            guard !host.isEmpty else { throw Problem.badURL(url, "empty host") }
            guard path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw Problem.badURL(url, "the path must be printable ASCII without spaces")
            }
            self.init(host: String(host), port: port, path: path)
        }

        var description: String {
            let shown = host.contains(":") ? "[\(host)]" : host
            return "http://\(shown):\(port)\(path)"
        }
    }

    /// Why the health check failed.
    enum Problem: Error, CustomStringConvertible {
        case badURL(String, String)
        case resolve(String, String)
        case system(String, Int32)
        case timedOut(String)
        case malformedResponse(String)
        case notReady(String, status: Int)

        var description: String {
            switch self {
            case .badURL(let url, let why): "invalid --url \(url): \(why)"
            case .resolve(let host, let why): "cannot resolve \(host): \(why)"
            case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code))) (errno \(code))"
            case .timedOut(let phase): "timed out while \(phase)"
            case .malformedResponse(let why): "malformed response: \(why)"
            case .notReady(let target, let status): "not ready: \(target) answered \(status)"
            }
        }
    }

    /// One HTTP/1.1 exchange over a non-blocking socket, every step bounded by one deadline via poll(2).
    enum Probe {
        /// Connects to each resolved address in turn until one answers, and returns the response's status code.
        static func status(of target: Target, timeout: Double) throws -> Int {
            let deadline = monotonicNow() + timeout
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            #if canImport(Glibc)
                hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            #else
                hints.ai_socktype = SOCK_STREAM
            #endif
            hints.ai_flags = AI_NUMERICSERV
            var list: UnsafeMutablePointer<addrinfo>?
            let rc = getaddrinfo(target.host, String(target.port), &hints, &list)
            guard rc == 0, let first = list else {
                throw Problem.resolve(target.host, String(cString: gai_strerror(rc)))
            }
            defer { freeaddrinfo(first) }
            var lastError: any Error = Problem.resolve(target.host, "no address")
            var entry: UnsafeMutablePointer<addrinfo>? = first
            while let info = entry {
                do {
                    return try exchange(info.pointee, target: target, deadline: deadline)
                } catch let error as Problem {
                    if case .malformedResponse = error { throw error }
                    lastError = error
                }
                entry = info.pointee.ai_next
            }
            throw lastError
        }

        private static func exchange(_ info: addrinfo, target: Target, deadline: Double) throws -> Int {
            let fd = socket(info.ai_family, info.ai_socktype, 0)
            guard fd >= 0 else { throw Problem.system("socket", errno) }
            defer { close(fd) }
            // Non-blocking, so every step below is bounded by the deadline through poll(2).
            guard fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0 else { throw Problem.system("fcntl", errno) }

            if connect(fd, info.ai_addr, info.ai_addrlen) != 0 {
                guard errno == EINPROGRESS else { throw Problem.system("connect", errno) }
                try wait(fd, for: Int16(POLLOUT), until: deadline, phase: "connecting")
                var soError: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &length) == 0 else {
                    throw Problem.system("getsockopt", errno)
                }
                guard soError == 0 else { throw Problem.system("connect", soError) }
            }

            let hostHeader =
                target.host.contains(":") ? "[\(target.host)]:\(target.port)" : "\(target.host):\(target.port)"
            // RFC 9112 §3.2: HTTP/1.1 requests carry Host; Connection: close so the server ends the exchange.
            let request = Array(
                "GET \(target.path) HTTP/1.1\r\nHost: \(hostHeader)\r\nUser-Agent: prelude-healthcheck\r\nConnection: close\r\n\r\n"
                    .utf8)
            // A server that vanishes mid-request must not kill the probe with SIGPIPE.
            #if os(Linux)
                let sendFlags = Int32(MSG_NOSIGNAL)
            #else
                let sendFlags: Int32 = 0
                var one: Int32 = 1
                setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            var sent = 0
            while sent < request.count {
                let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, sendFlags) }
                if n > 0 {
                    sent += n
                } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                    try wait(fd, for: Int16(POLLOUT), until: deadline, phase: "sending the request")
                } else {
                    throw Problem.system("send", errno)
                }
            }

            // Only the status line matters (RFC 9112 §4): read until its CRLF.
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 512)
            while !received.contains(0x0A) {
                guard received.count < 8192 else { throw Problem.malformedResponse("status line too long") }
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n > 0 {
                    received.append(contentsOf: buffer[..<n])
                } else if n == 0 {
                    break
                } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                    try wait(fd, for: Int16(POLLIN), until: deadline, phase: "waiting for the answer")
                } else {
                    throw Problem.system("recv", errno)
                }
            }
            return try statusCode(in: received)
        }

        /// Parses `HTTP/1.x NNN ...` (RFC 9112 §4: status-line = HTTP-version SP status-code SP [reason-phrase]).
        static func statusCode(in bytes: [UInt8]) throws -> Int {
            let line = bytes.prefix(while: { $0 != 0x0D && $0 != 0x0A })
            let text = String(decoding: line, as: UTF8.self)
            let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let code = Int(parts[1]) else {
                throw Problem.malformedResponse(text.isEmpty ? "connection closed without a status line" : text)
            }
            return code
        }

        private static func wait(_ fd: Int32, for events: Int16, until deadline: Double, phase: String) throws {
            while true {
                let remaining = deadline - monotonicNow()
                guard remaining > 0 else { throw Problem.timedOut(phase) }
                var descriptor = pollfd(fd: fd, events: events, revents: 0)
                let rc = poll(&descriptor, 1, Int32(max(1, (remaining * 1000).rounded(.up))))
                if rc > 0 { return }
                if rc == 0 { throw Problem.timedOut(phase) }
                guard errno == EINTR else { throw Problem.system("poll", errno) }
            }
        }

        private static func monotonicNow() -> Double {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        }
    }
}
