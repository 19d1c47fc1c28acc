import Foundation
import Testing

@testable import PreludeStorage

/// reliability.md §2: every write the child acknowledged (printed after COMMIT returned) must be there after
/// the child is SIGKILLed mid-stream, with no torn transaction.
@Suite struct DurabilityTests {
    let directory = TemporaryDirectory()

    /// The helper executable `swift build`/`swift test` put beside the test bundle.
    static func crashtestBinary() -> String? {
        let candidates = [
            ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "") as NSString,
            (Bundle.main.executablePath ?? "") as NSString,
        ].map { ($0.deletingLastPathComponent as NSString).appendingPathComponent("prelude-crashtest") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test func acknowledgedWritesSurviveKill9() throws {
        let binary = try #require(Self.crashtestBinary(), "build the prelude-crashtest product first")
        let path = directory.file("crash.sqlite")
        var previousMaximum: Int64 = 0
        // Different kill points per round: after 7, 44, 81, … acknowledgements, while the next write is in flight.
        for round in 0..<6 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = [path]
            process.environment = ["SWIFT_BACKTRACE": "enable=no"]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let reader = AckReader(fd: pipe.fileHandleForReading.fileDescriptor)
            let target = 7 + round * 37
            var acks: [Int64] = []
            while acks.count < target, let batch = reader.next() { acks += batch }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            while let batch = reader.next() { acks += batch }
            #expect(process.terminationReason == .uncaughtSignal)
            #expect(acks.count >= target, "the child died before acknowledging \(target) writes")
            // Acks continue from the last surviving version, one by one.
            #expect(acks == Array((previousMaximum + 1)..<(previousMaximum + 1 + Int64(acks.count))))

            let database = try Database(path: path, readerCount: 1)
            let (integrity, version, auditCount, auditMax) = try database.read { db in
                (
                    try db.scalar("PRAGMA integrity_check", as: String.self),
                    try db.scalar("SELECT version FROM policy WHERE id = 1", as: Int64.self) ?? -1,
                    try db.scalar("SELECT count(*) FROM audit", as: Int64.self) ?? -1,
                    try db.scalar("SELECT coalesce(max(seq), 0) FROM audit", as: Int64.self) ?? -1
                )
            }
            database.close()
            #expect(integrity == "ok")
            #expect(version == auditCount && version == auditMax, "a change without its audit row: torn transaction")
            #expect(version >= (acks.last ?? previousMaximum), "an acknowledged write was lost")
            previousMaximum = version
        }
    }
}

/// Reads newline-separated integers from a pipe with read(2), so nothing sits in a userspace buffer.
private final class AckReader {
    let fd: Int32
    var pending: [UInt8] = []

    init(fd: Int32) { self.fd = fd }

    /// The next complete lines, or nil at end of file.
    func next() -> [Int64]? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            pending += buffer[0..<count]
            guard let lastNewline = pending.lastIndex(of: UInt8(ascii: "\n")) else { continue }
            let complete = pending[...lastNewline]
            pending.removeSubrange(...lastNewline)
            return complete.split(separator: UInt8(ascii: "\n")).compactMap {
                Int64(String(decoding: $0, as: UTF8.self))
            }
        }
    }
}
