import Foundation
import PreludeStorage
import PreludeStore

@testable import PreludeService

/// A running service with the admin API: its own temporary database, the bootstrap write token, requests through ``TestTransport``.
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
        configure: (inout ServiceConfiguration) -> Void = { _ in },
        webhookTiming: (clock: ServiceClock, random: @Sendable () -> Double)? = nil
    ) throws {
        fixture.write("demo.json", policy)
        var configuration = ServiceFixture.make(fixture)
        if let demoPolicyPath { configuration.demoPolicy = demoPolicyPath }
        configuration.adminToken = RedactedSecret(Self.secret)
        configuration.logLevel = .debug
        configure(&configuration)
        let lines = logLines
        service = try PreludeService.start(
            configuration: configuration, logger: Logger(level: .debug) { lines.append($0) },
            webhookTiming: webhookTiming)
    }

    deinit { service.stop() }

    /// Sends one request to the admin port with the bootstrap token (unless `token` says otherwise).
    func send(
        _ method: String, _ path: String, token: String? = AdminServer.secret, headers: [(String, String)] = [],
        body: String? = nil, port: Int? = nil
    ) throws -> TestTransport.Response {
        try TestTransport.live(port: port ?? adminPort).exchange(
            AdminRequest.bytes(method, path, token: token, headers: headers, body: body))
    }

    /// The current policy ETag of `app`.
    func etag(_ app: String = "demo") throws -> String {
        try require(try send("GET", "/v1/admin/apps/\(app)/policy").headers["etag"], "no ETag for \(app)")
    }

    /// Every row of every table, in a stable order: what "the database did not change" compares.
    func dump() throws -> [String] {
        try service.database.read { db in
            let tables = try db.tableNames()
            return try tables.flatMap { table in
                try db.query("SELECT * FROM \"\(table)\"").map { "\(table): \($0.values)" }.sorted()
            }
        }
    }

    /// The main database file's bytes after a full checkpoint (so the WAL's content is in it).
    func checkpointedFileBytes() throws -> Data {
        // PostgreSQL has no file of its own to compare: every row of every table stands for it.
        if service.database.engine == .postgres { return Data(try dump().joined(separator: "\n").utf8) }
        try service.database.writeWithoutTransaction { db in try db.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        return try Data(contentsOf: URL(fileURLWithPath: service.configuration.database))
    }
}

private func require<T>(_ value: T?, _ message: String = "missing value") throws -> T {
    guard let value else { throw TestTransport.Failure.malformed(message) }
    return value
}

/// Admin API requests (bearer token, JSON body) as bytes for ``TestTransport``, one request per connection.
enum AdminRequest {
    static func bytes(
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
}

extension TestTransport.Response {
    /// The body parsed with JSONSerialization, if it is JSON.
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.utf8)) }
    /// The body as a JSON object, empty when it is not one.
    var object: [String: Any] { json as? [String: Any] ?? [:] }
}
