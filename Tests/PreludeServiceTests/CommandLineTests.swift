import Foundation
import Testing

/// Runs the built `prelude` executable: exit statuses, messages, and the real signal path.
@Suite struct CommandLineTests {
    let fixture = ServiceFixture()

    static func binary() -> String? {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        let candidate = ((executable as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent("prelude")
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }

    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs the built `prelude` with `arguments` (backtraces off, `environment` added) in `directory` (the test
    /// process's own when `nil`) and collects its exit status and output.
    static func runPrelude(_ arguments: [String], environment: [String: String] = [:], in directory: String?) throws
        -> Run
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(binary()))
        process.arguments = arguments
        process.environment = ["SWIFT_BACKTRACE": "enable=no"].merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        try Self.runPrelude(arguments, environment: environment, in: fixture.directory)
    }

    @Test func badPortExitsWithConfigErrorNamingTheFlag() throws {
        let result = try run(["serve", "--port", "99999"])
        #expect(result.status == 78)
        #expect(result.stderr.contains("--port: '99999' is not a TCP port"))
    }

    @Test func unknownEnvironmentVariableExitsWithConfigError() throws {
        let result = try run(["migrate"], environment: ["PRELUDE_PROT": "1"])
        #expect(result.status == 78)
        #expect(result.stderr.contains("PRELUDE_PROT"))
    }

    @Test func unwritableDatabaseExitsWithConfigError() throws {
        let result = try run(["migrate", "--database", "/nonexistent-dir/p.sqlite"])
        #expect(result.status == 78)
        #expect(result.stderr.contains("database (PRELUDE_DATABASE / --database)"))
    }

    @Test func migrateAppliesThenReportsUpToDate() throws {
        let arguments = [
            "migrate", "--database", fixture.path("m.sqlite"), "--migrations-dir",
            ServiceFixture.repositoryRoot + "/migrations",
        ]
        let first = try run(arguments)
        #expect(first.status == 0)
        #expect(first.stdout.contains("Applied: 0001_initial"))
        let second = try run(arguments)
        #expect(second.status == 0)
        #expect(second.stdout.contains("Database is up to date."))
    }

    @Test func serveStopsCleanlyOnSIGTERM() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.binary()))
        process.arguments = [
            "--port", "0", "--database", fixture.path("s.sqlite"), "--demo-policy", fixture.path("demo.json"),
            "--migrations-dir", ServiceFixture.repositoryRoot + "/migrations", "--drain-seconds", "0",
        ]
        process.environment = ["SWIFT_BACKTRACE": "enable=no"]
        let err = Pipe()
        process.standardError = err
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // Block on the log until the "listening" line: no sleeping, no polling.
        var log = ""
        let handle = err.fileHandleForReading
        while !log.contains("\"msg\":\"listening\"") {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            log += String(decoding: chunk, as: UTF8.self)
        }
        let port = try #require(
            log.firstMatch(of: /"port":(\d+)/).flatMap { Int($0.output.1) }, "no listening line in: \(log)")
        #expect(try TestTransport.live(port: port).get("/healthz").status == 200)
        kill(process.processIdentifier, SIGTERM)
        log += String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(log.contains("\"msg\":\"stopped\""))
    }
}
