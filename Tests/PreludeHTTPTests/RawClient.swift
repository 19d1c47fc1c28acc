import PreludeHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking TCP client for live tests: writes raw bytes, reads raw responses, with receive timeouts
/// so a broken server fails the test instead of hanging it.
final class RawClient {
    let fd: Int32

    init(port: Int, timeout: Double = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError("socket") }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = UInt16(port).bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else {
            let e = SocketError("connect")
            Glibc.close(fd)
            throw e
        }
    }

    private var closed = false

    deinit { close() }

    /// Closes the socket (once).
    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard n > 0 else { throw SocketError("send") }
            offset += n
        }
    }

    /// Half-closes the sending direction (the server sees EOF after the request).
    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Aborts with RST instead of FIN.
    func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    private var buffer: [UInt8] = []

    /// Reads more bytes; nil on EOF, throws on timeout or error.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, 65536, 0) }
        if n == 0 { return false }
        if n < 0 { throw SocketError("recv") }
        buffer.append(contentsOf: chunk[0..<n])
        return true
    }

    /// Reads one response (head plus Content-Length body, or up to EOF). `head` suppresses the body (HEAD).
    func readResponse(head: Bool = false) throws -> ClientResponse {
        while true {
            if let end = findHeadEnd() {
                let headText = String(decoding: buffer[0..<end], as: UTF8.self)
                var lines = headText.components(separatedByCRLF: ())
                let statusLine = lines.removeFirst()
                let parts = statusLine.split(separator: " ", maxSplits: 2)
                let status = Int(parts[1]) ?? 0
                var headers: [(String, String)] = []
                for line in lines where !line.isEmpty {
                    let colon = line.firstIndex(of: ":")!
                    headers.append((String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingSpaces()))
                }
                let response0 = ClientResponse(status: status, headers: headers, body: [])
                let bodyStart = end + 4
                var length = 0
                if !head && status >= 200 && status != 204 && status != 304 {
                    length = Int(response0.header("Content-Length") ?? "0") ?? 0
                }
                while buffer.count < bodyStart + length {
                    guard try fill() else { throw SocketError("recv (EOF in body)", code: 0) }
                }
                let body = Array(buffer[bodyStart..<(bodyStart + length)])
                buffer.removeSubrange(0..<(bodyStart + length))
                return ClientResponse(status: status, headers: headers, body: body)
            }
            guard try fill() else { throw SocketError("recv (EOF before response)", code: 0) }
        }
    }

    /// Reads a response, retrying receive timeouts (for a connection that waits in the backlog).
    func readResponseRetrying(attempts: Int) throws -> ClientResponse {
        var lastError: (any Error)?
        for _ in 0..<attempts {
            do { return try readResponse() } catch let e as SocketError where e.code == EAGAIN { lastError = e }
        }
        throw lastError!
    }

    /// True when the server closed the connection (EOF, or a reset) with no further bytes.
    func readsEOF() -> Bool {
        if !buffer.isEmpty { return false }
        do { return try !fill() } catch let e as SocketError { return e.code == ECONNRESET } catch { return false }
    }

    private func findHeadEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4)
        where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }
}

struct ClientResponse {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    var text: String { String(decoding: body, as: UTF8.self) }
}

extension String {
    func components(separatedByCRLF: ()) -> [String] {
        var result: [String] = []
        var current = ""
        var previousCR = false
        for c in self.unicodeScalars {
            if c == "\r" { previousCR = true; continue }
            if c == "\n" && previousCR {
                result.append(current)
                current = ""
                previousCR = false
                continue
            }
            current.unicodeScalars.append(c)
        }
        result.append(current)
        return result
    }

    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" { s = s.dropLast() }
        return String(s)
    }
}
