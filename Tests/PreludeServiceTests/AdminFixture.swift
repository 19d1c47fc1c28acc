import Foundation
import PreludeStorage

@testable import PreludeService

/// A running service with the admin API: its own temporary database, the bootstrap write token, a raw HTTP client.
final class AdminServer {
    static let secret = "test-bootstrap-secret-0123456789abcdefghijklmnopqrstuvwxyz"
    /// A small valid policy for app `demo` (microphone with English copy, one experiment on it, and camera).
    static let policyText = """
        {
          "schemaVersion": 1,
          "app": {"id": "demo", "name": "Demo"},
          "defaults": {
            "copy": {
              "en": {
                "prime": {"continueLabel": "Continue"},
                "settings": {"openLabel": "Open Settings", "cancelLabel": "Not Now"},
                "denied": {"title": "Access is off", "message": "You can turn it on in Settings."},
                "restricted": {"title": "Not available", "message": "A device setting blocks this."},
                "unsupported": {"title": "Not supported", "message": "This device cannot do this."}
              }
            }
          },
          "features": {
            "microphone": {
              "copy": {"en": {"prime": {"title": "Record notes", "message": "{appName} records voice notes."},
                              "settings": {"title": "Microphone is off", "message": "Open Settings to record."}}}
            },
            "camera": {
              "copy": {"en": {"prime": {"title": "Scan documents", "message": "{appName} scans paper documents."},
                              "settings": {"title": "Camera is off", "message": "Open Settings to scan."}}}
            }
          },
          "experiments": [
            {"key": "mic", "feature": "microphone", "variants": [{"name": "a", "weight": 50}, {"name": "b", "weight": 50}]}
          ]
        }
        """

    let fixture = ServiceFixture()
    let service: PreludeService
    let logLines = LockedLines()

    /// The port serving admin routes (the separate listener when configured).
    var adminPort: Int { service.adminPort ?? service.port }

    init(
        policy: String = AdminServer.policyText, demoPolicyPath: String? = nil,
        configure: (inout ServiceConfiguration) -> Void = { _ in }
    ) throws {
        fixture.write("demo.json", policy)
        var configuration = ServiceFixture.make(fixture)
        if let demoPolicyPath { configuration.demoPolicy = demoPolicyPath }
        configuration.adminToken = RedactedSecret(Self.secret)
        configuration.logLevel = .debug
        configure(&configuration)
        let lines = logLines
        service = try PreludeService.start(
            configuration: configuration, logger: Logger(level: .debug) { lines.append($0) })
    }

    deinit { service.stop() }

    /// Sends one request to the admin port with the bootstrap token (unless `token` says otherwise).
    func send(
        _ method: String, _ path: String, token: String? = AdminServer.secret, headers: [(String, String)] = [],
        body: String? = nil, port: Int? = nil
    ) throws -> AdminClient.Response {
        try AdminClient.send(
            AdminClient.request(method, path, token: token, headers: headers, body: body), port: port ?? adminPort)
    }

    /// The current policy ETag of `app`.
    func etag(_ app: String = "demo") throws -> String {
        try require(try send("GET", "/v1/admin/apps/\(app)/policy").headers["etag"], "no ETag for \(app)")
    }

    /// Every row of every table, in a stable order: what "the database did not change" compares.
    func dump() throws -> [String] {
        try service.database.read { db in
            let tables = try db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map {
                try $0.get("name", as: String.self)
            }
            return try tables.flatMap { table in
                try db.query("SELECT * FROM \"\(table)\"").map { "\(table): \($0.values)" }.sorted()
            }
        }
    }

    /// The main database file's bytes after a full checkpoint (so the WAL's content is in it).
    func checkpointedFileBytes() throws -> Data {
        try service.database.writeWithoutTransaction { db in try db.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        return try Data(contentsOf: URL(fileURLWithPath: service.configuration.database))
    }
}

private func require<T>(_ value: T?, _ message: String = "missing value") throws -> T {
    guard let value else { throw AdminClient.Failure.malformed(message) }
    return value
}

/// A blocking HTTP/1.1 client over raw sockets: one request per connection (`Connection: close`).
enum AdminClient {
    struct Response {
        let status: Int
        let headers: [String: String]
        let body: String
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.utf8)) }
        var object: [String: Any] { json as? [String: Any] ?? [:] }
    }

    enum Failure: Error { case socket(Int32), malformed(String) }

    static func request(
        _ method: String, _ path: String, token: String?, headers: [(String, String)] = [], body: String? = nil
    ) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        var fields = headers
        if let body {
            if !fields.contains(where: { $0.0.lowercased() == "content-type" }) {
                fields.append(("Content-Type", "application/json"))
            }
            fields.append(("Content-Length", "\(body.utf8.count)"))
        }
        for (name, value) in fields { head += "\(name): \(value)\r\n" }
        return Array((head + "\r\n").utf8) + Array((body ?? "").utf8)
    }

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
            close(fd)
            throw Failure.socket(errno)
        }
        return fd
    }

    static func transmit(_ bytes: [UInt8], to fd: Int32) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return }
            offset += sent
        }
    }

    static func receive(_ fd: Int32) throws -> Response {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw Failure.malformed(text) }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure.malformed(lines[0]) }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: String(text[split.upperBound...]))
    }

    static func send(_ request: [UInt8], port: Int) throws -> Response {
        let fd = try connect(port: port)
        defer { close(fd) }
        transmit(request, to: fd)
        return try receive(fd)
    }

    /// Opens a connection per request, writes every request completely, and only then reads the responses, so
    /// the server has all of them in hand at once.
    static func sendConcurrently(_ requests: [[UInt8]], port: Int) throws -> [Response] {
        let sockets = try requests.map { _ in try connect(port: port) }
        defer { sockets.forEach { close($0) } }
        for (fd, request) in zip(sockets, requests) { transmit(request, to: fd) }
        return try sockets.map(receive)
    }
}
