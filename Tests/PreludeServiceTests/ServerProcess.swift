import Foundation
import Testing

/// The built `prelude serve` running as a child process on a free port, for tests that must kill it.
struct ServerProcess {
    let process: Process
    let port: Int
    /// Standard error up to and including the "listening" line.
    let startLog: String

    /// Starts `prelude serve` on `port` (0: a free one) with `database` and `policy` (the demo seed) and any
    /// further `arguments`, waits for its "listening" log line and reads the bound port from it.
    static func start(
        database: String, policy: String, environment: [String: String] = [:], arguments: [String] = [], port: Int = 0
    ) throws -> ServerProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(CommandLineTests.binary()))
        process.arguments =
            [
                "serve", "--port", "\(port)", "--database", database, "--demo-policy", policy,
                "--migrations-dir", ServiceFixture.repositoryRoot + "/migrations",
            ] + arguments
        process.environment = ["SWIFT_BACKTRACE": "enable=no"].merging(environment) { $1 }
        let err = Pipe()
        process.standardError = err
        try process.run()
        var log = ""
        while !log.contains("\"msg\":\"listening\"") {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            log += String(decoding: chunk, as: UTF8.self)
        }
        guard let port = log.firstMatch(of: /"msg":"listening"[^\n]*"port":(\d+)/).flatMap({ Int($0.output.1) })
        else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            Issue.record("no port in: \(log)")
            throw TestTransport.Failure.malformed("the server did not start: \(log)")
        }
        // Keep draining standard error, so a test sending many requests never blocks the server on a full pipe.
        let reader = err.fileHandleForReading
        DispatchQueue.global().async { while !reader.availableData.isEmpty {} }
        return ServerProcess(process: process, port: port, startLog: log)
    }

    /// SIGKILL: no shutdown, no checkpoint, no close. Returns once the process is gone.
    func killHard() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
