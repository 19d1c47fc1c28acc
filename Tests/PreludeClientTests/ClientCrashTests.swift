import Foundation
import PreludeCore
import PreludeTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// kill -9 of the client at random points, many times, most of them in the middle of a flush: the server ends
/// with every acknowledged event exactly once, and the queue drains.
@Suite struct ClientCrashTests {
    let fixture = ClientFixture()

    static func binary() throws -> String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        let candidate = ((executable as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent("prelude-client-crashtest")
        try #require(FileManager.default.isExecutableFile(atPath: candidate), "build prelude-client-crashtest first")
        return candidate
    }

    /// Runs the helper; kills it with SIGKILL after `killAfter` output lines (nil: let it finish). Returns the
    /// lines it printed.
    private func run(count: Int, killAfter: Int?, port: Int, random: inout SplitMix64) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.binary())
        process.arguments = [
            "http://127.0.0.1:\(port)", fixture.path("client"), ClientFixture.demoPolicyPath, String(count), "7",
        ]
        process.environment = ["SWIFT_BACKTRACE": "enable=no"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var text = ""
        var lines: [String] = []
        while killAfter.map({ lines.count < $0 }) ?? true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            if !text.hasSuffix("\n") { lines.removeLast() }
        }
        if killAfter != nil, process.isRunning {
            // Spread the kill over the work that follows the last line read (a record, or a flush in flight).
            let spin = random.below(20_000)
            var sink = 0
            for i in 0..<spin { sink &+= i }
            _ = sink
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return lines
    }

    @Test func killedMidFlushManyTimesEveryEventArrivesExactlyOnce() throws {
        let service = try fixture.startService()
        defer { service.stop() }
        var random = SplitMix64(state: 0xC0FFEE)
        var acknowledged: [String] = []
        var kills = 0
        for _ in 0..<30 {
            let lines = try run(count: 40, killAfter: 1 + random.below(50), port: service.port, random: &random)
            acknowledged += lines.filter { $0.hasPrefix("queued ") }.map { String($0.dropFirst(7)) }
            kills += 1
        }
        // A last run, not killed, drains the queue.
        let drain = try run(count: 0, killAfter: nil, port: service.port, random: &random)
        #expect(drain.last?.hasSuffix(" 0") == true, "the drain ends with an empty queue: \(drain)")

        let stored = try ClientFixture.storedEvents(service)
        #expect(Set(acknowledged).count == acknowledged.count)
        #expect(acknowledged.count > 100)
        // Every event the client acknowledged is stored; the only others are events made durable just before a
        // kill and not yet printed (at most one per kill). The server stores each (install, id) once.
        #expect(stored.ids.isSuperset(of: acknowledged))
        #expect(stored.count == Int64(stored.ids.count))
        #expect(stored.ids.count - acknowledged.count <= kills)
        #expect(!FileManager.default.fileExists(atPath: fixture.path("client/events.queue")))
    }
}
