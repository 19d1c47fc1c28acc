import Foundation

/// A blocking HTTP/1.1 client over a raw socket for the public API tests: any method, headers and body,
/// binary-safe responses, `Connection: close` per request.
struct PublicClient {
    struct Response {
        let status: Int
        let headers: [(name: String, value: String)]
        let body: [UInt8]

        /// The first value of a header (case-insensitive).
        subscript(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        var text: String { String(decoding: body, as: UTF8.self) }

        /// The body parsed with JSONSerialization.
        func json() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
                throw Failure.malformed("not a JSON object: \(text)")
            }
            return object
        }

        /// The `pointer`s of a problem document's `errors`.
        func problemPointers() throws -> [String] {
            ((try json()["errors"] as? [[String: Any]]) ?? []).compactMap { $0["pointer"] as? String }
        }
    }

    enum Failure: Error { case socket(Int32), malformed(String) }

    let port: Int

    func get(_ target: String, headers: [(String, String)] = []) throws -> Response {
        try send("GET", target, headers: headers)
    }

    func post(_ target: String, json: String, headers: [(String, String)] = []) throws -> Response {
        try send("POST", target, headers: [("Content-Type", "application/json")] + headers, body: Array(json.utf8))
    }

    func send(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) throws
        -> Response
    {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure.socket(errno) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure.socket(errno) }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        let request = Array(head.utf8) + body
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure.socket(errno) }
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        guard let split = Self.find([13, 10, 13, 10], in: received) else {
            throw Failure.malformed(String(decoding: received, as: UTF8.self))
        }
        let headText = String(decoding: received[..<split], as: UTF8.self)
        let lines = headText.components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Failure.malformed(lines[0]) }
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields.append(
                (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return Response(status: status, headers: fields, body: Array(received[(split + 4)...]))
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] {
            if Array(haystack[i..<(i + needle.count)]) == needle { return i }
        }
        return nil
    }
}
