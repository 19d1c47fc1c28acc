import Foundation
import PreludeCore
import PreludeStorage
import PreludeStore
import PreludeStoreTestSupport
import Synchronization
import Testing

@testable import PreludeService

/// The clock-driven pruning task and the retention setting (the pruner itself: PreludeStoreTests/EventPrunerTests).
@Suite struct RetentionTests {
    static let day = ResultsFixture.day
    static let now: Int64 = 1_800_000_000_000

    @Test func theTaskPrunesAtTheInjectedClocksTime() throws {
        let fixture = try ResultsFixture()
        try fixture.seedRetentionTraffic(now: Self.now)
        let clock = Atomic<Int64>(Self.now - 50 * Self.day)
        let lines = Mutex<[String]>([])
        let logger = Logger(level: .info) { line in lines.withLock { $0.append(line) } }
        let task = EventRetentionTask(
            pruner: EventPruner(retentionDays: 30), database: fixture.database, logger: logger,
            clock: ServiceClock { clock.load(ordering: .relaxed) })
        // 50 days before "now" the cutoff is 80 days back: only the 100-day-old traffic goes.
        let first = task.runOnce()
        #expect(first > 0)
        #expect(try fixture.receivedTimes() == [Self.now - 40 * Self.day, Self.now - 10 * Self.day])
        clock.store(Self.now, ordering: .relaxed)
        #expect(task.runOnce() == 60)
        #expect(task.runOnce() == 0)
        #expect(lines.withLock { $0 }.filter { $0.contains("events pruned") }.count == 2)
        // The timer starts and stops cleanly (its first tick is a minute away: stop must not wait for it).
        task.start()
        task.stop()
    }

    @Test func aFailedRunIsLoggedNotThrown() throws {
        let fixture = try ResultsFixture()
        try fixture.database.write { try $0.execute("DROP TABLE events") }
        let lines = Mutex<[String]>([])
        let task = EventRetentionTask(
            pruner: EventPruner(retentionDays: 30), database: fixture.database,
            logger: Logger(level: .info) { line in lines.withLock { $0.append(line) } }, clock: .fixed(Self.now))
        #expect(task.runOnce() == 0)
        #expect(lines.withLock { $0 }.contains { $0.contains("event pruning failed") })
    }

    @Test func retentionSettingDefaultsToNinetyDaysAndIsChecked() throws {
        #expect(try ServiceConfiguration.resolve(fileText: nil, environment: [:], flags: [:]).eventRetentionDays == 90)
        let configured = try ServiceConfiguration.resolve(
            fileText: #"{"eventRetentionDays": 30}"#, environment: ["PRELUDE_EVENT_RETENTION_DAYS": "7"], flags: [:])
        #expect(configured.eventRetentionDays == 7)
        #expect(
            try ServiceConfiguration.resolve(fileText: nil, environment: [:], flags: [.eventRetentionDays: "0"])
                .eventRetentionDays == 0)
        for bad in ["-1", "ninety", "36501", "1.5"] {
            let error = #expect(throws: ConfigurationError.self) {
                try ServiceConfiguration.resolve(
                    fileText: nil, environment: ["PRELUDE_EVENT_RETENTION_DAYS": bad], flags: [:])
            }
            #expect(error?.setting == "PRELUDE_EVENT_RETENTION_DAYS")
            #expect(error?.problem.contains("number of days") == true)
        }
    }
}
