import Foundation
import PreludeTestSupport
import Testing

/// A local HTTPS webhook receiver for the live tests: scripts/webhook-receiver.py (Python's http.server with ssl,
/// verifying each signature with Python's hmac) behind a certificate for `localhost` signed by a CA made for this
/// run with openssl, so only a client given that CA file trusts it.
final class WebhookReceiver {
    /// What the receiver logged for one request.
    struct Record: Sendable {
        let path: String
        let id: String?
        let timestamp: String?
        /// Whether the signature verified (nil for /redirect, which is not checked).
        let verified: Bool?
        /// Whether the id had been acknowledged before.
        let duplicate: Bool?
        let status: Int
        let body: String

        /// The body as a JSON object.
        var payload: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
        }
    }

    let directory: String
    let port: Int
    let secret: String
    private let process: Process

    /// The CA that signed the receiver's certificate.
    var caFile: String { directory + "/ca.pem" }
    /// The URL deliveries go to.
    var url: String { "https://localhost:\(port)/hook" }
    private var log: String { directory + "/deliveries.jsonl" }

    /// Makes the CA and certificate and starts the receiver with `secret` (answering 500 to the first `fail`
    /// deliveries), on `port` (0: a free one).
    init(secret: String, fail: Int = 0, port: Int = 0, directory existing: String? = nil) throws {
        directory = existing ?? (NSTemporaryDirectory() + "prelude-webhooks-" + UUID().uuidString)
        self.secret = secret
        if existing == nil {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try TestCertificates.make(in: directory, authority: "Prelude webhook test CA")
        }
        let portFile = directory + "/port-\(UUID().uuidString)"
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", ServiceFixture.repositoryRoot + "/scripts/webhook-receiver.py", "--secret", secret, "--port",
            "\(port)", "--port-file", portFile, "--cert", directory + "/server.pem", "--key", directory + "/server.key",
            "--log", directory + "/deliveries.jsonl", "--fail", "\(fail)", "--tolerance", "0",
        ]
        try process.run()
        // Readiness, not timing: the script writes the port file once it listens.
        while process.isRunning && !FileManager.default.fileExists(atPath: portFile) { usleep(20_000) }
        guard process.isRunning, let text = try? String(contentsOfFile: portFile, encoding: .utf8),
            let bound = Int(text)
        else { throw TestTransport.Failure.malformed("the webhook receiver did not start") }
        self.port = bound
    }

    /// Stops the receiver (SIGKILL: a child spawned from a test thread inherits that thread's blocked signals, so
    /// a SIGTERM could stay pending for ever); the directory stays for a restart (``restarted()``) until
    /// ``remove()``.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// A new receiver on the same port, directory, certificate and log (its set of acknowledged ids starts empty).
    func restarted() throws -> WebhookReceiver {
        try WebhookReceiver(secret: secret, port: port, directory: directory)
    }

    /// Deletes the directory.
    func remove() { try? FileManager.default.removeItem(atPath: directory) }

    /// Answer `status` to every delivery from now on (nil: back to normal).
    func force(status: Int?) throws {
        if let status {
            try "\(status)".write(toFile: log + ".status", atomically: true, encoding: .utf8)
        } else {
            try? FileManager.default.removeItem(atPath: log + ".status")
        }
    }

    /// Every request logged so far, in order.
    func records() -> [Record] {
        guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                return nil
            }
            return Record(
                path: object["path"] as? String ?? "", id: object["id"] as? String,
                timestamp: object["timestamp"] as? String, verified: object["verified"] as? Bool,
                duplicate: object["duplicate"] as? Bool, status: object["status"] as? Int ?? 0,
                body: object["body"] as? String ?? "")
        }
    }

    /// Waits (for the receiver's log, not for time) until `condition` holds, at most `seconds`.
    func waitUntil(seconds: Double = 20, _ condition: ([Record]) -> Bool) -> [Record] {
        let deadline = Date().addingTimeInterval(seconds)
        var records = self.records()
        while !condition(records) && Date() < deadline {
            usleep(20_000)
            records = self.records()
        }
        return records
    }

    /// A `whsec_` secret of 32 random bytes.
    static func makeSecret() -> String {
        "whsec_" + Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
    }
}
