import Foundation

/// The one blocking HTTP/1.1 client over raw sockets that every service test builds on: connect to 127.0.0.1,
/// write a request as is, read until the server closes (one request per connection), split status, header fields
/// and body (binary-safe).
enum HTTPTestClient {
    struct Response {
        let status: Int
        /// The header fields in the order received, names as sent.
        let fields: [(name: String, value: String)]
        /// The raw body bytes.
        let bytes: [UInt8]

        /// The header fields by lowercased name (the last one wins when a name repeats).
        var headers: [String: String] {
            var headers: [String: String] = [:]
            for field in fields { headers[field.name.lowercased()] = field.value }
            return headers
        }

        /// The body decoded as UTF-8.
        var body: String { String(decoding: bytes, as: UTF8.self) }
    }

    enum Failure: Error { case socket(Int32), malformed(String) }

    /// Sends `GET path` with `Connection: close` to 127.0.0.1:port and reads until the server closes.
    static func get(_ path: String, port: Int) throws -> Response {
        try exchange(Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8), port: port)
    }

    /// Sends `request` exactly as given on a fresh connection and reads the response until the server closes.
    static func exchange(_ request: [UInt8], port: Int) throws -> Response {
        let fd = try connect(port: port)
        defer { close(fd) }
        transmit(request, to: fd)
        return try receive(fd)
    }

    /// A connected socket to 127.0.0.1:port.
    static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure.socket(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let error = errno
            close(fd)
            throw Failure.socket(error)
        }
        return fd
    }

    /// Writes all of `bytes`; on a write error it stops and returns that `errno` (the server may answer and close
    /// before reading everything, and the response is still worth reading), otherwise `nil`.
    @discardableResult
    static func transmit(_ bytes: [UInt8], to fd: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return errno }
            offset += sent
        }
        return nil
    }

    /// Reads until the server closes and parses the response.
    static func receive(_ fd: Int32) throws -> Response {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        return try parse(received)
    }

    /// Parses a whole response (head and body up to the end of `received`).
    static func parse(_ received: [UInt8]) throws -> Response {
        guard let split = headEnd(in: received) else {
            throw Failure.malformed(String(decoding: received, as: UTF8.self))
        }
        let lines = String(decoding: received[..<split], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure.malformed(lines[0]) }
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields.append(
                (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return Response(status: status, fields: fields, bytes: Array(received[(split + 4)...]))
    }

    /// The offset of the first CRLF CRLF (the end of the head), if any.
    private static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4)
        where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }
}
