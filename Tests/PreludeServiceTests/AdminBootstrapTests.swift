import Foundation
import PreludeStorage
import PreludeStore
import Synchronization
import Testing

@testable import PreludeService

/// The bootstrap token's log lines at start-up (the `tokens` table itself: Tests/PreludeStoreTests/TokenStoreTests.swift).
@Suite struct AdminBootstrapTests {
    @Test func bootstrapLogsHowToCreateATokenWhenThereIsNone() throws {
        let harness = try AuthHarness()
        let lines = LockedLines()
        let logger = Logger(level: .debug) { lines.append($0) }
        try AdminBootstrap.run(secret: nil, tokens: harness.tokens, logger: logger, now: 1)
        #expect(lines.all.contains { $0.contains("prelude token create --name NAME --scope write") })
        let secret = "env-" + String(repeating: "q", count: 40)
        let quiet = LockedLines()
        try AdminBootstrap.run(
            secret: RedactedSecret(secret), tokens: harness.tokens, logger: Logger(level: .debug) { quiet.append($0) },
            now: 2)
        #expect(!quiet.all.contains { $0.contains("no admin token") })
        #expect(!quiet.all.contains { $0.contains(secret) })
    }
}

/// Log lines captured from several threads.
final class LockedLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
