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

    /// Runs the helper; with `killAt` = k, SIGKILLs it at a random instant 0–4 ms after its k-th `flushing` line
    /// (inside that flush, or just after it), else lets it finish. With `killWhenAnswered`, the helper holds after
    /// the server answers its first events batch and is killed there, before its queue forgets the batch.
    /// Returns the lines it printed.
    private func run(
        count: Int, killAt: Int?, killWhenAnswered: Bool = false, port: Int, random: inout SplitMix64
    ) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.binary())
        process.arguments =
            [
                "http://127.0.0.1:\(port)", fixture.path("client"), ClientFixture.demoPolicyPath, String(count), "7",
            ] + (killWhenAnswered ? ["hold"] : [])
        process.environment = ["SWIFT_BACKTRACE": "enable=no"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var text = ""
        var lines: [String] = []
        func reachedKillPoint() -> Bool {
            if killWhenAnswered { return lines.contains("answered") }
            return killAt.map { lines.count { $0 == "flushing" } >= $0 } ?? false
        }
        while !reachedKillPoint() {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            if !text.hasSuffix("\n") { lines.removeLast() }
        }
        if killWhenAnswered, process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        } else if killAt != nil, process.isRunning {
            // A random kill point, not a wait for anything: spreads the kills over the flush's steps (encode,
            // request, server commit, answer, queue rewrite).
            usleep(UInt32(random.below(4000)))
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        // What it printed between the last read and its death counts too: those records had returned.
        text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        var all = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        all.removeLast()  // empty after the last newline, or a line cut by the kill
        return all.filter { !$0.isEmpty }
    }

    @Test func killedMidFlushManyTimesEveryEventArrivesExactlyOnce() throws {
        let service = try fixture.startService()
        defer { service.stop() }
        var random = SplitMix64(state: 0xC0FFEE)
        var acknowledged: [String] = []
        var duplicates = 0
        var kills = 0
        func count(_ lines: [String]) {
            acknowledged += lines.filter { $0.hasPrefix("queued ") }.map { String($0.dropFirst(7)) }
            for line in lines where line.hasPrefix("flushed ") {
                duplicates += Int(line.split(separator: " ")[2]) ?? 0
            }
        }
        for _ in 0..<30 {
            count(try run(count: 40, killAt: 1 + random.below(5), port: service.port, random: &random))
            kills += 1
        }
        // Three kills in the exact window where the server has stored a batch and the client has not yet removed
        // it: the random kills above may or may not hit it.
        for _ in 0..<3 {
            count(try run(count: 14, killAt: nil, killWhenAnswered: true, port: service.port, random: &random))
            kills += 1
        }
        // A last run, not killed, drains the queue.
        let drain = try run(count: 0, killAt: nil, port: service.port, random: &random)
        count(drain)
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
        // The batches killed after the server stored them were sent again, and the server counted them as
        // duplicates, not new events.
        #expect(duplicates > 0)
    }
}
