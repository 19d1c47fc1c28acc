import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small blocking HTTP/1.1 client for a replica's two requests to its primary (the change feed and forwarded
/// events): one request per connection (`Connection: close`), read until the primary closes, `Content-Length`
/// bodies only (what Prelude sends).
///
/// Why not URLSession: on Linux it is FoundationNetworking over libcurl, which the release image does not carry
/// (Dockerfile: only libsqlite3, zlib and libstdc++), and its timeouts do not cover a held long poll the way an
/// explicit socket receive timeout does. The cost is plain HTTP only (``FollowURL``).
///
/// ``abort()`` shuts the socket of a request in progress down, so stopping the replica never waits for a held poll.
package final class PrimaryClient: Sendable {
    /// A response.
    package struct Response: Sendable {
        /// The status code.
        package var status: Int
        /// Header fields by lowercased name (the last one wins).
        package var headers: [String: String]
        /// The body.
        package var body: [UInt8]
    }

    /// Why an exchange failed.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with `strerror` where a call failed.
        package let description: String
    }

    /// The primary.
    package let url: FollowURL
    private let token: RedactedSecret
    private let current = Mutex<Int32>(-1)
    private let aborted = Atomic(false)
    /// The largest response accepted (a change feed of many large apps fits).
    package static let maxResponseSize = 64 << 20

    /// A client for `url` authenticating with `token`.
    package init(url: FollowURL, token: RedactedSecret) {
        self.url = url
        self.token = token
    }

    /// Sends one request and returns the response; `timeout` bounds connecting and each wait for bytes.
    package func send(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = [], timeout: Double
    ) throws -> Response {
        guard !aborted.load(ordering: .acquiring) else { throw Failure(description: "client stopped") }
        let fd = try connect(timeout: timeout)
        current.withLock { $0 = fd }
        // An abort between the check above and the line before would have found no socket to shut down.
        if aborted.load(ordering: .acquiring) { shutdown(fd, Int32(SHUT_RDWR)) }
        defer {
            current.withLock { $0 = -1 }
            close(fd)
        }
        var head = "\(method) \(url.prefix)\(path) HTTP/1.1\r\nHost: \(url.host):\(url.port)\r\nConnection: close\r\n"
        head += "Authorization: Bearer \(token.value)\r\nUser-Agent: prelude-replica/\(ServiceInfo.version)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try write(fd, Array(head.utf8) + body)
        return try readResponse(fd)
    }

    /// Aborts the request in progress, if any, and makes every later one fail at once.
    package func abort() {
        aborted.store(true, ordering: .releasing)
        current.withLock { fd in
            if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    private func connect(timeout: Double) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(url.host, String(url.port), &hints, &list)
        guard status == 0, let first = list else {
            throw Failure(description: "cannot resolve \(url.host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = Failure(description: "no address for \(url.host)")
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            // SO_SNDTIMEO also bounds connect(2) on Linux; SO_RCVTIMEO bounds each wait for response bytes.
            var time = timeval()
            time.tv_sec = .init(timeout)
            time.tv_usec = .init((timeout - timeout.rounded(.down)) * 1e6)
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            if systemConnect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return fd }
            lastError = Failure(description: "connect to \(url): \(String(cString: strerror(errno)))")
            close(fd)
        }
        throw lastError
    }

    private func write(_ fd: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                systemSend(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { throw Failure(description: "send to \(url): \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    private func readResponse(_ fd: Int32) throws -> Response {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 {
                let reason = errno == EAGAIN || errno == EWOULDBLOCK ? "timed out" : String(cString: strerror(errno))
                throw Failure(description: "receive from \(url): \(reason)")
            }
            if count == 0 { break }
            received += buffer[0..<count]
            guard received.count <= Self.maxResponseSize else {
                throw Failure(description: "response from \(url) exceeds \(Self.maxResponseSize) bytes")
            }
        }
        return try Self.parse(received)
    }

    /// Parses a whole response read until close.
    package static func parse(_ bytes: [UInt8]) throws -> Response {
        guard let split = headEnd(bytes) else { throw Failure(description: "incomplete response") }
        let lines = String(decoding: bytes[..<split], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw Failure(description: "malformed status line")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        guard headers["transfer-encoding"] == nil else {
            throw Failure(description: "chunked responses are not supported; the primary sends Content-Length")
        }
        var body = Array(bytes[(split + 4)...])
        if let length = headers["content-length"].flatMap(Int.init) {
            guard body.count >= length else { throw Failure(description: "response body cut short") }
            body = Array(body.prefix(length))
        }
        return Response(status: status, headers: headers, body: body)
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4)
        where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }
}

// The free functions, named apart from the client's own `send` and `connect`.
private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
    #if canImport(Glibc)
        Glibc.connect(fd, address, length)
    #else
        Darwin.connect(fd, address, length)
    #endif
}

private func systemSend(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    #if canImport(Glibc)
        Glibc.send(fd, bytes, count, flags)
    #else
        Darwin.send(fd, bytes, count, flags)
    #endif
}
